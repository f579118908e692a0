#include "ui/dse/dse_page.hpp"

#include "ui/charts/front_3d_chart.hpp"
#include "ui/charts/hypervolume_chart.hpp"
#include "ui/charts/parallel_coordinates_chart.hpp"
#include "ui/charts/pareto_front_chart.hpp"
#include "core/atomic_file.hpp"
#include "core/dse/exploration_inputs.hpp"
#include "core/dse/front_output.hpp"
#include "core/dse/pareto_front.hpp"
#include "core/dse/search_state.hpp"
#include "core/input_error.hpp"
#include "ui/dse/dse_front_model.hpp"
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
#include <cmath>
#include <limits>
#include <unordered_map>
#include <utility>

namespace cleave::ui {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

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

DsePage::DsePage(PartitionDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), runner_(new DseRunner(this)) {
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
        box->addItem(tr("hidden"), static_cast<int>(Display::hidden));
        box->addItem(tr("shown"), static_cast<int>(Display::shown));
        box->addItem(tr("marked"), static_cast<int>(Display::marked));
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

    connect(settingsForm_, &DseSettingsForm::changed, this, &DsePage::checkSettings);
    for (auto* box : {xAxis_, yAxis_, zAxis_, colour_, dominated_, infeasible_})
        connect(box, &QComboBox::currentIndexChanged, this, &DsePage::drawFront);
    connect(views_, &QTabWidget::currentChanged, this, &DsePage::drawFront);
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
    connect(runner_, &DseRunner::finished, this, &DsePage::showResult);
    connect(runner_, &DseRunner::pausedChanged, this, [this](bool paused) {
        if (paused)
            status_->setText(tr("Paused after the current generation. ") + status_->text());
        updateButtons();
    });
    connect(document_, &PartitionDocument::inputsChanged, this, &DsePage::inputsChanged);
    inputsChanged();
}

dse::SearchSettings DsePage::settings() const {
    return settingsForm_->settings();
}

QString DsePage::settingsError() const { return settingsError_; }

void DsePage::checkSettings() {
    settingsError_.clear();
    const auto& inputs = document_->inputs();
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
    const auto& inputs = document_->inputs();
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
    // A front searched over other kernels or another cluster no longer applies.
    if (runner_->isRunning())
        runner_->cancel();
    const auto& inputs = document_->inputs();
    if (frontInputs_ && frontInputs_ != inputs) {
        frontInputs_.reset();
        history_.clear();
        evaluated_.clear();
        setFront({});
        drawHypervolume();
        progress_->setRange(0, 1);
        progress_->setValue(0);
        progress_->setTextVisible(false);
    }
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
    // A restored state waits for the kernels and cluster it was searched over.
    if (!pendingState_.is_null() && inputs && inputs->costs && !runner_->isRunning()) {
        auto state = std::move(pendingState_);
        pendingState_ = nullptr;
        applyState(state);
    }
}

bool DsePage::run() {
    checkSettings();
    const auto& inputs = document_->inputs();
    if (!settingsError_.isEmpty() || !inputs || !inputs->costs || runner_->isRunning())
        return false;
    history_.clear();
    evaluated_.clear();
    pendingState_ = nullptr;
    discardRun_ = false;
    setFront({});
    frontInputs_ = inputs;
    if (!runner_->start(inputs, settings(), settingsForm_->latencyObjective()))
        return false;
    objectives_ = runner_->objectives();
    evaluations_ = 0;
    cancelled_ = false;
    // Four objectives do not fit one scatter: parallel coordinates show them all.
    if (objectives_.count() > 3 && views_->currentWidget() == frontView_)
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
    const auto searched = settings();
    const std::int64_t budget =
        static_cast<std::int64_t>(searched.population) * (searched.generations + 1);
    progress_->setRange(0, static_cast<int>(std::min<std::int64_t>(budget, INT_MAX)));
    progress_->setValue(0);
    progress_->setTextVisible(true);
    status_->setText(tr("Starting the search…"));
    updateAxisChoices();
    setFront({}); // the table's columns follow this search's objectives
    drawHypervolume();
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
    if (discardRun_ || frontInputs_ != runner_->inputs())
        return;
    progress_->setMaximum(static_cast<int>(std::min<std::int64_t>(step.budget, INT_MAX)));
    progress_->setValue(static_cast<int>(std::min<std::int64_t>(step.evaluations, INT_MAX)));
    history_.insert(history_.end(), step.history.begin(), step.history.end());
    evaluated_.merge(step.evaluated);
    evaluations_ = step.evaluations;
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
    setFront(step.front);
    drawHypervolume();
}

void DsePage::showResult() {
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
    if (frontInputs_ != runner_->inputs()) {
        status_->setText(tr("The search was cancelled: the Partition tab shows other kernels or "
                            "another cluster now."));
        emit finished();
        return;
    }
    // The result's history is complete; the steps may have left out the last generations.
    history_ = result.history;
    evaluated_.merge(runner_->evaluatedTail());
    evaluations_ = result.evaluations;
    cancelled_ = result.cancelled;
    setFront(result.front);
    progress_->setValue(static_cast<int>(std::min<std::int64_t>(result.evaluations, INT_MAX)));
    const double hv = history_.empty() ? 0.0 : history_.back().hypervolume;
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
    drawHypervolume();
    emit finished();
}

void DsePage::setFront(std::vector<dse::Solution> front) {
    frontModel_->setFront(std::move(front), objectives_, frontInputs_);
    classify();
    drawFront();
    table_->resizeColumnsToContents();
    updateButtons();
}

// Each evaluated point against the front on show: on it, dominated by one of its solutions
// (better or equal in every objective, better in one), neither (evaluated at another level), or
// over a device's memory.
void DsePage::classify() {
    const auto& front = frontModel_->front();
    std::unordered_map<std::string, int> onFront;
    for (const auto& s : front)
        onFront.emplace(dse::mapping_id(s.mapping), 0);
    const auto& points = evaluated_.points();
    kinds_.assign(points.size(), PointKind::undominated);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        if (!p.feasible) {
            kinds_[i] = PointKind::infeasible;
            continue;
        }
        if (onFront.count(dse::mapping_id(p.mapping))) {
            kinds_[i] = PointKind::front;
            continue;
        }
        for (const auto& f : front)
            if (dse::dominates(f.objectives, p.objectives)) {
                kinds_[i] = PointKind::dominated;
                break;
            }
    }
}

DsePage::PointKind DsePage::kindOf(int index) const {
    return index >= 0 && index < static_cast<int>(kinds_.size())
               ? kinds_[static_cast<std::size_t>(index)]
               : PointKind::undominated;
}

QString DsePage::nameOf(Quantity quantity) const {
    switch (quantity) {
    case Quantity::throughput: return tr("throughput (1/s)");
    case Quantity::memory: return tr("max memory (MiB)");
    case Quantity::energy: return tr("max energy (mJ)");
    case Quantity::latency: return tr("latency (ms)");
    case Quantity::generation: return tr("generation");
    case Quantity::none: break;
    }
    return tr("none");
}

double DsePage::valueOf(const dse::Solution& solution, Quantity quantity) const {
    switch (quantity) {
    case Quantity::throughput: return solution.throughput_per_s;
    case Quantity::memory:
        return objectives_.value(solution.objectives, dse::Objective::max_memory_bytes) / kMiB;
    case Quantity::energy:
        return objectives_.energy
                   ? objectives_.value(solution.objectives, dse::Objective::max_energy_mj)
                   : 0.0;
    case Quantity::latency:
        return objectives_.latency
                   ? objectives_.value(solution.objectives, dse::Objective::latency_ms)
                   : 0.0;
    case Quantity::generation: return solution.generation;
    case Quantity::none: break;
    }
    return 0;
}

// The quantities this search has; the choices made so far are kept where they still exist.
void DsePage::updateAxisChoices() {
    std::vector<Quantity> quantities{Quantity::throughput, Quantity::memory};
    if (objectives_.energy)
        quantities.push_back(Quantity::energy);
    if (objectives_.latency)
        quantities.push_back(Quantity::latency);
    const auto fill = [&](QComboBox* box, bool withNone, Quantity fallback) {
        const auto old = box->currentIndex() >= 0 ? static_cast<Quantity>(box->currentData().toInt())
                                                   : fallback;
        const QSignalBlocker quiet(box); // one redraw, by the caller
        box->clear();
        if (withNone)
            box->addItem(nameOf(Quantity::none), static_cast<int>(Quantity::none));
        for (const auto q : quantities)
            box->addItem(nameOf(q), static_cast<int>(q));
        if (withNone)
            box->addItem(nameOf(Quantity::generation), static_cast<int>(Quantity::generation));
        const int index = box->findData(static_cast<int>(old));
        box->setCurrentIndex(index >= 0 ? index : box->findData(static_cast<int>(fallback)));
    };
    fill(xAxis_, false, Quantity::throughput);
    fill(yAxis_, false, Quantity::memory);
    fill(zAxis_, false,
         objectives_.energy ? Quantity::energy
                            : (objectives_.latency ? Quantity::latency : Quantity::throughput));
    fill(colour_, true, objectives_.energy ? Quantity::energy : Quantity::none);
}

void DsePage::drawFront() {
    if (xAxis_->count() == 0)
        updateAxisChoices();
    const auto x = static_cast<Quantity>(xAxis_->currentData().toInt());
    const auto y = static_cast<Quantity>(yAxis_->currentData().toInt());
    const auto z = static_cast<Quantity>(zAxis_->currentData().toInt());
    const auto c = static_cast<Quantity>(colour_->currentData().toInt());
    const auto& front = frontModel_->front();
    std::vector<QPointF> points;
    std::vector<double> colour;
    points.reserve(front.size());
    for (const auto& s : front) {
        points.emplace_back(valueOf(s, x), valueOf(s, y));
        if (c != Quantity::none)
            colour.push_back(valueOf(s, c));
    }
    // The evaluated points to draw under the front, by kind and choice.
    const auto dominated = static_cast<Display>(dominated_->currentData().toInt());
    const auto infeasible = static_cast<Display>(infeasible_->currentData().toInt());
    cloud_.clear();
    std::vector<ParetoFrontChart::CloudPoint> cloud;
    const auto& evaluated = evaluated_.points();
    for (std::size_t i = 0; i < evaluated.size(); ++i) {
        const PointKind kind = kinds_[i];
        // Points no front solution dominates are always drawn (mostly mappings with the same
        // figures as one on the front, which keeps one mapping per figures).
        const Display display = kind == PointKind::infeasible  ? infeasible
                                : kind == PointKind::dominated ? dominated
                                                               : Display::shown;
        if (kind == PointKind::front || display == Display::hidden)
            continue;
        auto mark = ScatterCloudItem::Mark::dot;
        if (display == Display::marked && kind == PointKind::infeasible)
            mark = ScatterCloudItem::Mark::cross;
        else if (display == Display::marked && kind == PointKind::dominated)
            mark = ScatterCloudItem::Mark::square;
        const auto& s = evaluated[i];
        cloud.push_back({QPointF(valueOf(s, x), valueOf(s, y)),
                         c != Quantity::none ? valueOf(s, c) : 0.0, mark});
        cloud_.push_back(static_cast<int>(i));
    }
    const QString unit = c == Quantity::throughput ? tr("/s")
                         : c == Quantity::memory   ? tr(" MiB")
                         : c == Quantity::energy   ? tr(" mJ")
                         : c == Quantity::latency  ? tr(" ms")
                                                   : tr(" (generation)");
    frontView_->setPoints(points, colour, nameOf(x), nameOf(y), unit, cloud);

    // While a search runs, views not on show wait for their tab (or the search's end).
    const bool live = runner_->isRunning();
    if (!live || views_->currentWidget() == parallelView_) {
        // Parallel coordinates: every objective, the front then the cloud, coloured as above.
        std::vector<Quantity> axes{Quantity::throughput, Quantity::memory};
        if (objectives_.energy)
            axes.push_back(Quantity::energy);
        if (objectives_.latency)
            axes.push_back(Quantity::latency);
        QStringList axisNames;
        for (const auto q : axes)
            axisNames << nameOf(q);
        const auto lineOf = [&](const dse::Solution& s, bool faint, bool red) {
            ParallelCoordinatesChart::Line line;
            for (const auto q : axes)
                line.values.push_back(valueOf(s, q));
            line.colour = red ? QColor(0xb1, 0x00, 0x26)
                              : frontView_->colourFor(c != Quantity::none ? valueOf(s, c) : 0.0);
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
        front3dView_->setPoints(front3d, others3d, nameOf(x), nameOf(y), nameOf(z));
    }
}

void DsePage::drawHypervolume() {
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(history_.size()));
    for (const auto& step : history_)
        points.append(QPointF(static_cast<double>(step.evaluations), step.hypervolume));
    hypervolumeView_->setHistory(points, static_cast<double>(progress_->maximum()));
}

QString DsePage::solutionSummary(int index) const { return frontModel_->summary(index); }

const std::vector<dse::Solution>& DsePage::front() const { return frontModel_->front(); }

bool DsePage::applyMapping(const dse::Solution& s) {
    if (!frontInputs_ || frontInputs_ != document_->inputs()) {
        status_->setText(tr("The Partition tab shows other kernels or another cluster now: run "
                            "the search again."));
        return false;
    }
    document_->replaceMapping(s.mapping, tr("DSE solution (%1 inferences/s)")
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
    if (index < 0 || index >= static_cast<int>(evaluated_.size()))
        return false;
    const auto& s = evaluated_.points()[static_cast<std::size_t>(index)];
    if (!applyMapping(s))
        return false;
    table_->clearSelection();
    emit solutionApplied(-1);
    return true;
}

QString DsePage::evaluatedSummary(int index) const {
    if (index < 0 || index >= static_cast<int>(evaluated_.size()) || !frontInputs_)
        return {};
    const auto& s = evaluated_.points()[static_cast<std::size_t>(index)];
    QString kind;
    switch (kindOf(index)) {
    case PointKind::front: kind = tr("On the front."); break;
    case PointKind::dominated: kind = tr("Dominated by the front."); break;
    case PointKind::undominated:
        kind = tr("Not dominated by the front: the same figures as a solution on it, or "
                  "figures of another level.");
        break;
    case PointKind::infeasible: {
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
    return dse_solution_summary(s, objectives_, *frontInputs_->request.cluster,
                                frontInputs_->kernelCount()) +
           "\n" + kind;
}

bool DsePage::exportFront(const QString& path) {
    if (!frontInputs_ || frontModel_->front().empty()) {
        error_->setText(tr("No front to export: run a search first."));
        return false;
    }
    const auto names = dse::objective_names(objectives_);
    const auto& cluster = *frontInputs_->request.cluster;
    const auto& front = frontModel_->front();
    std::string contents;
    if (path.endsWith(".csv", Qt::CaseInsensitive)) {
        contents = dse::front_csv(front, names, cluster);
    } else {
        auto entries = nlohmann::ordered_json::array();
        for (const auto& s : front) {
            auto entry = dse::solution_json(s, names, cluster);
            entry["generation"] = s.generation;
            entries.push_back(std::move(entry));
        }
        const nlohmann::ordered_json document{
            {"model", frontInputs_->request.model->file},
            {"cluster", cluster.file},
            {"rules", frontInputs_->request.rules},
            {"kernels", frontInputs_->kernelCount()},
            {"objectives", names},
            {"evaluations", evaluations_},
            {"cancelled", cancelled_},
            {"front", entries},
            {"hypervolume", dse::history_json(history_)}};
        contents = document.dump(2) + "\n";
    }
    try {
        write_file_atomically(path.toStdString(), contents);
    } catch (const std::exception& e) {
        error_->setText(tr("Cannot export the front: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    status_->setText(tr("Wrote the front (%n solution(s)) to %1.", "", static_cast<int>(front.size()))
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

namespace {

const char* quantityKey(DsePage::Quantity q) {
    switch (q) {
    case DsePage::Quantity::throughput: return "throughput";
    case DsePage::Quantity::memory: return "memory";
    case DsePage::Quantity::energy: return "energy";
    case DsePage::Quantity::latency: return "latency";
    case DsePage::Quantity::generation: return "generation";
    case DsePage::Quantity::none: break;
    }
    return "none";
}

const char* displayKey(DsePage::Display d) {
    return d == DsePage::Display::hidden ? "hidden"
           : d == DsePage::Display::shown ? "shown"
                                           : "marked";
}

} // namespace

nlohmann::json DsePage::saveState() const {
    const auto quantity = [](const QComboBox* box) {
        return quantityKey(static_cast<Quantity>(box->currentData().toInt()));
    };
    const auto display = [](const QComboBox* box) {
        return displayKey(static_cast<Display>(box->currentData().toInt()));
    };
    dse::SearchState state;
    state.settings = settings();
    state.latency = settingsForm_->latencyObjective();
    state.view = {{"x", quantity(xAxis_)},
                  {"y", quantity(yAxis_)},
                  {"z", quantity(zAxis_)},
                  {"colour", quantity(colour_)},
                  {"dominated", display(dominated_)},
                  {"infeasible", display(infeasible_)},
                  {"tab", views_->currentIndex()}};
    // A pending state keeps its result until its kernels and cluster arrive.
    if (!pendingState_.is_null() && pendingState_.contains("result")) {
        nlohmann::json json = dse::search_state_json(state, nullptr);
        json["result"] = pendingState_["result"];
        return json;
    }
    if (!frontInputs_ || frontModel_->front().empty())
        return dse::search_state_json(state, nullptr);
    const auto& cluster = *frontInputs_->request.cluster;
    dse::SearchStateResult result;
    result.kernels = frontInputs_->kernelCount();
    result.cluster = cluster.file;
    result.objectives = objectives_;
    result.evaluations = evaluations_;
    result.budget = progress_->maximum();
    result.cancelled = cancelled_;
    result.front = frontModel_->front();
    result.evaluated = evaluated_.points();
    result.history = history_;
    state.result = std::move(result);
    return dse::search_state_json(state, &cluster);
}

bool DsePage::restoreState(const nlohmann::json& state) {
    if (runner_->isRunning()) {
        runner_->cancel();
        discardRun_ = true;
    }
    const auto& inputs = document_->inputs();
    if (state.contains("result") && !state["result"].is_null() && (!inputs || !inputs->costs)) {
        // Settings and choices now, the front once the kernels and cluster are there.
        pendingState_ = state;
        auto settingsOnly = state;
        settingsOnly["result"] = nullptr;
        return applyState(settingsOnly);
    }
    pendingState_ = nullptr;
    return applyState(state);
}

bool DsePage::applyState(const nlohmann::json& json) {
    try {
        const auto& inputs = document_->inputs();
        dse::SearchStateTarget target;
        if (inputs && inputs->costs)
            target = {inputs->request.cluster.get(), inputs->kernelCount(),
                      [&inputs](int pe) { return inputs->hasLatencies(pe); }};
        const auto state = dse::parse_search_state(json, target.cluster ? &target : nullptr,
                                                   "DSE state");
        settingsForm_->setSettings(state.settings, state.latency);

        if (state.result) {
            const auto& result = *state.result;
            objectives_ = result.objectives;
            frontInputs_ = inputs;
            history_ = result.history;
            evaluated_.clear();
            evaluated_.merge(result.evaluated);
            evaluations_ = result.evaluations;
            cancelled_ = result.cancelled;
            const int budget = static_cast<int>(std::min<std::int64_t>(result.budget, INT_MAX));
            progress_->setRange(0, std::max(budget, 1));
            progress_->setValue(static_cast<int>(std::min<std::int64_t>(evaluations_, budget)));
            progress_->setTextVisible(true);
            updateAxisChoices();
            setFront(result.front);
            drawHypervolume();
            status_->setText(tr("Restored front: %1 solutions after %2 evaluations. Click a point "
                                "or a row to show it in the Partition tab.")
                                 .arg(frontModel_->front().size())
                                 .arg(evaluations_));
        }
        const auto& view = state.view;
        const auto choose = [](QComboBox* box, const std::string& key, auto keyOf, int count) {
            for (int i = 0; i < box->count() && i < count + 2; ++i)
                if (keyOf(box->itemData(i).toInt()) == key) {
                    box->setCurrentIndex(i);
                    return;
                }
        };
        const auto qKey = [](int v) { return std::string(quantityKey(static_cast<Quantity>(v))); };
        const auto dKey = [](int v) { return std::string(displayKey(static_cast<Display>(v))); };
        if (xAxis_->count() == 0)
            updateAxisChoices();
        choose(xAxis_, view.at("x").get<std::string>(), qKey, xAxis_->count());
        choose(yAxis_, view.at("y").get<std::string>(), qKey, yAxis_->count());
        choose(zAxis_, view.at("z").get<std::string>(), qKey, zAxis_->count());
        choose(colour_, view.at("colour").get<std::string>(), qKey, colour_->count());
        choose(dominated_, view.at("dominated").get<std::string>(), dKey, 3);
        choose(infeasible_, view.at("infeasible").get<std::string>(), dKey, 3);
        views_->setCurrentIndex(std::clamp(view.at("tab").get<int>(), 0, views_->count() - 1));
        drawFront();
    } catch (const InputError& e) {
        status_->setText(tr("Cannot restore the DSE tab: %1").arg(QString::fromStdString(e.what())));
        return false;
    } catch (const nlohmann::json::exception& e) {
        status_->setText(tr("Cannot restore the DSE tab: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    checkSettings();
    return true;
}

QString DsePage::statusText() const { return status_->text(); }
QString DsePage::errorText() const { return error_->text(); }

} // namespace cleave::ui
