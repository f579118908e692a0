// The studio's Cluster tab: the cluster the Partition tab splits the model across, edited. A
// table of hosts (name, device, PEs with their AutoDiCE keys, memory, peak FP32, group), devices
// added from the built-in library with a unique host name, hosts renamed, moved to another device
// or removed; the switch's link and direct links between hosts; New, Open (a cluster file or a
// platform.txt), Save As (a cluster file) and Export platform.txt, written atomically by
// core/device. Every edit is one step of undoStack(); a refused edit is reported in red under the
// table and changes nothing. The tab edits a ClusterDocument (the window's is the studio
// document's cluster editor, whose edits are the studio's cluster); clusterEdited() reports each
// edit. The Grouping tab (groupingPage()) groups the same cluster and colours this tab's hosts.
#pragma once

#include "ui/document/partition_inputs.hpp"

#include <QWidget>
#include <nlohmann/json.hpp>

class QComboBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QUndoStack;

namespace cleave::ui {

class ClusterDocument;
class ClusterHostModel;
class ClusterLinkModel;
class GroupingDocument;
class GroupingPage;

class ClusterPage : public QWidget {
    Q_OBJECT

public:
    // Edits `document`; the Grouping tab's page groups it by `grouping` (of the same document).
    ClusterPage(ClusterDocument* document, GroupingDocument* grouping, QWidget* parent = nullptr);

    // A cluster opened: shown with no history; clusterEdited() is not emitted.
    void setCluster(const ClusterPtr& cluster);
    ClusterDocument* document() const { return document_; }
    QUndoStack* undoStack() const;
    // The Grouping tab's panel, over this tab's cluster.
    GroupingPage* groupingPage() const { return grouping_; }

    // The cluster as a cluster file's object, for a project file (device::cluster_to_json); null
    // without hosts. restoreCluster shows one (device::cluster_from_json) with no history and
    // emits clusterEdited(); an error message naming the place, or empty.
    nlohmann::json clusterJson() const;
    QString restoreCluster(const nlohmann::json& cluster, const QString& file = {});

    // What the buttons do, without their dialogs. Each returns an error message (also shown in
    // red under the table), or empty.
    QString addDevice(); // the library box's device, named as the host name box says (or suggests)
    QString removeSelectedHosts();
    QString newCluster();
    QString openFile(const QString& path);
    QString saveClusterFile(const QString& path);
    QString exportPlatformFile(const QString& path);
    QString addLink();
    QString removeSelectedLink();

    QComboBox* libraryBox() const { return library_; }
    QLineEdit* hostNameEdit() const { return hostName_; }
    QTableView* hostView() const { return hostView_; }
    ClusterHostModel* hostModel() const { return hosts_; }
    ClusterLinkModel* linkModel() const { return links_; }
    QString errorText() const;
    QString summaryText() const;

signals:
    void clusterEdited(const ClusterPtr& cluster);

private:
    QHBoxLayout* buildFileRow();
    QGroupBox* buildHostBox();
    QGroupBox* buildLinkBox();
    void showError(const QString& message);
    QString report(const QString& message); // shows it (or clears the error) and returns it
    void updateSummary();
    void updateSuggestion();
    void openDialog();
    void saveDialog();
    void exportDialog();

    ClusterDocument* document_;
    ClusterHostModel* hosts_;
    ClusterLinkModel* links_;
    GroupingPage* grouping_;
    QLabel* summary_;
    QComboBox* library_;
    QLineEdit* hostName_;
    QPushButton* addButton_;
    QPushButton* removeButton_;
    QTableView* hostView_;
    QTableView* linkView_;
    QPushButton* removeLinkButton_;
    QLabel* error_;
};

// File > Open Cluster and the tab's Open: a cluster file or platform.txt chosen in a dialog
// (starting in the last folder used), or empty.
QString askForClusterFile(QWidget* parent);

} // namespace cleave::ui
