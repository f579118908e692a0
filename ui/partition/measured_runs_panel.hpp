// The Partition tab's "Measured" panel: runs the mapping on show for real with Open MPI on this
// machine (autodice::measure_assignment: its package, `mpirun -np R --oversubscribe cleave
// run-partition`), off the UI thread and cancellable, and lists every measured mapping with its
// predicted and measured throughput, their ratio and the output's difference to the whole model.
#pragma once

#include "core/autodice/mpi_measurement.hpp"
#include "ui/document/partition_inputs.hpp"

#include <QWidget>

class QLabel;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace cleave::ui {

class TaskRunner;

class PartitionDocument;

class MeasuredRunsPanel : public QWidget {
    Q_OBJECT

public:
    enum Column { Mapping, Ranks, Predicted, Measured, Ratio, MaxAbsDiff, ColumnCount };

    explicit MeasuredRunsPanel(PartitionDocument* document, QWidget* parent = nullptr);

    // Measures the mapping on show; false (and why, in statusText()) when there is none, a
    // measurement runs, or Open MPI or the cleave executable is missing.
    bool measure();
    void cancel();
    bool isRunning() const;
    // Where mpirun and the rank executable come from, the inputs per run, the time limit.
    // Defaults: mpirun and cleave found beside this executable or on PATH, 16 inputs.
    autodice::MpiLaunch& launch() { return launch_; }

    QStandardItemModel* runs() const { return runs_; }
    QTableView* table() const { return table_; }
    QPushButton* measureButton() const { return button_; }
    QString statusText() const;

signals:
    void finished(bool measured, const QString& message);

private:
    struct Outcome;
    void show(const Outcome& outcome);
    void updateButton();

    PartitionDocument* document_;
    autodice::MpiLaunch launch_;
    QStandardItemModel* runs_;
    QTableView* table_;
    QPushButton* button_;
    QLabel* status_;
    TaskRunner* runner_; // cancels a measurement still running when the panel goes
};

} // namespace cleave::ui
