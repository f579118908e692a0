// The studio's main window over its StudioDocument: the graph, the node table, the Partition, DSE,
// Cluster and Grouping tabs, and the summary, kernel, properties, latency breakdown and
// predicted-versus-measured docks, each observing the document; file opening (menu, recent files,
// drag and drop) handed to the document, with progress, errors and the status bar shown here.
#pragma once

#include "core/graph/dim_bindings.hpp"
#include "ui/document/core_ptrs.hpp"

#include <map>
#include <string>

#include <QMainWindow>

class QAction;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTimer;

namespace cleave::ui {

class GraphPage;
class PartitionPage;
class ProjectController;
class DsePage;
class ClusterPage;
class GroupingPage;
class LatencyBreakdownDock;
class MeasuredComparisonDock;
class GraphView;
class KernelDock;
class PropertiesDock;
class ModelSummaryDock;
class NodeTablePage;
class RecentFiles;
class StudioDocument;
class StartPage;
class TaskRunner;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Loads in the background; the current model stays on screen until the new one is ready.
    // A .cleave opens as a project (ProjectController::openProject).
    void openFile(const QString& path);
    // A model read with these input shapes (NAME -> dims, as --input-shape gives them) and dim
    // bindings (as --dim, --batch, --prefill and --decode give them).
    void openModel(const QString& path, std::map<std::string, graph::Shape> inputShapes = {},
                   graph::DimBindings dims = {});
    // File > Model Dims…: the newest model asked for, opened again with the dims given in a
    // ModelDimsDialog (a decoder that failed for want of them, or one to cost at other counts).
    void modelDimsDialog();
    // The window's .cleave project: save, autosave, recovery.
    ProjectController* project() const { return project_; }
    // A measured dataset (docs/profiling.md; .json or .json.xz), read in the background; its run
    // of the open model is compared with the prediction.
    void openMeasurements(const QString& path);
    // A cluster file or an AutoDiCE platform.txt for the Partition tab; it stays when another
    // model is opened. A bad file is reported in a message box and clusterFailed().
    bool openCluster(const QString& path);
    PartitionPage* partitionPage() const { return partitionPage_; }
    // The DSE tab: searches the Partition tab's kernels and cluster; enabled when both are open.
    DsePage* dsePage() const { return dsePage_; }
    // The Cluster tab edits the cluster the Partition tab uses; the Grouping tab groups it.
    ClusterPage* clusterPage() const { return clusterPage_; }
    GroupingPage* groupingPage() const;
    // An AutoDiCE mapping.json for the Partition tab; a bad one is reported in a message box.
    bool openMapping(const QString& path);

    const ModelPtr& model() const;
    QString modelPath() const;
    StudioDocument* document() const { return document_; }
    QTableView* nodeView() const;
    QLineEdit* filterEdit() const;
    ModelSummaryDock* summaryDock() const { return summary_; }
    KernelDock* kernelDock() const { return kernelDock_; }
    QTabWidget* centralTabs() const { return tabs_; } // the graph, then the node table
    GraphPage* graphPage() const { return graphPage_; }
    GraphView* graphView() const;
    PropertiesDock* propertiesDock() const { return properties_; }
    LatencyBreakdownDock* breakdownDock() const { return breakdown_; }
    MeasuredComparisonDock* comparisonDock() const { return comparison_; }
    StartPage* startPage() const { return startPage_; }
    QMenu* recentMenu() const { return recentMenu_; }

signals:
    void modelShown(const QString& path);
    void loadFailed(const QString& path, const QString& message);
    void measurementsLoaded(const QString& path);
    void measurementsFailed(const QString& path, const QString& message);
    void clusterOpened(const QString& path);
    void clusterFailed(const QString& path, const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    void openDialog();
    void openMeasurementsDialog();
    void observeDocument();
    void updateRecentFiles();
    void showModel(const QString& path);
    void showFailure(const QString& path, const QString& message);
    void setBusy(bool busy);
    void connectPartition();
    void openClusterDialog();
    void openMappingDialog();
    void saveMappingDialog();
    void exportPackageDialog();
    // A warning with `text` as plain text (file names, JSON pointers), not blocking the window.
    void warn(const QString& title, const QString& text);

    StudioDocument* document_;
    RecentFiles* recent_;
    QStackedWidget* pages_;
    StartPage* startPage_;
    NodeTablePage* nodeTable_ = nullptr;
    ModelSummaryDock* summary_;
    KernelDock* kernelDock_;
    QProgressBar* progress_;
    QPushButton* cancelButton_;
    QTimer* busyDelay_;
    QTabWidget* tabs_ = nullptr;
    GraphPage* graphPage_ = nullptr;
    PropertiesDock* properties_ = nullptr;
    LatencyBreakdownDock* breakdown_ = nullptr;
    MeasuredComparisonDock* comparison_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QAction* filterAction_ = nullptr;
    QAction* modelDimsAction_ = nullptr;
    PartitionPage* partitionPage_ = nullptr;
    DsePage* dsePage_ = nullptr;
    ClusterPage* clusterPage_ = nullptr;
    QAction* saveMappingAction_ = nullptr;
    QAction* openMappingAction_ = nullptr;
    QAction* exportPackageAction_ = nullptr;
    TaskRunner* exporter_;
    ProjectController* project_ = nullptr;
};

} // namespace cleave::ui
