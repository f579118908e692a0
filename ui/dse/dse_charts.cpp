#include "ui/dse/dse_charts.hpp"

#include "ui/charts/front_3d_chart.hpp"
#include "ui/charts/hypervolume_chart.hpp"
#include "ui/charts/parallel_coordinates_chart.hpp"
#include "ui/document/dse_document.hpp"
#include "ui/dse/dse_front_model.hpp"

#include <QComboBox>
#include <QCursor>
#include <QTabWidget>
#include <QToolTip>
#include <algorithm>
#include <utility>

namespace cleave::ui {

DseCharts::DseCharts(const DseDocument* document, const DseFrontModel* front, QObject* parent)
    : QObject(parent), dse_(document), front_(front) {
    createChoices();
    createViews();
}

// The front: axes and colour to choose, and how the evaluated points off it are drawn.
void DseCharts::createChoices() {
    xAxis_ = new QComboBox;
    yAxis_ = new QComboBox;
    zAxis_ = new QComboBox;
    colour_ = new QComboBox;
    zAxis_->setToolTip(tr("The third axis of the 3-D view"));
    colour_->setToolTip(tr("What the colour of a point or line shows; generation: when the "
                           "search first met the mapping"));
    dominated_ = new QComboBox;
    infeasible_ = new QComboBox;
    for (auto* box : {dominated_, infeasible_}) {
        box->addItem(tr("hidden"), static_cast<int>(DseDisplay::hidden));
        box->addItem(tr("shown"), static_cast<int>(DseDisplay::shown));
        box->addItem(tr("marked"), static_cast<int>(DseDisplay::marked));
    }
    dominated_->setCurrentIndex(1);
    infeasible_->setCurrentIndex(0);
    dominated_->setToolTip(tr("Mappings the search evaluated that the front dominates (better "
                              "or equal in every objective): hidden, small dots, or hollow "
                              "squares"));
    infeasible_->setToolTip(tr("Mappings the search evaluated that overflow a device's memory or "
                               "whose PEs would wait on each other: hidden, small dots, or red "
                               "crosses"));
    for (auto* box : {xAxis_, yAxis_, zAxis_, colour_, dominated_, infeasible_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        connect(box, &QComboBox::currentIndexChanged, this, &DseCharts::choicesChanged);
    }
}

// The scatter, parallel coordinates and 3-D views, one tab each, and the hypervolume chart; what
// is hovered shows its summary, what is clicked is asked for.
void DseCharts::createViews() {
    frontView_ = new ParetoFrontChart;
    frontView_->setObjectName("dseFrontChart");
    hypervolumeView_ = new HypervolumeChart;
    hypervolumeView_->setObjectName("dseHypervolumeChart");
    connect(frontView_, &ParetoFrontChart::pointHovered, this, [this](int index, bool state) {
        if (state)
            QToolTip::showText(QCursor::pos(), solutionSummary(index), frontView_);
        else
            QToolTip::hideText();
    });
    connect(frontView_, &ParetoFrontChart::pointClicked, this, &DseCharts::solutionClicked);
    connect(frontView_, &ParetoFrontChart::cloudHovered, this, [this](int index, bool state) {
        if (state && index < static_cast<int>(cloud_.size()))
            QToolTip::showText(QCursor::pos(),
                               evaluatedSummary(cloud_[static_cast<std::size_t>(index)]),
                               frontView_);
        else
            QToolTip::hideText();
    });
    connect(frontView_, &ParetoFrontChart::cloudClicked, this, [this](int index) {
        if (index < static_cast<int>(cloud_.size()))
            emit evaluatedClicked(cloud_[static_cast<std::size_t>(index)]);
    });
    connect(frontView_, &ParetoFrontChart::optimumHovered, this, [this](int index, bool state) {
        if (state)
            QToolTip::showText(QCursor::pos(), exactSummary(index), frontView_);
        else
            QToolTip::hideText();
    });
    connect(frontView_, &ParetoFrontChart::optimumClicked, this, &DseCharts::exactClicked);
    parallelView_ = new ParallelCoordinatesChart;
    parallelView_->setObjectName("dseParallelChart");
    // Lines: the front (table order), then the cloud.
    const auto lineSummary = [this](int index) {
        const int fronts = static_cast<int>(front_->front().size());
        return index < fronts ? solutionSummary(index)
                              : evaluatedSummary(cloud_[static_cast<std::size_t>(index - fronts)]);
    };
    connect(parallelView_, &ParallelCoordinatesChart::lineHovered, this,
            [this, lineSummary](int index, bool state) {
                if (state)
                    QToolTip::showText(QCursor::pos(), lineSummary(index), parallelView_);
                else
                    QToolTip::hideText();
            });
    connect(parallelView_, &ParallelCoordinatesChart::lineClicked, this, [this](int index) {
        const int fronts = static_cast<int>(front_->front().size());
        if (index < fronts)
            emit solutionClicked(index);
        else
            emit evaluatedClicked(cloud_[static_cast<std::size_t>(index - fronts)]);
    });
    front3dView_ = new Front3dChart;
    front3dView_->setObjectName("dseFront3dChart");
    views_ = new QTabWidget;
    views_->setObjectName("dseFrontViews");
    views_->setDocumentMode(true);
    views_->addTab(frontView_, tr("Scatter"));
    views_->addTab(parallelView_, tr("Parallel coordinates"));
    views_->addTab(front3dView_, tr("3-D"));
    connect(views_, &QTabWidget::currentChanged, this, &DseCharts::choicesChanged);
}

void DseCharts::updateAxisChoices() {
    const DseAxisModel axes(dse_->objectives());
    const auto& objectives = dse_->objectives();
    axes.offer(xAxis_, false, DseQuantity::throughput);
    axes.offer(yAxis_, false, DseQuantity::memory);
    axes.offer(zAxis_, false,
               objectives.energy
                   ? DseQuantity::energy
                   : (objectives.latency ? DseQuantity::latency : DseQuantity::throughput));
    axes.offer(colour_, true, objectives.energy ? DseQuantity::energy : DseQuantity::none);
}

bool DseCharts::hasAxisChoices() const {
    return xAxis_->count() > 0;
}

void DseCharts::showEveryObjective() {
    if (dse_->objectives().count() > 3 && views_->currentWidget() == frontView_)
        views_->setCurrentWidget(parallelView_);
}

DseViewState DseCharts::viewState() const {
    DseViewState state;
    state.x = DseAxisModel::chosen(xAxis_);
    state.y = DseAxisModel::chosen(yAxis_);
    state.z = DseAxisModel::chosen(zAxis_);
    state.colour = DseAxisModel::chosen(colour_);
    state.dominated = static_cast<DseDisplay>(dominated_->currentData().toInt());
    state.infeasible = static_cast<DseDisplay>(infeasible_->currentData().toInt());
    state.tab = views_->currentIndex();
    return state;
}

void DseCharts::showViewState(const DseViewState& state) {
    const auto choose = [](QComboBox* box, int value) {
        if (const int index = box->findData(value); index >= 0)
            box->setCurrentIndex(index);
    };
    choose(xAxis_, static_cast<int>(state.x));
    choose(yAxis_, static_cast<int>(state.y));
    choose(zAxis_, static_cast<int>(state.z));
    choose(colour_, static_cast<int>(state.colour));
    choose(dominated_, static_cast<int>(state.dominated));
    choose(infeasible_, static_cast<int>(state.infeasible));
    views_->setCurrentIndex(std::clamp(state.tab, 0, views_->count() - 1));
}

void DseCharts::drawFront(bool live) {
    if (!hasAxisChoices())
        updateAxisChoices();
    const DseAxisModel axes(dse_->objectives());
    const auto cloud = drawScatter(axes);
    if (!live || views_->currentWidget() == parallelView_)
        drawParallel(axes, cloud);
    if (!live || views_->currentWidget() == front3dView_)
        draw3d(axes);
}

// The front at the chosen axes and colour, over the evaluated points as chosen (which become
// cloud_); the cloud as drawn.
std::vector<ParetoFrontChart::CloudPoint> DseCharts::drawScatter(const DseAxisModel& axes) {
    const auto x = DseAxisModel::chosen(xAxis_);
    const auto y = DseAxisModel::chosen(yAxis_);
    const auto c = DseAxisModel::chosen(colour_);
    const auto& front = front_->front();
    std::vector<QPointF> points;
    std::vector<double> colour;
    points.reserve(front.size());
    for (const auto& s : front) {
        points.emplace_back(axes.value(s, x), axes.value(s, y));
        if (c != DseQuantity::none)
            colour.push_back(axes.value(s, c));
    }
    // The evaluated points to draw under the front, by kind and choice.
    const auto dominated = static_cast<DseDisplay>(dominated_->currentData().toInt());
    const auto infeasible = static_cast<DseDisplay>(infeasible_->currentData().toInt());
    cloud_.clear();
    std::vector<ParetoFrontChart::CloudPoint> cloud;
    const auto& evaluated = dse_->evaluated();
    for (std::size_t i = 0; i < evaluated.size(); ++i) {
        const auto kind = dse_->kindOf(static_cast<int>(i));
        // Points no front solution dominates are always drawn (mostly mappings with the same
        // figures as one on the front, which keeps one mapping per figures).
        const DseDisplay display = kind == DseDocument::PointKind::infeasible  ? infeasible
                                   : kind == DseDocument::PointKind::dominated ? dominated
                                                                               : DseDisplay::shown;
        if (kind == DseDocument::PointKind::front || display == DseDisplay::hidden)
            continue;
        auto mark = ScatterCloudItem::Mark::dot;
        if (display == DseDisplay::marked && kind == DseDocument::PointKind::infeasible)
            mark = ScatterCloudItem::Mark::cross;
        else if (display == DseDisplay::marked && kind == DseDocument::PointKind::dominated)
            mark = ScatterCloudItem::Mark::square;
        const auto& s = evaluated[i];
        cloud.push_back({QPointF(axes.value(s, x), axes.value(s, y)),
                         c != DseQuantity::none ? axes.value(s, c) : 0.0, mark});
        cloud_.push_back(static_cast<int>(i));
    }
    std::vector<QPointF> optima;
    for (const auto& s : dse_->exact())
        optima.emplace_back(axes.value(s, x), axes.value(s, y));
    frontView_->setPoints(points, colour, DseAxisModel::name(x), DseAxisModel::name(y),
                          DseAxisModel::unit(c), cloud, optima);
    return cloud;
}

// Parallel coordinates: every objective, the front then the cloud, coloured as the scatter.
void DseCharts::drawParallel(const DseAxisModel& axes,
                             const std::vector<ParetoFrontChart::CloudPoint>& cloud) {
    const auto c = DseAxisModel::chosen(colour_);
    const auto quantities = axes.quantities();
    QStringList axisNames;
    for (const auto q : quantities)
        axisNames << DseAxisModel::name(q);
    const auto lineOf = [&](const dse::Solution& s, bool faint, bool red) {
        ParallelCoordinatesChart::Line line;
        for (const auto q : quantities)
            line.values.push_back(axes.value(s, q));
        line.colour = red ? QColor(0xb1, 0x00, 0x26)
                          : frontView_->colourFor(c != DseQuantity::none ? axes.value(s, c) : 0.0);
        line.faint = faint;
        return line;
    };
    const auto& front = front_->front();
    const auto& evaluated = dse_->evaluated();
    std::vector<ParallelCoordinatesChart::Line> lines;
    lines.reserve(front.size() + cloud_.size());
    for (const auto& s : front)
        lines.push_back(lineOf(s, false, false));
    for (std::size_t k = 0; k < cloud_.size(); ++k)
        lines.push_back(lineOf(evaluated[static_cast<std::size_t>(cloud_[k])], true,
                               cloud[k].mark == ScatterCloudItem::Mark::cross));
    parallelView_->setLines(axisNames, std::move(lines));
}

// The 3-D scatter: the front and the cloud at the chosen x, y and z.
void DseCharts::draw3d(const DseAxisModel& axes) {
    const auto x = DseAxisModel::chosen(xAxis_);
    const auto y = DseAxisModel::chosen(yAxis_);
    const auto z = DseAxisModel::chosen(zAxis_);
    const auto at = [&](const dse::Solution& s) {
        return QVector3D(static_cast<float>(axes.value(s, x)), static_cast<float>(axes.value(s, y)),
                         static_cast<float>(axes.value(s, z)));
    };
    std::vector<QVector3D> front3d, others3d;
    for (const auto& s : front_->front())
        front3d.push_back(at(s));
    for (const int i : cloud_)
        others3d.push_back(at(dse_->evaluated()[static_cast<std::size_t>(i)]));
    front3dView_->setPoints(front3d, others3d, DseAxisModel::name(x), DseAxisModel::name(y),
                            DseAxisModel::name(z));
}

void DseCharts::drawHypervolume(double budget) {
    QList<QPointF> points;
    const auto& history = dse_->history();
    points.reserve(static_cast<qsizetype>(history.size()));
    for (const auto& step : history)
        points.append(QPointF(static_cast<double>(step.evaluations), step.hypervolume));
    hypervolumeView_->setHistory(points, budget);
}

QString DseCharts::solutionSummary(int index) const {
    return front_->summary(index);
}

// An evaluated point's mapping and figures, and what it is against the front.
QString DseCharts::evaluatedSummary(int index) const {
    const auto& inputs = dse_->inputs();
    if (index < 0 || index >= static_cast<int>(dse_->evaluated().size()) || !inputs)
        return {};
    const auto& s = dse_->evaluated()[static_cast<std::size_t>(index)];
    QString kind;
    switch (dse_->kindOf(index)) {
    case DseDocument::PointKind::front:
        kind = tr("On the front.");
        break;
    case DseDocument::PointKind::dominated:
        kind = tr("Dominated by the front.");
        break;
    case DseDocument::PointKind::undominated:
        kind = tr("Not dominated by the front: the same figures as a solution on it, or "
                  "figures of another level.");
        break;
    case DseDocument::PointKind::infeasible: {
        // A PE with two segments (another PE's in between) waits on that PE, which waits on it.
        auto pes = s.mapping.pes;
        std::sort(pes.begin(), pes.end());
        kind = std::adjacent_find(pes.begin(), pes.end()) != pes.end()
                   ? tr("Infeasible: a PE runs segments before and after another PE's, so the "
                        "two would wait on each other; AutoDiCE cannot run it.")
                   : tr("Infeasible: overflows a device's memory.");
        break;
    }
    }
    return dse_solution_summary(s, dse_->objectives(), *inputs->request.cluster,
                                inputs->kernelCount()) +
           "\n" + kind;
}

// An exact optimum's mapping and figures, and what makes it one.
QString DseCharts::exactSummary(int index) const {
    const auto& inputs = dse_->inputs();
    const auto& exact = dse_->exact();
    if (index < 0 || index >= static_cast<int>(exact.size()) || !inputs)
        return {};
    return dse_solution_summary(exact[static_cast<std::size_t>(index)], dse_->objectives(),
                                *inputs->request.cluster, inputs->kernelCount()) +
           "\n" +
           tr("An exact optimum: the dynamic program over the decoder's layer ranges and the "
              "hosts' orders (cleave dse --exact). Click to show it in the Partition tab.");
}

} // namespace cleave::ui
