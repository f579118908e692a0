#include "ui/dse/dse_page.hpp"

#include "core/dse/exploration_inputs.hpp"
#include "core/input_error.hpp"
#include "ui/charts/front_3d_chart.hpp"
#include "ui/charts/hypervolume_chart.hpp"
#include "ui/charts/parallel_coordinates_chart.hpp"
#include "ui/charts/pareto_front_chart.hpp"
#include "ui/dse/dse_axis_model.hpp"
#include "ui/dse/dse_document.hpp"
#include "ui/dse/dse_front_model.hpp"
#include "ui/dse/dse_view_state.hpp"
#include "ui/partition/partition_document.hpp"

#include <QComboBox>
#include <QCursor>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>
#include <utility>

namespace cleave::ui {

namespace {

// A core note as a sentence of the status line.
QString capitalised(const std::string& note) {
    QString text = QString::fromStdString(note);
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

// The UI's name for a check_settings flag.
QString settingName(const std::string& place) {
    if (place == "--population")
        return QObject::tr("Population");
    if (place == "--generations" || place == "--budget")
        return QObject::tr("Generations");
    if (place == "--stages")
        return QObject::tr("Stages");
    if (place == "--levels")
        return QObject::tr("Levels");
    if (place == "--cluster")
        return QObject::tr("Cluster");
    if (place == "MODEL")
        return QObject::tr("Model");
    return QString::fromStdString(place);
}

const char* levelName(dse::Level level) {
    return level == dse::Level::analytical ? "analytical" : "replay";
}

} // namespace

DsePage::DsePage(DseDocument* document, QWidget* parent)
    : QWidget(parent), dse_(document), mapping_(document->mapping()),
      runner_(new DseRunner(this)) {
    setObjectName("dsePage");
    settingsForm_ = new DseSettingsForm;

    runButton_ = new QPushButton(tr("Run"));
    pauseButton_ = new QPushButton(tr("Pause"));
    cancelButton_ = new QPushButton(tr("Cancel"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(runButton_);
    buttons->addWidget(pauseButton_);
    buttons->addWidget(cancelButton_);
    progress_ = new QProgressBar;
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setFormat(tr("%v / %m evaluations"));
    progress_->setTextVisible(false); // until a search runs
    status_ = new QLabel;
    status_->setWordWrap(true);
    error_ = new QLabel;
    error_->setWordWrap(true);
    error_->setStyleSheet("color: #b10026");
    notes_ = new QLabel;
    notes_->setWordWrap(true);
    notes_->setStyleSheet("color: palette(mid)");


    // The front: axes and colour to choose, a scatter.
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
    for (auto* box : {xAxis_, yAxis_, zAxis_, colour_, dominated_, infeasible_})
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* axes = new QHBoxLayout;
    axes->addWidget(new QLabel(tr("Front: x")));
    axes->addWidget(xAxis_);
    axes->addWidget(new QLabel(tr("y")));
    axes->addWidget(yAxis_);
    axes->addWidget(new QLabel(tr("z (3-D)")));
    axes->addWidget(zAxis_);
    axes->addWidget(new QLabel(tr("colour")));
    axes->addWidget(colour_);
    axes->addStretch(1);
    exportFrontButton_ = new QPushButton(tr("Export Front…"));
    exportFrontButton_->setToolTip(tr("Write the front as CSV or JSON (as cleave dse --json)"));
    exportPackageButton_ = new QPushButton(tr("Export Package…"));
    exportPackageButton_->setToolTip(tr("Apply the selected solution and write it as an "
                                        "AutoDiCE package"));
    auto* shows = new QHBoxLayout;
    shows->addWidget(new QLabel(tr("Dominated")));
    shows->addWidget(dominated_);
    shows->addWidget(new QLabel(tr("Infeasible")));
    shows->addWidget(infeasible_);
    shows->addStretch(1);
    shows->addWidget(exportFrontButton_);
    shows->addWidget(exportPackageButton_);

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
    connect(frontView_, &ParetoFrontChart::pointClicked, this, &DsePage::applySolution);
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
            applyEvaluated(cloud_[static_cast<std::size_t>(index)]);
    });
    parallelView_ = new ParallelCoordinatesChart;
    parallelView_->setObjectName("dseParallelChart");
    // Lines: the front (table order), then the cloud.
    const auto lineSummary = [this](int index) {
        const int fronts = static_cast<int>(frontModel_->front().size());
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
        const int fronts = static_cast<int>(frontModel_->front().size());
        if (index < fronts)
            applySolution(index);
        else
            applyEvaluated(cloud_[static_cast<std::size_t>(index - fronts)]);
    });
    front3dView_ = new Front3dChart;
    front3dView_->setObjectName("dseFront3dChart");
    views_ = new QTabWidget;
    views_->setObjectName("dseFrontViews");
    views_->setDocumentMode(true);
    views_->addTab(frontView_, tr("Scatter"));
    views_->addTab(parallelView_, tr("Parallel coordinates"));
    views_->addTab(front3dView_, tr("3-D"));

    hypervolumeView_->setMinimumWidth(240);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(settingsForm_);
    leftLayout->addLayout(buttons);
    leftLayout->addWidget(progress_);
    leftLayout->addWidget(status_);
    leftLayout->addWidget(error_);
    leftLayout->addWidget(notes_);
    leftLayout->addStretch(1);
    // Scrolls rather than squeezes the settings when the window is short.
    auto* leftScroll = new QScrollArea;
    leftScroll->setWidget(left);
    leftScroll->setWidgetResizable(true);
    leftScroll->setFrameShape(QFrame::NoFrame);
    leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    leftScroll->setMinimumWidth(300);
    leftScroll->setMaximumWidth(400);

    frontView_->setMinimumHeight(200);
    frontView_->setMinimumWidth(320);
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(views_);
    charts->addWidget(hypervolumeView_);
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);
    charts->setChildrenCollapsible(false);

    frontModel_ = new DseFrontModel(this);
    table_ = new QTableView;
    table_->setModel(frontModel_);
    table_->setObjectName("dseSolutionTable");
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(false);
    table_->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    table_->setToolTip(tr("Click a solution to show its mapping in the Partition tab"));

    // The axis choices above both charts, the table under them.
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(charts);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    table_->setMinimumHeight(120);
    split->setChildrenCollapsible(false);
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addLayout(axes);
    rightLayout->addLayout(shows);
    rightLayout->addWidget(split, 1);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(leftScroll);
    layout->addWidget(right, 1);

    connect(settingsForm_, &DseSettingsForm::changed, this, [this] {
        if (!applying_)
            dse_->setSettings(settings(), settingsForm_->latencyObjective(), true);
        checkSettings();
    });
    for (auto* box : {xAxis_, yAxis_, zAxis_, colour_, dominated_, infeasible_})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            pushView();
            drawFront();
        });
    connect(views_, &QTabWidget::currentChanged, this, [this] {
        pushView();
        drawFront();
    });
    connect(exportFrontButton_, &QPushButton::clicked, this, &DsePage::exportFrontDialog);
    connect(exportPackageButton_, &QPushButton::clicked, this, [this] {
        const auto rows = table_->selectionModel()->selectedRows();
        if (!rows.isEmpty() && applySolution(rows.front().row()))
            emit exportPackageRequested();
    });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &DsePage::updateButtons);
    connect(runButton_, &QPushButton::clicked, this, [this] { run(); });
    connect(pauseButton_, &QPushButton::clicked, this, [this] {
        if (runner_->isPaused())
            resume();
        else
            pause();
    });
    connect(cancelButton_, &QPushButton::clicked, this, &DsePage::cancel);
    connect(table_, &QTableView::clicked, this,
            [this](const QModelIndex& index) { applySolution(index.row()); });
    connect(runner_, &DseRunner::stepped, this, &DsePage::showStep);
    connect(runner_, &DseRunner::finished, this, &DsePage::showOutcome);
    connect(runner_, &DseRunner::pausedChanged, this, [this](bool paused) {
        if (paused)
            status_->setText(tr("Paused after the current generation. ") + status_->text());
        updateButtons();
    });
    connect(mapping_, &PartitionDocument::inputsChanged, this, &DsePage::inputsChanged);
    connect(dse_, &DseDocument::resultChanged, this, &DsePage::showResult);
    connect(dse_, &DseDocument::restored, this, &DsePage::showRestored);
    // The document starts from the form's settings and the charts' choices: no edit.
    applying_ = true;
    dse_->setSettings(settings(), settingsForm_->latencyObjective(), false);
    showResult();
    inputsChanged();
    pushView();
    applying_ = false;
}

dse::SearchSettings DsePage::settings() const {
    return settingsForm_->settings();
}

QString DsePage::settingsError() const { return settingsError_; }

void DsePage::checkSettings() {
    settingsError_.clear();
    const auto& inputs = mapping_->inputs();
    int pes = -1, kernels = -1;
    if (inputs && inputs->costs) {
        pes = static_cast<int>(dse_space_inputs(*inputs, false).pes.size());
        kernels = inputs->kernelCount();
    }
    try {
        dse::check_settings(settings(), pes, kernels);
    } catch (const InputError& e) {
        settingsError_ = settingName(e.place()) + ": " + QString::fromStdString(e.problem());
    }
    error_->setText(settingsError_);
    updateButtons();
}

void DsePage::updateButtons() {
    const bool running = runner_->isRunning();
    const auto& inputs = mapping_->inputs();
    const bool ready = inputs && inputs->costs;
    runButton_->setEnabled(!running && ready && settingsError_.isEmpty());
    pauseButton_->setEnabled(running);
    pauseButton_->setText(runner_->isPaused() ? tr("Resume") : tr("Pause"));
    cancelButton_->setEnabled(running);
    exportFrontButton_->setEnabled(!frontModel_->front().empty());
    exportPackageButton_->setEnabled(table_->selectionModel() &&
                                     table_->selectionModel()->hasSelection());
    settingsForm_->setEnabled(!running);
}

void DsePage::inputsChanged() {
    // A front searched over other kernels or another cluster no longer applies (the document
    // drops it); neither does a search running over them.
    if (runner_->isRunning())
        runner_->cancel();
    const auto& inputs = mapping_->inputs();
    if (!inputs || !inputs->costs) {
        status_->setText(tr("Open a model and a cluster: the search maps the Partition tab's "
                            "kernels onto the cluster's PEs."));
        notes_->clear();
    } else if (!runner_->isRunning() && frontModel_->front().empty()) {
        status_->setText(tr("%1 kernels on %2 PEs with latencies. Run searches for the mappings "
                            "no other mapping beats in every objective.")
                             .arg(inputs->kernelCount())
                             .arg(dse_space_inputs(*inputs, false).pes.size()));
    }
    checkSettings();
}

bool DsePage::run() {
    checkSettings();
    const auto& inputs = mapping_->inputs();
    if (!settingsError_.isEmpty() || !inputs || !inputs->costs || runner_->isRunning())
        return false;
    discardRun_ = false;
    if (!runner_->start(inputs, settings(), settingsForm_->latencyObjective()))
        return false;
    const auto searched = settings();
    const std::int64_t budget =
        static_cast<std::int64_t>(searched.population) * (searched.generations + 1);
    updateAxisChoices(); // the table's columns and the charts follow this search's objectives
    dse_->startSearch(inputs, runner_->objectives(), budget);
    // Four objectives do not fit one scatter: parallel coordinates show them all.
    if (dse_->objectives().count() > 3 && views_->currentWidget() == frontView_)
        views_->setCurrentWidget(parallelView_);
    // One line for the PEs left out (their reasons are long and alike), the others as they are.
    QStringList notes, leftOut, all;
    const auto& cluster = *inputs->request.cluster;
    for (int pe = 0; pe < inputs->peCount(); ++pe)
        if (!inputs->hasLatencies(pe))
            leftOut << QString::fromStdString(cluster.pes[static_cast<std::size_t>(pe)].key);
    if (!leftOut.isEmpty())
        notes << tr("%n PE(s) without latencies left out (%1)", "", static_cast<int>(leftOut.size()))
                     .arg(leftOut.size() > 2 ? leftOut.front() + " … " + leftOut.back()
                                             : leftOut.join(", "));
    for (const auto& note : runner_->notes()) {
        all << QString::fromStdString(note);
        if (note.find(" has no latencies: ") == std::string::npos)
            notes << all.back();
    }
    notes_->setText(notes.join("\n"));
    notes_->setToolTip(all.join("\n"));
    status_->setText(tr("Starting the search…"));
    updateButtons();
    return true;
}

void DsePage::pause() { runner_->pause(); }
void DsePage::resume() {
    runner_->resume();
    status_->setText(tr("Resumed."));
}
void DsePage::cancel() {
    if (!runner_->isRunning())
        return;
    runner_->cancel();
    status_->setText(tr("Cancelling after the current generation…"));
}

void DsePage::showStep(const DseStep& step) {
    // Steps of a search whose inputs were replaced may still be queued: they no longer apply.
    if (discardRun_ || dse_->inputs() != runner_->inputs())
        return;
    dse_->addStep(step.front, step.evaluated, step.history, step.evaluations, step.budget);
    if (!runner_->isPaused())
        status_->setText(tr("Stage %1 (%2 PEs), level %3 (%4): generation %5/%6, phase %7/%8. "
                            "Front: %9 solutions, hypervolume %10.")
                             .arg(step.stage)
                             .arg(step.pes)
                             .arg(static_cast<int>(step.level))
                             .arg(levelName(step.level))
                             .arg(step.generation)
                             .arg(step.generations)
                             .arg(step.phase_index + 1)
                             .arg(step.phases)
                             .arg(step.front.size())
                             .arg(step.hypervolume, 0, 'f', 4));
}

void DsePage::showOutcome() {
    updateButtons();
    if (std::exchange(discardRun_, false)) {
        emit finished();
        return;
    }
    if (!runner_->error().isEmpty()) {
        status_->setText(tr("The search failed: %1").arg(runner_->error()));
        emit finished();
        return;
    }
    const auto& result = runner_->result();
    if (dse_->inputs() != runner_->inputs()) {
        status_->setText(tr("The search was cancelled: the Partition tab shows other kernels or "
                            "another cluster now."));
        emit finished();
        return;
    }
    dse_->finishSearch(result, runner_->evaluatedTail());
    const auto& history = dse_->history();
    const double hv = history.empty() ? 0.0 : history.back().hypervolume;
    status_->setText((result.cancelled ? tr("Cancelled after %1 evaluations: the front so far, "
                                            "%2 solutions, hypervolume %3.")
                                       : tr("Done: %1 evaluations, %2 solutions on the front, "
                                            "hypervolume %3."))
                         .arg(result.evaluations)
                         .arg(frontModel_->front().size())
                         .arg(hv, 0, 'f', 4) +
                     (frontModel_->front().empty()
                          ? " " + capitalised(dse::empty_front_explanation(settings().encoding)) +
                                tr(" (Infeasible: shown draws them).")
                          : tr(" Click a point or a row to show it in the Partition tab.")));
    emit finished();
}

void DsePage::showResult() {
    frontModel_->setFront(dse_->front(), dse_->objectives(), dse_->inputs());
    drawFront();
    table_->resizeColumnsToContents();
    drawHypervolume();
    if (dse_->inputs()) {
        const auto budget = std::max<std::int64_t>(dse_->budget(), 1);
        progress_->setRange(0, static_cast<int>(std::min<std::int64_t>(budget, INT_MAX)));
        progress_->setValue(static_cast<int>(std::min(dse_->evaluations(), budget)));
        progress_->setTextVisible(true);
    } else {
        progress_->setRange(0, 1);
        progress_->setValue(0);
        progress_->setTextVisible(false);
    }
    updateButtons();
}

// The quantities this search has; the choices made so far are kept where they still exist.
void DsePage::updateAxisChoices() {
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

void DsePage::drawFront() {
    if (xAxis_->count() == 0)
        updateAxisChoices();
    const DseAxisModel axes(dse_->objectives());
    const auto x = DseAxisModel::chosen(xAxis_);
    const auto y = DseAxisModel::chosen(yAxis_);
    const auto z = DseAxisModel::chosen(zAxis_);
    const auto c = DseAxisModel::chosen(colour_);
    const auto valueOf = [&axes](const dse::Solution& s, DseQuantity q) {
        return axes.value(s, q);
    };
    const auto& front = frontModel_->front();
    std::vector<QPointF> points;
    std::vector<double> colour;
    points.reserve(front.size());
    for (const auto& s : front) {
        points.emplace_back(valueOf(s, x), valueOf(s, y));
        if (c != DseQuantity::none)
            colour.push_back(valueOf(s, c));
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
        cloud.push_back({QPointF(valueOf(s, x), valueOf(s, y)),
                         c != DseQuantity::none ? valueOf(s, c) : 0.0, mark});
        cloud_.push_back(static_cast<int>(i));
    }
    frontView_->setPoints(points, colour, DseAxisModel::name(x), DseAxisModel::name(y),
                          DseAxisModel::unit(c), cloud);

    // While a search runs, views not on show wait for their tab (or the search's end).
    const bool live = runner_->isRunning();
    if (!live || views_->currentWidget() == parallelView_) {
        // Parallel coordinates: every objective, the front then the cloud, coloured as above.
        const auto quantities = axes.quantities();
        QStringList axisNames;
        for (const auto q : quantities)
            axisNames << DseAxisModel::name(q);
        const auto lineOf = [&](const dse::Solution& s, bool faint, bool red) {
            ParallelCoordinatesChart::Line line;
            for (const auto q : quantities)
                line.values.push_back(valueOf(s, q));
            line.colour = red ? QColor(0xb1, 0x00, 0x26)
                              : frontView_->colourFor(c != DseQuantity::none ? valueOf(s, c) : 0.0);
            line.faint = faint;
            return line;
        };
        std::vector<ParallelCoordinatesChart::Line> lines;
        lines.reserve(front.size() + cloud_.size());
        for (const auto& s : front)
            lines.push_back(lineOf(s, false, false));
        for (std::size_t k = 0; k < cloud_.size(); ++k)
            lines.push_back(lineOf(evaluated[static_cast<std::size_t>(cloud_[k])], true,
                                   cloud[k].mark == ScatterCloudItem::Mark::cross));
        parallelView_->setLines(axisNames, std::move(lines));
    }
    if (!live || views_->currentWidget() == front3dView_) {
        const auto at = [&](const dse::Solution& s) {
            return QVector3D(static_cast<float>(valueOf(s, x)), static_cast<float>(valueOf(s, y)),
                             static_cast<float>(valueOf(s, z)));
        };
        std::vector<QVector3D> front3d, others3d;
        for (const auto& s : front)
            front3d.push_back(at(s));
        for (const int i : cloud_)
            others3d.push_back(at(evaluated[static_cast<std::size_t>(i)]));
        front3dView_->setPoints(front3d, others3d, DseAxisModel::name(x), DseAxisModel::name(y),
                                DseAxisModel::name(z));
    }
}

void DsePage::drawHypervolume() {
    QList<QPointF> points;
    const auto& history = dse_->history();
    points.reserve(static_cast<qsizetype>(history.size()));
    for (const auto& step : history)
        points.append(QPointF(static_cast<double>(step.evaluations), step.hypervolume));
    hypervolumeView_->setHistory(points, static_cast<double>(progress_->maximum()));
}

QString DsePage::solutionSummary(int index) const { return frontModel_->summary(index); }

bool DsePage::applyMapping(const dse::Solution& s) {
    if (!dse_->inputs() || dse_->inputs() != mapping_->inputs()) {
        status_->setText(tr("The Partition tab shows other kernels or another cluster now: run "
                            "the search again."));
        return false;
    }
    mapping_->replaceMapping(s.mapping, tr("DSE solution (%1 inferences/s)")
                                             .arg(s.throughput_per_s, 0, 'f', 1));
    return true;
}

bool DsePage::applySolution(int index) {
    if (index < 0 || index >= static_cast<int>(frontModel_->front().size()))
        return false;
    if (!applyMapping(frontModel_->front()[static_cast<std::size_t>(index)]))
        return false;
    table_->selectRow(index);
    emit solutionApplied(index);
    return true;
}

bool DsePage::applyEvaluated(int index) {
    if (index < 0 || index >= static_cast<int>(dse_->evaluated().size()))
        return false;
    const auto& s = dse_->evaluated()[static_cast<std::size_t>(index)];
    if (!applyMapping(s))
        return false;
    table_->clearSelection();
    emit solutionApplied(-1);
    return true;
}

QString DsePage::evaluatedSummary(int index) const {
    const auto& inputs = dse_->inputs();
    if (index < 0 || index >= static_cast<int>(dse_->evaluated().size()) || !inputs)
        return {};
    const auto& s = dse_->evaluated()[static_cast<std::size_t>(index)];
    QString kind;
    switch (dse_->kindOf(index)) {
    case DseDocument::PointKind::front: kind = tr("On the front."); break;
    case DseDocument::PointKind::dominated: kind = tr("Dominated by the front."); break;
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

bool DsePage::exportFront(const QString& path) {
    if (const QString error = dse_->exportFront(path); !error.isEmpty()) {
        error_->setText(error);
        return false;
    }
    status_->setText(tr("Wrote the front (%n solution(s)) to %1.", "",
                        static_cast<int>(dse_->front().size()))
                         .arg(QFileInfo(path).fileName()));
    return true;
}

void DsePage::exportFrontDialog() {
    QString filter;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Front"), "front.csv", tr("CSV (*.csv);;JSON (*.json)"), &filter);
    if (path.isEmpty())
        return;
    QString chosen = path;
    if (QFileInfo(path).suffix().isEmpty())
        chosen += filter.startsWith("JSON") ? ".json" : ".csv";
    exportFront(chosen);
}

// The chart choices on show.
DseViewState DsePage::viewState() const {
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

// Shows `state`'s choices where the boxes offer them, in order (each one shown is reported).
void DsePage::showViewState(const DseViewState& state) {
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

// A choice the user made is an edit; one the tab made while showing the document's is not.
void DsePage::pushView() {
    if (xAxis_->count() > 0)
        dse_->setView(viewState().toJson(), !applying_);
}

void DsePage::showRestored(const QString& error, bool withResult) {
    if (runner_->isRunning()) {
        runner_->cancel();
        discardRun_ = true;
    }
    if (!error.isEmpty()) {
        status_->setText(tr("Cannot restore the DSE tab: %1").arg(error));
        return;
    }
    applying_ = true;
    settingsForm_->setSettings(dse_->settings(), dse_->latencyObjective());
    updateAxisChoices();
    // The chart choices kept, read before any is shown (each one shown is reported back to the
    // document); a choice missing or unknown keeps the one on show.
    showViewState(DseViewState::fromJson(dse_->view(), viewState()));
    applying_ = false;
    pushView();
    if (withResult)
        status_->setText(tr("Restored front: %1 solutions after %2 evaluations. Click a point "
                            "or a row to show it in the Partition tab.")
                             .arg(dse_->front().size())
                             .arg(dse_->evaluations()));
    drawFront();
    checkSettings();
}

QString DsePage::statusText() const { return status_->text(); }
QString DsePage::errorText() const { return error_->text(); }

} // namespace cleave::ui
