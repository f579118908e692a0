// The cluster the Cluster tab edits: hosts running library devices and the links between them,
// with the undo history of its edits. Every edit is checked as the cluster file would be read
// (device::cluster_from_json of device::cluster_to_json), so what the editor holds always saves
// to a file that opens again; a refused edit records nothing and returns the reason. Files are
// read and written by core/device (load_cluster, save_cluster_file, save_platform_file).
#pragma once

#include "ui/document/partition_inputs.hpp"

#include <QList>
#include <QObject>
#include <QString>

class QUndoStack;

namespace cleave::ui {

class ClusterDocument : public QObject {
    Q_OBJECT

public:
    explicit ClusterDocument(QObject* parent = nullptr);

    // A cluster from elsewhere (File > Open Cluster, a project): shown with no history; null
    // clears the editor.
    void setCluster(const ClusterPtr& cluster);
    const device::Cluster& cluster() const; // no hosts: none
    // The cluster for the rest of the studio, the one the editor holds (not a copy); null while
    // it has no hosts.
    ClusterPtr clusterPtr() const;
    QUndoStack* undoStack() const { return undo_; }
    int hostCount() const { return static_cast<int>(cluster().hosts.size()); }

    // Edits, each one undo step. They return why an edit is refused (nothing is recorded), or an
    // empty string when it was made or would change nothing.
    QString addHost(const QString& device, const QString& host = {});
    QString removeHosts(QList<int> rows);
    QString renameHost(int row, const QString& host);
    QString setDevice(int row, const QString& device);
    QString setDefaultLink(const device::Link& link);
    QString addPair(const QString& a, const QString& b, const device::Link& link);
    QString removePair(int index);
    QString setPair(int index, const device::LinkPair& pair);
    // The cluster replaced as a whole (New, Open); `what` names the step ("Open nx8.cluster.json").
    QString replace(device::Cluster cluster, const QString& what);

    // Reads a cluster file or a platform.txt (device::load_cluster) as one undo step; an error
    // message naming the file and the place, or empty.
    QString open(const QString& path);
    // Written atomically by core/device; an error message, or empty.
    QString saveClusterFile(const QString& path);
    QString exportPlatformFile(const QString& path) const;

    // A host name not in the cluster for a new host of `device`: the prefix of that device's
    // hosts already in the cluster with the next number (nx09 after nx01 .. nx08), else the
    // device id with a number ("raspberry-pi-4-01").
    QString uniqueHostName(const QString& device) const;
    // The first pair of hosts without a link of their own, or an empty pair.
    QPair<QString, QString> unlinkedPair() const;
    // Why the cluster cannot be saved (no hosts), or empty.
    QString saveProblem() const;

    // For the undo commands: shows `cluster`.
    void show(const device::Cluster& cluster);

signals:
    void changed(); // any change of the cluster on show
    void edited();  // a change made in the editor: an edit, an undo or a redo

private:
    QString apply(device::Cluster after, const QString& what);

    ClusterPtr cluster_; // the one copy of the studio's cluster; null: none
    QUndoStack* undo_;
};

// Why `cluster` would not read back as a cluster file (the place and the problem, without the
// file name), or empty. A cluster without hosts is fine here; saving it is not.
QString clusterProblem(const device::Cluster& cluster);

} // namespace cleave::ui
