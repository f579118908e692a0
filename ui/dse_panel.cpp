#include "dse_panel.hpp"

#include "charts/hypervolume_chart.hpp"
#include "charts/pareto_front_chart.hpp"
#include "core/input_error.hpp"
#include "dse_front_model.hpp"
#include "partition_document.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>

namespace cleave::ui {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

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

DsePanel::DsePanel(PartitionDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), runner_(new DseRunner(this)) {
    setObjectName("dsePanel");
    const dse::SearchSettings defaults;

    encoding_ = new QComboBox;
    encoding_->addItem(tr("split points (SPE)"), "spe");
    encoding_->addItem(tr("PE per kernel (naive)"), "naive");
    encoding_->setToolTip(tr("SPE: split genes and a PE gene per segment; naive: a PE gene per "
                             "kernel"));
    population_ = new QSpinBox;
    population_->setRange(0, 100000);
    population_->setValue(defaults.population);
    population_->setToolTip(tr("Individuals per generation: at least 8, a multiple of 4"));
    generations_ = new QSpinBox;
    generations_->setRange(0, 1000000);
    generations_->setValue(defaults.generations);
    generations_->setToolTip(tr("The budget is population x (generations + 1) evaluations, "
                                "shared by all stages and levels"));
    stages_ = new QComboBox;
    stages_->addItem(tr("auto (ceil(log2 N))"), 0);
    stages_->addItem(tr("1 (all PEs)"), 1);
    levels_ = new QComboBox;
    levels_->addItem(tr("1 (analytical)"), 1);
    levels_->addItem(tr("2 (analytical, then replay)"), 2);
    levels_->setCurrentIndex(defaults.levels == 2 ? 1 : 0);
    seed_ = new QSpinBox;
    seed_->setRange(0, INT_MAX);
    seed_->setValue(static_cast<int>(defaults.seed));
    latency_ = new QCheckBox(tr("Latency objective"));
    latency_->setToolTip(tr("Also minimise the pipeline latency of one input"));

    auto* settingsBox = new QGroupBox(tr("Search"));
    auto* form = new QFormLayout(settingsBox);
    form->addRow(tr("Encoding"), encoding_);
    form->addRow(tr("Population"), population_);
    form->addRow(tr("Generations"), generations_);
    form->addRow(tr("Stages"), stages_);
    form->addRow(tr("Levels"), levels_);
    form->addRow(tr("Seed"), seed_);
    form->addRow(latency_);

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
    colour_ = new QComboBox;
    for (auto* box : {xAxis_, yAxis_, colour_})
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* axes = new QHBoxLayout;
    axes->addWidget(new QLabel(tr("Front: x")));
    axes->addWidget(xAxis_);
    axes->addWidget(new QLabel(tr("y")));
    axes->addWidget(yAxis_);
    axes->addWidget(new QLabel(tr("colour")));
    axes->addWidget(colour_);
    axes->addStretch(1);

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
    connect(frontView_, &ParetoFrontChart::pointClicked, this, &DsePanel::applySolution);

    hypervolumeView_->setMinimumWidth(240);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(settingsBox);
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
    charts->addWidget(frontView_);
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
    rightLayout->addWidget(split, 1);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(leftScroll);
    layout->addWidget(right, 1);

    for (auto* box : {population_, generations_, seed_})
        connect(box, &QSpinBox::valueChanged, this, &DsePanel::checkSettings);
    for (auto* box : {encoding_, stages_, levels_})
        connect(box, &QComboBox::currentIndexChanged, this, &DsePanel::checkSettings);
    for (auto* box : {xAxis_, yAxis_, colour_})
        connect(box, &QComboBox::activated, this, &DsePanel::drawFront);
    connect(runButton_, &QPushButton::clicked, this, [this] { run(); });
    connect(pauseButton_, &QPushButton::clicked, this, [this] {
        if (runner_->isPaused())
            resume();
        else
            pause();
    });
    connect(cancelButton_, &QPushButton::clicked, this, &DsePanel::cancel);
    connect(table_, &QTableView::clicked, this,
            [this](const QModelIndex& index) { applySolution(index.row()); });
    connect(runner_, &DseRunner::stepped, this, &DsePanel::showStep);
    connect(runner_, &DseRunner::finished, this, &DsePanel::showResult);
    connect(runner_, &DseRunner::pausedChanged, this, [this](bool paused) {
        if (paused)
            status_->setText(tr("Paused after the current generation. ") + status_->text());
        updateButtons();
    });
    connect(document_, &PartitionDocument::inputsChanged, this, &DsePanel::inputsChanged);
    inputsChanged();
}

dse::SearchSettings DsePanel::settings() const {
    dse::SearchSettings settings;
    settings.encoding =
        encoding_->currentData().toString() == "naive" ? dse::Encoding::naive : dse::Encoding::spe;
    settings.population = population_->value();
    settings.generations = generations_->value();
    settings.stages = stages_->currentData().toInt();
    settings.levels = levels_->currentData().toInt();
    settings.seed = static_cast<unsigned>(seed_->value());
    return settings;
}

QString DsePanel::settingsError() const { return settingsError_; }

void DsePanel::checkSettings() {
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

void DsePanel::updateButtons() {
    const bool running = runner_->isRunning();
    const auto& inputs = document_->inputs();
    const bool ready = inputs && inputs->costs;
    runButton_->setEnabled(!running && ready && settingsError_.isEmpty());
    pauseButton_->setEnabled(running);
    pauseButton_->setText(runner_->isPaused() ? tr("Resume") : tr("Pause"));
    cancelButton_->setEnabled(running);
    for (QWidget* w : std::initializer_list<QWidget*>{encoding_, population_, generations_,
                                                      stages_, levels_, seed_, latency_})
        w->setEnabled(!running);
}

void DsePanel::inputsChanged() {
    // A front searched over other kernels or another cluster no longer applies.
    if (runner_->isRunning())
        runner_->cancel();
    const auto& inputs = document_->inputs();
    if (frontInputs_ && frontInputs_ != inputs) {
        frontInputs_.reset();
        history_.clear();
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
}

bool DsePanel::run() {
    checkSettings();
    const auto& inputs = document_->inputs();
    if (!settingsError_.isEmpty() || !inputs || !inputs->costs || runner_->isRunning())
        return false;
    history_.clear();
    setFront({});
    frontInputs_ = inputs;
    if (!runner_->start(inputs, settings(), latency_->isChecked()))
        return false;
    objectives_ = runner_->objectives();
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
    const std::int64_t budget =
        static_cast<std::int64_t>(population_->value()) * (generations_->value() + 1);
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

void DsePanel::pause() { runner_->pause(); }
void DsePanel::resume() {
    runner_->resume();
    status_->setText(tr("Resumed."));
}
void DsePanel::cancel() {
    if (!runner_->isRunning())
        return;
    runner_->cancel();
    status_->setText(tr("Cancelling after the current generation…"));
}

void DsePanel::showStep(const DseStep& step) {
    progress_->setMaximum(static_cast<int>(std::min<std::int64_t>(step.budget, INT_MAX)));
    progress_->setValue(static_cast<int>(std::min<std::int64_t>(step.evaluations, INT_MAX)));
    history_.insert(history_.end(), step.history.begin(), step.history.end());
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

void DsePanel::showResult() {
    updateButtons();
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
                     (frontModel_->front().empty() ? QString()
                                     : tr(" Click a point or a row to show it in the Partition tab.")));
    drawHypervolume();
    emit finished();
}

void DsePanel::setFront(std::vector<dse::Solution> front) {
    frontModel_->setFront(std::move(front), objectives_, frontInputs_);
    drawFront();
    table_->resizeColumnsToContents();
}

QString DsePanel::nameOf(Quantity quantity) const {
    switch (quantity) {
    case Quantity::throughput: return tr("throughput (1/s)");
    case Quantity::memory: return tr("max memory (MiB)");
    case Quantity::energy: return tr("max energy (mJ)");
    case Quantity::latency: return tr("latency (ms)");
    case Quantity::none: break;
    }
    return tr("none");
}

double DsePanel::valueOf(const dse::Solution& solution, Quantity quantity) const {
    switch (quantity) {
    case Quantity::throughput: return solution.throughput_per_s;
    case Quantity::memory: return solution.objectives[1] / kMiB;
    case Quantity::energy: return objectives_.energy ? solution.objectives[2] : 0.0;
    case Quantity::latency:
        return objectives_.latency ? solution.objectives[objectives_.energy ? 3 : 2] : 0.0;
    case Quantity::none: break;
    }
    return 0;
}

// The quantities this search has; the choices made so far are kept where they still exist.
void DsePanel::updateAxisChoices() {
    std::vector<Quantity> quantities{Quantity::throughput, Quantity::memory};
    if (objectives_.energy)
        quantities.push_back(Quantity::energy);
    if (objectives_.latency)
        quantities.push_back(Quantity::latency);
    const auto fill = [&](QComboBox* box, bool withNone, Quantity fallback) {
        const auto old = box->currentIndex() >= 0 ? static_cast<Quantity>(box->currentData().toInt())
                                                   : fallback;
        box->clear();
        if (withNone)
            box->addItem(nameOf(Quantity::none), static_cast<int>(Quantity::none));
        for (const auto q : quantities)
            box->addItem(nameOf(q), static_cast<int>(q));
        const int index = box->findData(static_cast<int>(old));
        box->setCurrentIndex(index >= 0 ? index : box->findData(static_cast<int>(fallback)));
    };
    fill(xAxis_, false, Quantity::throughput);
    fill(yAxis_, false, Quantity::memory);
    fill(colour_, true, objectives_.energy ? Quantity::energy : Quantity::none);
}

void DsePanel::drawFront() {
    if (xAxis_->count() == 0)
        updateAxisChoices();
    const auto x = static_cast<Quantity>(xAxis_->currentData().toInt());
    const auto y = static_cast<Quantity>(yAxis_->currentData().toInt());
    const auto c = static_cast<Quantity>(colour_->currentData().toInt());
    std::vector<QPointF> points;
    std::vector<double> colour;
    for (const auto& s : frontModel_->front()) {
        points.emplace_back(valueOf(s, x), valueOf(s, y));
        if (c != Quantity::none)
            colour.push_back(valueOf(s, c));
    }
    const QString unit = c == Quantity::throughput ? tr("/s")
                         : c == Quantity::memory   ? tr(" MiB")
                         : c == Quantity::energy   ? tr(" mJ")
                                                   : tr(" ms");
    frontView_->setPoints(points, colour, nameOf(x), nameOf(y), unit);
}

void DsePanel::drawHypervolume() {
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(history_.size()));
    for (const auto& step : history_)
        points.append(QPointF(static_cast<double>(step.evaluations), step.hypervolume));
    hypervolumeView_->setHistory(points, static_cast<double>(progress_->maximum()));
}

QString DsePanel::solutionSummary(int index) const { return frontModel_->summary(index); }

const std::vector<dse::Solution>& DsePanel::front() const { return frontModel_->front(); }

bool DsePanel::applySolution(int index) {
    if (index < 0 || index >= static_cast<int>(frontModel_->front().size()))
        return false;
    if (!frontInputs_ || frontInputs_ != document_->inputs()) {
        status_->setText(tr("The Partition tab shows other kernels or another cluster now: run "
                            "the search again."));
        return false;
    }
    const auto& s = frontModel_->front()[static_cast<std::size_t>(index)];
    document_->replaceMapping(s.mapping, tr("DSE solution (%1 inferences/s)")
                                             .arg(s.throughput_per_s, 0, 'f', 1));
    table_->selectRow(index);
    emit solutionApplied(index);
    return true;
}

QString DsePanel::statusText() const { return status_->text(); }
QString DsePanel::errorText() const { return error_->text(); }

} // namespace cleave::ui
