#include "ui/dse/dse_page.hpp"

#include "core/dse/exploration_inputs.hpp"
#include "core/input_error.hpp"
#include "ui/charts/hypervolume_chart.hpp"
#include "ui/document/dse_document.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/dse/dse_front_model.hpp"
#include "ui/tables/latency_format.hpp"

#include <QComboBox>
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
#include <QVBoxLayout>
#include <algorithm>
#include <climits>
#include <limits>
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
    createRunControls();
    createFrontControls();
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(layOutRunControls());
    layout->addWidget(layOutFront(), 1);
    connectControls();
    connectDocument();
    // The document starts from the form's settings and the charts' choices: no edit.
    applying_ = true;
    dse_->setSettings(settings(), settingsForm_->latencyObjective(), false);
    showResult();
    inputsChanged();
    pushView();
    applying_ = false;
}

// The settings form, Run, Pause and Cancel, the progress bar and the status lines.
void DsePage::createRunControls() {
    settingsForm_ = new DseSettingsForm;
    runButton_ = new QPushButton(tr("Run"));
    pauseButton_ = new QPushButton(tr("Pause"));
    cancelButton_ = new QPushButton(tr("Cancel"));
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
}

// The front's charts and their choices, the export buttons and the table.
void DsePage::createFrontControls() {
    frontModel_ = new DseFrontModel(this);
    charts_ = new DseCharts(dse_, frontModel_, this);
    exportFrontButton_ = new QPushButton(tr("Export Front…"));
    exportFrontButton_->setToolTip(tr("Write the front as CSV or JSON (as cleave dse --json)"));
    exportPackageButton_ = new QPushButton(tr("Export Package…"));
    exportPackageButton_->setToolTip(tr("Apply the selected solution and write it as an "
                                        "AutoDiCE package"));
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
}

// The settings over the buttons and the status lines, scrolled rather than squeezed when the
// window is short.
QWidget* DsePage::layOutRunControls() {
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(runButton_);
    buttons->addWidget(pauseButton_);
    buttons->addWidget(cancelButton_);
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
    auto* leftScroll = new QScrollArea;
    leftScroll->setWidget(left);
    leftScroll->setWidgetResizable(true);
    leftScroll->setFrameShape(QFrame::NoFrame);
    leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    leftScroll->setMinimumWidth(300);
    leftScroll->setMaximumWidth(400);
    return leftScroll;
}

// The chart choices above the charts (the views beside the hypervolume), the table under them.
QWidget* DsePage::layOutFront() {
    auto* axes = new QHBoxLayout;
    axes->addWidget(new QLabel(tr("Front: x")));
    axes->addWidget(charts_->xAxisBox());
    axes->addWidget(new QLabel(tr("y")));
    axes->addWidget(charts_->yAxisBox());
    axes->addWidget(new QLabel(tr("z (3-D)")));
    axes->addWidget(charts_->zAxisBox());
    axes->addWidget(new QLabel(tr("colour")));
    axes->addWidget(charts_->colourBox());
    axes->addStretch(1);
    auto* shows = new QHBoxLayout;
    shows->addWidget(new QLabel(tr("Dominated")));
    shows->addWidget(charts_->dominatedBox());
    shows->addWidget(new QLabel(tr("Infeasible")));
    shows->addWidget(charts_->infeasibleBox());
    shows->addStretch(1);
    shows->addWidget(exportFrontButton_);
    shows->addWidget(exportPackageButton_);

    charts_->hypervolumeChart()->setMinimumWidth(240);
    charts_->frontChart()->setMinimumHeight(200);
    charts_->frontChart()->setMinimumWidth(320);
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(charts_->views());
    charts->addWidget(charts_->hypervolumeChart());
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);
    charts->setChildrenCollapsible(false);

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
    return right;
}

void DsePage::connectControls() {
    connect(settingsForm_, &DseSettingsForm::changed, this, [this] {
        if (!applying_)
            dse_->setSettings(settings(), settingsForm_->latencyObjective(), true);
        checkSettings();
    });
    connect(charts_, &DseCharts::choicesChanged, this, [this] {
        pushView();
        drawFront();
    });
    connect(charts_, &DseCharts::solutionClicked, this, &DsePage::applySolution);
    connect(charts_, &DseCharts::evaluatedClicked, this,
            [this](int index) { applyOffFront(dse_->evaluated(), index); });
    connect(charts_, &DseCharts::exactClicked, this,
            [this](int index) { applyOffFront(dse_->exact(), index); });
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
}

// The search's steps and end, the Partition tab's inputs and the document's result and restores.
void DsePage::connectDocument() {
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
}

dse::SearchSettings DsePage::settings() const {
    return settingsForm_->settings();
}

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
    if (!runner_->start(inputs, settings(), settingsForm_->latencyObjective(),
                        mapping_->isDecoder() ? std::optional(mapping_->workload()) : std::nullopt))
        return false;
    const auto searched = settings();
    const std::int64_t budget =
        static_cast<std::int64_t>(searched.population) * (searched.generations + 1);
    // The table's columns and the charts follow this search's objectives.
    dse_->startSearch(inputs, runner_->objectives(), budget);
    charts_->updateAxisChoices();
    charts_->showEveryObjective();
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
    dse_->finishSearch(result, runner_->evaluatedTail(), runner_->exactPoints());
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
                          : tr(" Click a point or a row to show it in the Partition tab.")) +
                     exactText());
    emit finished();
}

// A decoder's search beside the exact optima of its layer plans: each one's figure and the
// front's best by it.
QString DsePage::exactText() const {
    const auto& exact = dse_->exact();
    if (exact.empty())
        return {};
    const auto& objectives = dse_->objectives();
    const auto least = [&](const std::vector<dse::Solution>& solutions, dse::Objective o) {
        double value = std::numeric_limits<double>::infinity();
        for (const auto& s : solutions)
            value = std::min(value, objectives.value(s.objectives, o));
        return QString::fromStdString(format_ms(value));
    };
    return "\n" + tr("Exact layer plans (stars): least time per token %1 ms (the front's best "
                     "%2 ms); least slowest stage %3 ms (the front's best %4 ms).")
                      .arg(least(exact, dse::Objective::latency_ms),
                           least(dse_->front(), dse::Objective::latency_ms),
                           least(exact, dse::Objective::bottleneck_ms),
                           least(dse_->front(), dse::Objective::bottleneck_ms));
}

void DsePage::showResult() {
    frontModel_->setFront(dse_->front(), dse_->objectives(), dse_->inputs());
    drawFront();
    table_->resizeColumnsToContents();
    charts_->drawHypervolume(static_cast<double>(progress_->maximum()));
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

// While a search runs, the views not on show wait for their tab (or the search's end).
void DsePage::drawFront() {
    charts_->drawFront(runner_->isRunning());
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

bool DsePage::applyOffFront(const std::vector<dse::Solution>& points, int index) {
    if (index < 0 || index >= static_cast<int>(points.size()) ||
        !applyMapping(points[static_cast<std::size_t>(index)]))
        return false;
    table_->clearSelection();
    emit solutionApplied(-1);
    return true;
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

// A choice the user made is an edit; one the tab made while showing the document's is not.
void DsePage::pushView() {
    if (charts_->hasAxisChoices())
        dse_->setView(charts_->viewState().toJson(), !applying_);
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
    charts_->updateAxisChoices();
    // The chart choices kept, read before any is shown (each one shown is reported back to the
    // document); a choice missing or unknown keeps the one on show.
    charts_->showViewState(DseViewState::fromJson(dse_->view(), charts_->viewState()));
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
