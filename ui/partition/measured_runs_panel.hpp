// The Partition tab's "Measured" panel: runs the mapping on show for real with Open MPI on this
// machine (autodice::measure_assignment: its package, `mpirun -np R --oversubscribe cleave
// run-partition`), off the UI thread and cancellable, and lists every measured mapping with its
// predicted and measured throughput, their ratio and the output's difference to the whole model.
// A decoder is measured generating tokens (the workload's prompt and reply, its sequences in
// flight), with its time to first token and per output token beside the prediction. The stages
// of the run selected (the last by default) are listed side by side: each rank's predicted time
// and its measured compute, engine, waiting and sending times per input or token.
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
    enum Column {
        Mapping,
        Ranks,
        Predicted,
        Measured,
        Ratio,
        FirstToken, // a decoder's: "predicted / measured" ms; UserRole the measured
        PerToken,   // the same for the time per output token
        MaxAbsDiff,
        ColumnCount
    };
    enum StageColumn {
        Rank,
        Pe,
        PredictedMs,
        ComputeMs, // per input or token, the engine's process and its pipe included
        EngineMs,  // the engine's own time
        WaitMs,    // waiting to receive
        SendMs,    // waiting for the sends to complete, at the end
        StageColumnCount
    };

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
    // The stages of the run selected in table(), else of the last.
    QStandardItemModel* stages() const { return stages_; }
    QPushButton* measureButton() const { return button_; }
    QString statusText() const;

signals:
    void finished(bool measured, const QString& message);

private:
    struct Outcome;
    void show(const Outcome& outcome);
    void showStages(int row);
    void updateButton();

    PartitionDocument* document_;
    autodice::MpiLaunch launch_;
    QStandardItemModel* runs_;
    QTableView* table_;
    QStandardItemModel* stages_;
    QTableView* stageTable_;
    QPushButton* button_;
    QLabel* status_;
    TaskRunner* runner_; // cancels a measurement still running when the panel goes
};

} // namespace cleave::ui
