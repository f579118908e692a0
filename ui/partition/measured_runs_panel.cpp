#include "ui/partition/measured_runs_panel.hpp"

#include "core/autodice/run_summary.hpp"
#include "core/dse/mapping_space.hpp"
#include "core/partition/llm_memory.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/document/task_runner.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <optional>

namespace cleave::ui {

struct MeasuredRunsPanel::Outcome {
    QString mapping;
    double predicted = 0;                   // inputs/s, or a decoder's tokens/s
    std::optional<double> ttft_ms, tpot_ms; // a decoder's, predicted
    std::map<std::string, double> stage_ms; // predicted per PE key: its time per input or step
    autodice::PackageMeasurement measurement;
    QString error;
    bool cancelled = false;
};

namespace {

// The cleave executable beside this one (the build tree, /usr/bin), else on PATH.
std::string find_cleave() {
    const QString beside = QCoreApplication::applicationDirPath() + "/cleave";
    if (QFileInfo(beside).isExecutable())
        return beside.toStdString();
    return QStandardPaths::findExecutable("cleave").toStdString();
}

QStandardItem* number(double value, int decimals) {
    auto* item = new QStandardItem(QLocale().toString(value, 'f', decimals));
    item->setData(value, Qt::UserRole); // sorting by value, not text
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QStandardItem* text(const QString& shown, const QVariant& value) {
    auto* item = new QStandardItem(shown);
    item->setData(value, Qt::UserRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// "410.5 / 432.1": predicted, then measured; empty where either is missing.
QStandardItem* pair(std::optional<double> predicted, std::optional<double> measured) {
    if (!predicted || !measured)
        return text({}, {});
    return text(QString("%1 / %2").arg(QLocale().toString(*predicted, 'f', 1),
                                       QLocale().toString(*measured, 'f', 1)),
                *measured);
}

QTableView* table_view(QStandardItemModel* model, const char* name, QWidget* parent) {
    auto* table = new QTableView(parent);
    table->setModel(model);
    table->setObjectName(name);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->setAlternatingRowColors(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setTextElideMode(Qt::ElideMiddle);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return table;
}

} // namespace

MeasuredRunsPanel::MeasuredRunsPanel(PartitionDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), runs_(new QStandardItemModel(0, ColumnCount, this)),
      stages_(new QStandardItemModel(0, StageColumnCount, this)),
      button_(new QPushButton(tr("Measure on This Machine"), this)), status_(new QLabel(this)) {
    runner_ = new TaskRunner(this);
    launch_.cleave = find_cleave();
    const QString mpirun = QStandardPaths::findExecutable("mpirun");
    launch_.mpirun = mpirun.isEmpty() ? std::string("mpirun") : mpirun.toStdString();
    launch_.inputs = 16;

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    auto* row = new QHBoxLayout;
    button_->setToolTip(tr("Run this mapping for real with Open MPI on this machine, one rank per "
                           "PE of the mapping (cleave run-partition), and compare the measured "
                           "throughput with the prediction"));
    connect(button_, &QPushButton::clicked, this, [this] { isRunning() ? cancel() : (void)measure(); });
    row->addWidget(button_);
    status_->setObjectName("measuredStatus");
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setWordWrap(true);
    row->addWidget(status_, 1);
    layout->addLayout(row);

    runs_->setHorizontalHeaderLabels(
        {tr("Mapping"), tr("Ranks"), tr("Predicted /s"), tr("Measured /s"),
         tr("Measured / predicted"), tr("First token ms"), tr("ms per token"), tr("Max abs diff")});
    runs_->horizontalHeaderItem(FirstToken)
        ->setToolTip(tr("A decoder's time to first token, predicted / measured"));
    runs_->horizontalHeaderItem(PerToken)->setToolTip(
        tr("A decoder's time per output token, predicted / measured"));
    runs_->setSortRole(Qt::UserRole);
    table_ = table_view(runs_, "measuredRuns", this);
    table_->setSortingEnabled(true);
    table_->horizontalHeader()->setSectionResizeMode(Mapping, QHeaderView::Stretch);
    layout->addWidget(table_, 2);

    stages_->setHorizontalHeaderLabels({tr("Rank"), tr("PE"), tr("Predicted ms"), tr("Compute ms"),
                                        tr("Engine ms"), tr("Waiting ms"), tr("Sending ms")});
    stages_->horizontalHeaderItem(ComputeMs)->setToolTip(
        tr("Per input (a decoder: per token), the engine's process and pipe "
           "included"));
    stages_->horizontalHeaderItem(EngineMs)->setToolTip(
        tr("Per input or token: ONNX Runtime's own time for the stage"));
    stages_->horizontalHeaderItem(WaitMs)->setToolTip(
        tr("Per input or token: waiting to receive from the stage before"));
    stages_->horizontalHeaderItem(SendMs)->setToolTip(
        tr("Waiting for the last sends to complete, once at the end"));
    stageTable_ = table_view(stages_, "measuredStages", this);
    stageTable_->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(stageTable_, 1);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showStages(current.row()); });

    connect(document_, &PartitionDocument::mappingChanged, this, &MeasuredRunsPanel::updateButton);
    updateButton();
}

void MeasuredRunsPanel::updateButton() {
    button_->setText(runner_->isRunning() ? tr("Cancel Measuring") : tr("Measure on This Machine"));
    button_->setEnabled(runner_->isRunning() || document_->hasMapping());
}

bool MeasuredRunsPanel::isRunning() const {
    return runner_->isRunning();
}

QString MeasuredRunsPanel::statusText() const {
    return status_->text();
}

bool MeasuredRunsPanel::measure() {
    const auto refuse = [this](const QString& why) {
        status_->setText(why);
        return false;
    };
    if (runner_->isRunning())
        return refuse(tr("A measurement is running."));
    if (!document_->hasMapping())
        return refuse(tr("Open a model and a cluster first."));
    if (launch_.cleave.empty() || !QFileInfo(QString::fromStdString(launch_.cleave.string())).isExecutable())
        return refuse(tr("The cleave executable was not found beside the studio or on PATH."));
    const QString mpirun = QString::fromStdString(launch_.mpirun);
    if (QStandardPaths::findExecutable(mpirun).isEmpty() && !QFileInfo(mpirun).isExecutable())
        return refuse(tr("Open MPI's mpirun was not found (install openmpi-bin)."));

    const auto& inputs = *document_->inputs();
    const auto assignment = partition::assignment_of(document_->mapping(), inputs.kernelCount());
    const QString key =
        QString::fromStdString(dse::mapping_key(document_->mapping(), *inputs.request.cluster));
    const auto& evaluation = document_->evaluation();
    Outcome expected{key, evaluation.throughput_per_s, {}, {}, {}, {}, {}, false};
    for (std::size_t pe = 0; pe < inputs.request.cluster->pes.size(); ++pe)
        expected.stage_ms[inputs.request.cluster->pes[pe].key] = evaluation.pes[pe].time_ms();
    auto launch = launch_;
    if (document_->isDecoder()) { // generating tokens, as the workload has it
        const auto& w = document_->workload();
        launch.prompt_tokens = static_cast<int>(std::max<std::int64_t>(w.prompt_tokens, 1));
        launch.generate = static_cast<int>(std::max<std::int64_t>(w.generated_tokens, 2));
        launch.sequences = static_cast<int>(w.sequences);
        expected.predicted =
            partition::pipelined_tokens_per_s(w, evaluation.latency_ms, evaluation.bottleneck_ms);
        expected.ttft_ms = document_->timeToFirstTokenMs();
        expected.tpot_ms = evaluation.latency_ms;
    }
    // The runner cancels the job's control on cancel() and when it goes (the job is killed);
    // the worker only holds its own copies.
    runner_->start<Outcome>(
        [request = inputs.request, assignment, launch,
         expected](const TaskControl& control) -> Outcome {
            Outcome outcome = expected;
            const auto work = QDir::temp().filePath(
                QString("cleave-studio-measure-%1").arg(QCoreApplication::applicationPid()));
            auto controlled = launch;
            controlled.control = &control;
            try {
                QDir().mkpath(work);
                outcome.measurement =
                    autodice::measure_assignment(controlled, *request.model, *request.kernels,
                                                 assignment, *request.cluster, work.toStdString());
            } catch (const Cancelled&) {
                outcome.cancelled = true;
            } catch (const std::exception& e) {
                outcome.error = QString::fromStdString(e.what());
            }
            QDir().rmdir(work); // when empty: a failed run's folder stays, its log named
            return outcome;
        },
        [this](const Outcome& outcome) {
            updateButton();
            show(outcome);
        });
    updateButton();
    status_->setText(
        launch.generate > 0
            ? tr("Measuring %1: a prompt of %2 tokens, %3 generated, %4 sequences in flight…")
                  .arg(key)
                  .arg(launch.prompt_tokens)
                  .arg(launch.generate)
                  .arg(launch.sequences)
            : tr("Measuring %1 with %2 inputs…").arg(key).arg(launch.inputs));
    return true;
}

void MeasuredRunsPanel::cancel() {
    runner_->stop(); // the outcome still comes, saying it was cancelled
}

void MeasuredRunsPanel::show(const Outcome& outcome) {
    if (outcome.cancelled) {
        status_->setText(tr("Measuring %1 was cancelled.").arg(outcome.mapping));
        emit finished(false, status_->text());
        return;
    }
    if (!outcome.error.isEmpty()) {
        status_->setText(tr("Measuring %1 failed: %2").arg(outcome.mapping, outcome.error));
        emit finished(false, status_->text());
        return;
    }
    const auto& m = outcome.measurement;
    autodice::RunSummary summary;
    try {
        summary = autodice::parse_run_summary(m.summary, "run-summary.json");
    } catch (const std::exception& e) {
        status_->setText(tr("Measuring %1 gave a summary that does not read: %2")
                             .arg(outcome.mapping, QString::fromUtf8(e.what())));
        emit finished(false, status_->text());
        return;
    }
    const auto& decode = summary.decode;
    const double measured =
        decode ? decode->decode_tokens_per_s.value_or(decode->tokens_per_s) : m.throughput_ips;
    auto* mapping = new QStandardItem(outcome.mapping);
    mapping->setData(outcome.mapping, Qt::UserRole);
    mapping->setToolTip(outcome.mapping);
    // The stages, shown when the row is selected.
    QVariantList stages;
    for (const auto& rank : summary.per_rank) {
        const auto predicted = outcome.stage_ms.find(rank.key);
        const double n = std::max(1, summary.inputs);
        stages.push_back(QVariant(QVariantList{rank.rank, QString::fromStdString(rank.key),
                                   predicted == outcome.stage_ms.end() ? 0.0 : predicted->second,
                                   rank.compute_ms / n, rank.engine_ms / n,
                                   rank.receive_wait_ms / n, rank.send_wait_ms}));
    }
    mapping->setData(stages, Qt::UserRole + 1);
    auto* diff = new QStandardItem(QString::number(m.max_abs_diff, 'g', 3));
    diff->setData(m.max_abs_diff, Qt::UserRole);
    diff->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    runs_->appendRow({mapping, number(m.ranks, 0), number(outcome.predicted, 2),
                      number(measured, 2), number(measured / outcome.predicted, 2),
                      pair(outcome.ttft_ms, decode ? std::optional(decode->ttft_ms) : std::nullopt),
                      pair(outcome.tpot_ms, decode ? std::optional(decode->tpot_ms) : std::nullopt),
                      diff});
    table_->scrollToBottom();
    showStages(runs_->rowCount() - 1);
    const QString ratio = QLocale().toString(measured / outcome.predicted, 'f', 2);
    if (decode)
        status_->setText(
            tr("%1: first token %2 ms, %3 ms per output token, %4 tokens/s (predicted %5, %6, %7; "
               "measured / predicted %8); max abs diff of the logits %9.")
                .arg(outcome.mapping, QLocale().toString(decode->ttft_ms, 'f', 1),
                     QLocale().toString(decode->tpot_ms, 'f', 2),
                     QLocale().toString(measured, 'f', 2),
                     outcome.ttft_ms ? QLocale().toString(*outcome.ttft_ms, 'f', 1) : tr("—"),
                     QLocale().toString(outcome.tpot_ms.value_or(0), 'f', 2),
                     QLocale().toString(outcome.predicted, 'f', 2), ratio,
                     QString::number(m.max_abs_diff, 'g', 3)));
    else
        status_->setText(tr("%1: measured %2 inputs/s, predicted %3 (measured / predicted %4); "
                            "max abs diff to the whole model %5.")
                             .arg(outcome.mapping, QLocale().toString(measured, 'f', 2),
                                  QLocale().toString(outcome.predicted, 'f', 2), ratio,
                                  QString::number(m.max_abs_diff, 'g', 3)));
    emit finished(true, status_->text());
}

void MeasuredRunsPanel::showStages(int row) {
    stages_->removeRows(0, stages_->rowCount());
    const auto* mapping = runs_->item(row, Mapping);
    if (!mapping)
        return;
    for (const auto& stage : mapping->data(Qt::UserRole + 1).toList()) {
        const auto v = stage.toList();
        auto* pe = new QStandardItem(v[1].toString());
        pe->setData(v[1], Qt::UserRole);
        stages_->appendRow({number(v[0].toInt(), 0), pe, number(v[2].toDouble(), 2),
                            number(v[3].toDouble(), 2), number(v[4].toDouble(), 2),
                            number(v[5].toDouble(), 2), number(v[6].toDouble(), 1)});
    }
}

} // namespace cleave::ui
