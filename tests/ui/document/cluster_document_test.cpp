// The cluster the Cluster tab edits, and the one the rest of the studio uses: held once (the
// pointer handed out is the one held, until an edit replaces it), every edit one undo step that
// reads back as a cluster file, refused edits recording nothing, and files written atomically.
#include "core/device/cluster.hpp"
#include "ui/document/cluster_document.hpp"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using cleave::ui::ClusterDocument;

namespace {

cleave::ui::ClusterPtr nx8() {
    return std::make_shared<const cleave::device::Cluster>(cleave::device::load_cluster(
        std::string(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/nx8.cluster.json"));
}

} // namespace

class ClusterDocumentTest : public QObject {
    Q_OBJECT

private slots:
    void theClusterSetIsTheOneHeldNotACopy() {
        ClusterDocument document;
        QVERIFY(!document.clusterPtr());
        QCOMPARE(document.hostCount(), 0);
        const auto cluster = nx8();
        QSignalSpy changed(&document, &ClusterDocument::changed);
        document.setCluster(cluster);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(document.clusterPtr(), cluster);
        QCOMPARE(document.clusterPtr(), document.clusterPtr());
        QCOMPARE(&document.cluster(), cluster.get());
        QCOMPARE(document.hostCount(), 8);
        document.setCluster(nullptr);
        QVERIFY(!document.clusterPtr());
        QCOMPARE(document.hostCount(), 0);
    }

    void anEditReplacesTheClusterAndIsOneUndoStep() {
        ClusterDocument document;
        const auto cluster = nx8();
        document.setCluster(cluster);
        QSignalSpy edited(&document, &ClusterDocument::edited);
        QCOMPARE(document.addHost("raspberry-pi-4"), QString());
        QCOMPARE(edited.count(), 1);
        QCOMPARE(document.hostCount(), 9);
        QVERIFY(document.clusterPtr() != cluster); // a new cluster, the one set untouched
        QCOMPARE(cluster->hosts.size(), std::size_t{8});
        QCOMPARE(document.cluster().hosts.back().device_ref, std::string("raspberry-pi-4"));
        QCOMPARE(document.undoStack()->count(), 1);
        document.undoStack()->undo();
        QCOMPARE(document.hostCount(), 8);
        QCOMPARE(edited.count(), 2);
    }

    void anotherDeviceRunsOnEveryCoreAndUndoKeepsTheThreads() {
        ClusterDocument document;
        document.setCluster(
            std::make_shared<const cleave::device::Cluster>(cleave::device::parse_cluster_file(
                R"({"version": 1, "hosts": [{"host": "a", "device": "intel-nuc", "threads": 1}]})",
                "a.cluster.json")));
        QCOMPARE(document.setDevice(0, "raspberry-pi-4"), QString());
        QVERIFY(!document.cluster().hosts[0].threads);
        QCOMPARE(document.cluster().pes[0].spec.cores, 4);
        document.undoStack()->undo();
        QCOMPARE(document.cluster().hosts[0].threads.value_or(0), 1);
        QCOMPARE(document.cluster().pes[0].spec.peak_gflops.fp32.value_or(0), 358.4 / 4);
    }

    void aNewHostIsNamedAfterItsDevicesHosts() {
        ClusterDocument document;
        document.setCluster(nx8());
        QCOMPARE(document.uniqueHostName("jetson-xavier-nx"), QString("nx09"));
        QCOMPARE(document.uniqueHostName("raspberry-pi-4"), QString("raspberry-pi-4-01"));
    }

    void refusedEditsSayWhyAndRecordNothing() {
        ClusterDocument document;
        document.setCluster(nx8());
        QVERIFY(!document.addHost("no-such-device").isEmpty());
        QVERIFY(!document.renameHost(0, "nx02").isEmpty()); // a name taken
        QVERIFY(!document.renameHost(42, "nx42").isEmpty());
        QCOMPARE(document.undoStack()->count(), 0);
        QCOMPARE(document.hostCount(), 8);
    }

    void aSavedClusterNamesItsFileAndReadsBack() {
        ClusterDocument document;
        document.setCluster(nx8());
        QCOMPARE(document.renameHost(0, "board1"), QString());
        QTemporaryDir dir;
        const QString path = dir.filePath("lab.cluster.json");
        QCOMPARE(document.saveClusterFile(path), QString());
        QCOMPARE(QString::fromStdString(document.cluster().file), path);
        QVERIFY(document.undoStack()->isClean());
        const auto read = cleave::device::load_cluster(path.toStdString());
        QCOMPARE(read.hosts.front().host, std::string("board1"));
        QCOMPARE(read.hosts.size(), std::size_t{8});
    }
};

QTEST_MAIN(ClusterDocumentTest)
#include "cluster_document_test.moc"
