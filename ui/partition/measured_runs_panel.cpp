#include "ui/partition/measured_runs_panel.hpp"

#include "ui/document/task_runner.hpp"

#include "core/dse/mapping_space.hpp"
#include "ui/document/partition_document.hpp"

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

namespace cleave::ui {

struct MeasuredRunsPanel::Outcome {
    QString mapping;
    double predicted = 0;
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

} // namespace

MeasuredRunsPanel::MeasuredRunsPanel(PartitionDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), runs_(new QStandardItemModel(0, ColumnCount, this)),
      table_(new QTableView(this)), button_(new QPushButton(tr("Measure on This Machine"), this)),
      status_(new QLabel(this)) {
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

    runs_->setHorizontalHeaderLabels({tr("Mapping"), tr("Ranks"), tr("Predicted /s"),
                                      tr("Measured /s"), tr("Measured / predicted"),
                                      tr("Max abs diff")});
    runs_->setSortRole(Qt::UserRole);
    table_->setModel(runs_);
    table_->setObjectName("measuredRuns");
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSortingEnabled(true);
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(Mapping, QHeaderView::Stretch);
    layout->addWidget(table_, 1);

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
    const double predicted = document_->evaluation().throughput_per_s;
    // The runner cancels the job's control on cancel() and when it goes (the job is killed);
    // the worker only holds its own copies.
    runner_->start<Outcome>(
        [request = inputs.request, assignment, launch = launch_, key,
         predicted](const TaskControl& control) -> Outcome {
            Outcome outcome{key, predicted, {}, {}, false};
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
    status_->setText(tr("Measuring %1 with %2 inputs…").arg(key).arg(launch_.inputs));
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
    auto* mapping = new QStandardItem(outcome.mapping);
    mapping->setData(outcome.mapping, Qt::UserRole);
    mapping->setToolTip(outcome.mapping);
    auto* ranks = number(m.ranks, 0);
    auto* diff = new QStandardItem(QString::number(m.max_abs_diff, 'g', 3));
    diff->setData(m.max_abs_diff, Qt::UserRole);
    diff->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    runs_->appendRow({mapping, ranks, number(outcome.predicted, 2), number(m.throughput_ips, 2),
                      number(m.throughput_ips / outcome.predicted, 2), diff});
    table_->scrollToBottom();
    status_->setText(tr("%1: measured %2 inputs/s, predicted %3 (measured / predicted %4); max "
                        "abs diff to the whole model %5.")
                         .arg(outcome.mapping, QLocale().toString(m.throughput_ips, 'f', 2),
                              QLocale().toString(outcome.predicted, 'f', 2),
                              QLocale().toString(m.throughput_ips / outcome.predicted, 'f', 2),
                              QString::number(m.max_abs_diff, 'g', 3)));
    emit finished(true, status_->text());
}

} // namespace cleave::ui
