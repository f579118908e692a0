// The studio's Partition tab: the model's kernels split across the PEs of a cluster. The kernel
// strip with its lanes and split handles (PartitionView), per-PE time, memory and energy bars
// (PeFiguresView), the traffic on each link, throughput and pipeline latency, all recomputed on
// every edit; latencies are predicted off the UI thread whenever the kernels or the cluster
// change. Mappings are saved as AutoDiCE mapping.json (the studio document opens them).
#pragma once

#include "ui/document/partition_inputs.hpp"

#include <QWidget>
#include <functional>

class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTableView;

namespace cleave::ui {

class LinkTrafficModel;
class LlmMemoryView;
class MeasuredRunsPanel;
class PartitionDocument;
class PartitionView;
class PeFiguresView;

class PartitionPage : public QWidget {
    Q_OBJECT

public:
    // Shows and edits `document`'s mapping (the window's: StudioDocument::mapping(), which the
    // studio document asks to prepare for its kernels and cluster).
    explicit PartitionPage(PartitionDocument* document, QWidget* parent = nullptr);

    // An AutoDiCE mapping.json of the mapping on show, written atomically; an error message, or
    // empty when it was saved.
    QString saveMapping(const QString& path) const;
    // The split points that balance compute over the mapping's PEs, in its order (one undo step).
    void balance();
    // The AutoDiCE package of the mapping on show (docs/autodice.md), as a task that writes it
    // into `folder` (replaced all at once) and returns an error message, or empty when written.
    // The task holds its own copies, so it may run on another thread while editing goes on; an
    // empty function when there is no mapping.
    std::function<QString()> exportTask(const QString& folder, bool subModels = true) const;

    PartitionDocument* document() const { return document_; }
    PartitionView* view() const { return view_; }
    PeFiguresView* figures() const { return figures_; }
    LinkTrafficModel* links() const { return links_; }
    // Runs the mapping on show with Open MPI and lists measured against predicted throughput.
    MeasuredRunsPanel* measuredRuns() const { return measured_; }
    // A decoder's workload and memory per pool.
    LlmMemoryView* llmMemory() const { return llmMemory_; }
    QString summaryText() const; // throughput, latency, bottleneck; or why there is none
    QString noticeText() const;  // PEs without latencies, a mapping file that is not SPE shaped

signals:
    void openClusterRequested();
    void exportRequested(); // the Export button
    void reopenClusterRequested(const QString& path);
    void kernelActivated(int kernel);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QWidget* emptyState();
    QWidget* content();
    void observe();
    void showPreparing();
    void showPrepared();
    void updateSummary();
    void updateNotice();
    void updateEmptyState();
    void fitSplit();

    PartitionDocument* document_;
    QStackedWidget* stack_;
    QLabel* emptyLabel_;
    QPushButton* reopenButton_;
    QLabel* clusterLabel_;
    QLabel* summaryLabel_;
    QLabel* noticeLabel_;
    QProgressBar* progress_;
    QPushButton* balanceButton_;
    QPushButton* exportButton_;
    QCheckBox* allLanes_;
    QSplitter* split_ = nullptr;
    bool splitMoved_ = false;
    PartitionView* view_;
    PeFiguresView* figures_;
    LinkTrafficModel* links_;
    QTableView* linkView_;
    MeasuredRunsPanel* measured_ = nullptr;
    LlmMemoryView* llmMemory_ = nullptr;
    QString notice_;
};

} // namespace cleave::ui
