// The Cluster and Grouping tabs: library devices added with unique host names, undo and redo of
// every edit, renames (links follow; a duplicate or a bad name refused, shown in red), a cluster
// file saved and opened again with the same hosts, platform.txt exported line by line, a bad
// platform.txt reported with its line, edits reaching the Partition tab, and balanced grouping
// giving the groups core/grouping gives, with the serving simulation, kept by its document's
// saveState().
#include "core/device/cluster.hpp"
#include "core/grouping/balanced_grouping.hpp"
#include "core/grouping/device_features.hpp"
#include "core/grouping/device_vectors.hpp"
#include "core/grouping/serving_simulation.hpp"
#include "ui/charts/group_bars_chart.hpp"
#include "ui/document/cluster_document.hpp"
#include "ui/cluster/cluster_host_model.hpp"
#include "ui/cluster/cluster_link_model.hpp"
#include "ui/cluster/cluster_page.hpp"
#include "ui/cluster/grouping_page.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/partition/partition_page.hpp"

#include <QAbstractItemModel>
#include <QBarSeries>
#include <QBarSet>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using cleave::ui::ClusterDocument;
using cleave::ui::ClusterHostModel;
using cleave::ui::ClusterLinkModel;
using cleave::ui::ClusterPage;
using cleave::ui::GroupingDocument;
using cleave::ui::GroupingPage;

namespace {

QString example(const char* name) {
    return QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/" + name;
}

cleave::ui::ClusterPtr load(const char* name) {
    return std::make_shared<const cleave::device::Cluster>(
        cleave::device::load_cluster(example(name).toStdString()));
}

QStringList hostNames(const cleave::device::Cluster& cluster) {
    QStringList names;
    for (const auto& host : cluster.hosts)
        names << QString::fromStdString(host.host);
    return names;
}

QString cell(const ClusterPage& page, int row, int column) {
    return page.hostModel()->index(row, column).data().toString();
}

void chooseDevice(ClusterPage& page, const QString& id) {
    const int index = page.libraryBox()->findData(id);
    QVERIFY(index >= 0);
    page.libraryBox()->setCurrentIndex(index);
}

QString readAll(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

// Core's grouping of `cluster` by `set` into `groups`, as `cleave group` computes it.
std::vector<int> coreGroups(const cleave::device::Cluster& cluster, const std::string& set,
                            int groups, const std::string& vectors = {}) {
    namespace grouping = cleave::grouping;
    const auto table =
        vectors.empty() ? grouping::cluster_features(cluster, set)
                        : grouping::vector_features(cluster, grouping::load_device_vectors(vectors),
                                                    set, vectors);
    return grouping::balance_local_search(grouping::normalised(table.values), groups).best.group_of;
}

std::vector<int> panelGroups(const GroupingPage& panel, const cleave::device::Cluster& cluster) {
    const auto groups = panel.groupOfHost();
    std::vector<int> out;
    for (const auto& host : cluster.hosts)
        out.push_back(groups.value(QString::fromStdString(host.host), -1));
    return out;
}

bool group(GroupingPage& panel) {
    QSignalSpy done(&panel, &GroupingPage::finished);
    return panel.run() && done.wait(60000) && panel.document()->outcome() != nullptr;
}

} // namespace

class ClusterPageTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void libraryDeviceAddedWithAUniqueNameAndUndone() {
        ClusterDocument pageCluster;
        GroupingDocument pageGrouping{&pageCluster};
        ClusterPage page{&pageCluster, &pageGrouping};
        page.setCluster(load("nx8.cluster.json"));
        QSignalSpy edited(&page, &ClusterPage::clusterEdited);
        QCOMPARE(page.hostModel()->rowCount(), 8);
        chooseDevice(page, "jetson-xavier-nx");
        // The device's hosts are nx01 .. nx08: the next is nx09.
        QCOMPARE(page.hostNameEdit()->placeholderText(), QString("nx09"));
        QCOMPARE(page.addDevice(), QString());
        QCOMPARE(page.hostModel()->rowCount(), 9);
        QCOMPARE(cell(page, 8, ClusterHostModel::Host), QString("nx09"));
        QCOMPARE(cell(page, 8, ClusterHostModel::Pes), QString("nx09_arm012345 nx09_gpu"));
        QCOMPARE(cell(page, 8, ClusterHostModel::Memory), QString("8 GiB"));
        QCOMPARE(cell(page, 8, ClusterHostModel::PeakFp32), QString("182.4* / 844.8*"));
        QCOMPARE(edited.size(), 1);
        QCOMPARE(edited.last()[0].value<cleave::ui::ClusterPtr>()->hosts.size(), 9u);

        chooseDevice(page, "raspberry-pi-4");
        QCOMPARE(page.hostNameEdit()->placeholderText(), QString("raspberry-pi-4-01"));
        page.hostNameEdit()->setText("pi");
        QCOMPARE(page.addDevice(), QString());
        QCOMPARE(cell(page, 9, ClusterHostModel::Pes), QString("pi_arm0123"));
        QCOMPARE(page.undoStack()->count(), 2);

        page.undoStack()->undo();
        QCOMPARE(page.hostModel()->rowCount(), 9);
        page.undoStack()->undo();
        QCOMPARE(page.hostModel()->rowCount(), 8);
        QCOMPARE(page.document()->cluster().pes.size(), 16u);
        QCOMPARE(edited.last()[0].value<cleave::ui::ClusterPtr>()->hosts.size(), 8u);
        page.undoStack()->redo();
        page.undoStack()->redo();
        QCOMPARE(hostNames(page.document()->cluster()).last(), QString("pi"));
        QCOMPARE(page.document()->cluster().pes.size(), 19u);

        // Removing hosts is one step too.
        page.hostView()->selectRow(0);
        QCOMPARE(page.removeSelectedHosts(), QString());
        QCOMPARE(hostNames(page.document()->cluster()).first(), QString("nx02"));
        page.undoStack()->undo();
        QCOMPARE(hostNames(page.document()->cluster()).first(), QString("nx01"));
    }

    void renameMovesLinksAndRefusesDuplicates() {
        ClusterDocument pageCluster;
        GroupingDocument pageGrouping{&pageCluster};
        ClusterPage page{&pageCluster, &pageGrouping};
        page.setCluster(load("mixed4.cluster.json"));
        auto* hosts = page.hostModel();
        QVERIFY(hosts->setData(hosts->index(3, ClusterHostModel::Host), "pi"));
        QCOMPARE(cell(page, 3, ClusterHostModel::Pes), QString("pi_arm0123"));
        for (const auto& pair : page.document()->cluster().pairs)
            QCOMPARE(QString::fromStdString(pair.b), QString("pi"));
        QCOMPARE(page.errorText(), QString());

        const int steps = page.undoStack()->count();
        QVERIFY(!hosts->setData(hosts->index(1, ClusterHostModel::Host), "agx01"));
        QVERIFY2(page.errorText().contains("host agx01 is already at /hosts/0"),
                 qPrintable(page.errorText()));
        QCOMPARE(cell(page, 1, ClusterHostModel::Host), QString("nx01"));
        QCOMPARE(page.undoStack()->count(), steps);
        QVERIFY(!hosts->setData(hosts->index(1, ClusterHostModel::Host), "nx_01"));
        QVERIFY2(page.errorText().contains("letters, digits"), qPrintable(page.errorText()));
        QVERIFY(!hosts->setData(hosts->index(1, ClusterHostModel::Device), "jetson-xavier"));
        QVERIFY2(page.errorText().contains("no such device"), qPrintable(page.errorText()));
        QCOMPARE(page.undoStack()->count(), steps);

        // A device changed in place brings its PEs; the next good edit clears the message.
        QVERIFY(hosts->setData(hosts->index(1, ClusterHostModel::Device), "jetson-orin-nano"));
        QCOMPARE(page.document()->cluster().hosts[1].device.id, std::string("jetson-orin-nano"));
        QCOMPARE(page.errorText(), QString());
        page.undoStack()->undo();
        page.undoStack()->undo();
        QCOMPARE(hostNames(page.document()->cluster()),
                 (QStringList{"agx01", "nx01", "nuc01", "rpi01"}));
        QCOMPARE(page.document()->cluster().pairs[0].b, std::string("rpi01"));
    }

    void linksEditedAndRefused() {
        ClusterDocument pageCluster;
        GroupingDocument pageGrouping{&pageCluster};
        ClusterPage page{&pageCluster, &pageGrouping};
        page.setCluster(load("nx8.cluster.json"));
        auto* links = page.linkModel();
        QCOMPARE(links->rowCount(), 1);
        QVERIFY(links->setData(links->index(0, ClusterLinkModel::Bandwidth), 10.0));
        QCOMPARE(page.document()->cluster().default_link.bandwidth_gbps, 10.0);
        QVERIFY(!links->setData(links->index(0, ClusterLinkModel::Bandwidth), -1.0));
        QVERIFY2(page.errorText().contains("/links/default/bandwidth_gbps"),
                 qPrintable(page.errorText()));
        QCOMPARE(page.addLink(), QString());
        QCOMPARE(links->rowCount(), 2);
        QVERIFY(links->setData(links->index(1, ClusterLinkModel::B), "nx05"));
        QVERIFY(links->setData(links->index(1, ClusterLinkModel::Latency), 2000.0));
        const auto link = page.document()->cluster().link("nx01", "nx05");
        QCOMPARE(link.latency_us, 2000.0);
        QCOMPARE(link.bandwidth_gbps, 10.0);
        QCOMPARE(page.document()->cluster().link("nx01", "nx02").latency_us, 100.0);
        // The same two hosts twice is refused.
        QCOMPARE(page.addLink(), QString());
        QVERIFY(!links->setData(links->index(2, ClusterLinkModel::B), "nx05"));
        QVERIFY2(page.errorText().contains("given twice"), qPrintable(page.errorText()));
        page.undoStack()->undo();
        QCOMPARE(links->rowCount(), 2);
    }

    void savedClusterFileOpensWithTheSameHosts() {
        QTemporaryDir dir;
        ClusterDocument pageCluster;
        GroupingDocument pageGrouping{&pageCluster};
        ClusterPage page{&pageCluster, &pageGrouping};
        page.setCluster(load("mixed4.cluster.json"));
        chooseDevice(page, "nvidia-h100");
        QCOMPARE(page.addDevice(), QString());
        QVERIFY(page.linkModel()->setData(page.linkModel()->index(1, ClusterLinkModel::Bandwidth),
                                          0.25));
        const QString path = dir.filePath("lab.cluster.json");
        QCOMPARE(page.saveClusterFile(path), QString());
        QVERIFY(page.undoStack()->isClean());

        const auto saved = cleave::device::load_cluster(path.toStdString());
        const auto& edited = page.document()->cluster();
        QCOMPARE(hostNames(saved), hostNames(edited));
        QCOMPARE(hostNames(saved).last(), QString("nvidia-h100-01"));
        for (std::size_t h = 0; h < saved.hosts.size(); ++h)
            QCOMPARE(saved.hosts[h].device.id, edited.hosts[h].device.id);
        QCOMPARE(saved.pes.size(), edited.pes.size());
        QCOMPARE(saved.link("agx01", "rpi01").bandwidth_gbps, 0.25);
        QCOMPARE(saved.link("nx01", "rpi01").bandwidth_gbps, 0.1);

        ClusterDocument reopenedCluster;

        GroupingDocument reopenedGrouping{&reopenedCluster};

        ClusterPage reopened{&reopenedCluster, &reopenedGrouping};
        QCOMPARE(reopened.openFile(path), QString());
        QCOMPARE(hostNames(reopened.document()->cluster()), hostNames(edited));
        QCOMPARE(reopened.document()->cluster().pairs.size(), 3u);
        QVERIFY(reopened.summaryText().startsWith("lab.cluster.json: 5 hosts, 7 PEs"));
        // Opening is one undo step.
        reopened.undoStack()->undo();
        QCOMPARE(reopened.document()->hostCount(), 0);

        // An empty cluster is no cluster file.
        QCOMPARE(page.newCluster(), QString());
        QVERIFY(page.saveClusterFile(dir.filePath("empty.cluster.json")).contains("at least one"));
        QVERIFY(!QFile::exists(dir.filePath("empty.cluster.json")));
    }

    void platformTxtExportedLineByLine() {
        QTemporaryDir dir;
        ClusterDocument pageCluster;
        GroupingDocument pageGrouping{&pageCluster};
        ClusterPage page{&pageCluster, &pageGrouping};
        page.setCluster(load("mixed4.cluster.json"));
        chooseDevice(page, "nvidia-t4");
        page.hostNameEdit()->setText("t4");
        QCOMPARE(page.addDevice(), QString());
        const QString path = dir.filePath("platform.txt");
        QCOMPARE(page.exportPlatformFile(path), QString());
        QCOMPARE(readAll(path).split('\n', Qt::SkipEmptyParts),
                 (QStringList{"agx01, arm, slots=0-7, gpu=NVIDIAVolta (CUDA)",
                              "nx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)",
                              "nuc01, x86, slots=0-3", "rpi01, arm, slots=0-3", "t4"}));
        // And it reads back as the same hosts (the T4 alone, a bare name, is not matched).
        QFile::remove(path);
        QVERIFY(page.document()->removeHosts({4}).isEmpty());
        QCOMPARE(page.exportPlatformFile(path), QString());
        ClusterDocument reopenedCluster;
        GroupingDocument reopenedGrouping{&reopenedCluster};
        ClusterPage reopened{&reopenedCluster, &reopenedGrouping};
        QCOMPARE(reopened.openFile(path), QString());
        QCOMPARE(hostNames(reopened.document()->cluster()),
                 (QStringList{"agx01", "nx01", "nuc01", "rpi01"}));
    }

    void badPlatformTxtShowsItsLine() {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad-platform.txt");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("nx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)\n"
                   "nx02, arm, slots=0-5, gpu=NVIDIA Volta\n");
        file.close();
        ClusterDocument pageCluster;
        GroupingDocument pageGrouping{&pageCluster};
        ClusterPage page{&pageCluster, &pageGrouping};
        page.setCluster(load("nx8.cluster.json"));
        const QString error = page.openFile(path);
        QVERIFY2(error.contains("bad-platform.txt: line 2: expected gpu=ARCH (API)"),
                 qPrintable(error));
        QCOMPARE(page.errorText(), error);
        QCOMPARE(page.document()->hostCount(), 8);
        QCOMPARE(page.undoStack()->count(), 0);
    }

    void editsReachThePartitionTab() {
        cleave::ui::MainWindow window;
        QVERIFY(window.openCluster(example("nx8.cluster.json")));
        auto* page = window.clusterPage();
        QCOMPARE(page->document()->hostCount(), 8);
        QCOMPARE(page->undoStack()->count(), 0);
        chooseDevice(*page, "jetson-agx-xavier");
        QCOMPARE(page->addDevice(), QString());
        QCOMPARE(window.document()->mapping()->request().cluster->hosts.size(), 9u);
        QVERIFY(window.document()->mapping()->request().cluster->find_pe("jetson-agx-xavier-01_gpu"));

        // Edit > Undo takes back the Cluster tab's edit while it shows, the Partition tab's else.
        window.centralTabs()->setCurrentWidget(page);
        QAction* undo = nullptr;
        for (auto* action : window.menuBar()->actions())
            if (action->text() == "&Edit")
                undo = action->menu()->actions().first();
        QVERIFY(undo);
        QVERIFY(undo->isEnabled());
        QVERIFY2(undo->text().contains("Add host"), qPrintable(undo->text()));
        undo->trigger();
        QCOMPARE(window.document()->mapping()->request().cluster->hosts.size(), 8u);
        window.centralTabs()->setCurrentWidget(window.partitionPage());
        QVERIFY(!undo->text().contains("host"));

        // Every host removed: the Partition tab has no cluster, and nothing breaks.
        QList<int> all;
        for (int h = 0; h < 8; ++h)
            all << h;
        QCOMPARE(page->document()->removeHosts(all), QString());
        QVERIFY(!window.document()->mapping()->request().cluster);
        page->undoStack()->undo();
        QCOMPARE(window.document()->mapping()->request().cluster->hosts.size(), 8u);
    }

    void groupingGivesCoresGroups() {
        ClusterDocument pageCluster;
        GroupingDocument pageGrouping{&pageCluster};
        ClusterPage page{&pageCluster, &pageGrouping};
        const auto cluster = load("measured160.cluster.json");
        page.setCluster(cluster);
        auto* panel = page.groupingPage();
        panel->groupsBox()->setValue(4);
        panel->featuresBox()->setCurrentIndex(panel->featuresBox()->findData("config"));
        QVERIFY(group(*panel));
        QCOMPARE(panel->errorText(), QString());
        QCOMPARE(panelGroups(*panel, *cluster), coreGroups(*cluster, "config", 4));
        QVERIFY(panel->legendText().contains("group 4"));
        // The Cluster tab colours its hosts by group.
        const auto first = page.hostModel()->index(0, ClusterHostModel::Group);
        QCOMPARE(first.data().toString(),
                 QString("group %1").arg(panel->groupOfHost().value("x1t01") + 1));
        QVERIFY(first.data(Qt::BackgroundRole).isValid());
        // Bars: one set per group over config's features (all but the ones no device gives).
        QCOMPARE(panel->featureChart()->series()->count(), 4);
        QVERIFY(panel->featureChart()->categories().contains("cpu_cores"));
        // Without vectors: flops and config compared, no serving.
        QCOMPARE(panel->comparisonTable()->model()->rowCount(), 2);
        QCOMPARE(panel->servingChart()->series()->count(), 0);

        // A rename keeps no stale groups... and the same hosts keep them (a link edit).
        QVERIFY(
            page.linkModel()->setData(page.linkModel()->index(0, ClusterLinkModel::Latency), 50.0));
        QVERIFY(panel->document()->outcome());
        QVERIFY(
            page.hostModel()->setData(page.hostModel()->index(0, ClusterHostModel::Host), "first"));
        QVERIFY(!panel->document()->outcome());
        QCOMPARE(page.hostModel()->index(0, ClusterHostModel::Group).data().toString(), QString());

        // Hosts changed while a grouping runs: its result is for other hosts, and not shown.
        QSignalSpy done(panel, &GroupingPage::finished);
        QVERIFY(panel->run());
        QVERIFY(page.hostModel()->setData(page.hostModel()->index(1, ClusterHostModel::Host),
                                          "second"));
        QVERIFY(done.wait(60000));
        QVERIFY(!panel->document()->outcome());
        QVERIFY2(panel->statusText().contains("changed"), qPrintable(panel->statusText()));
    }

    void vectorsGroupAndServeAsCoreDoes() {
        const QString vectors = QString(CLEAVE_EXAMPLE_DATA_DIR) + "/measured160.vectors.json";
        // Twelve hosts of the eight measured devices the vectors describe (measured160 in small).
        QTemporaryDir dir;
        const QString file = dir.filePath("measured12.cluster.json");
        {
            QFile out(file);
            QVERIFY(out.open(QIODevice::WriteOnly));
            QByteArray hosts;
            const char* devices[] = {"xeon-ort-1t",  "xeon-ort-2t",     "xeon-ort-4t",
                                     "xeon-ort-8t",  "xeon-ort-16t",    "h100-cudnn-fp32",
                                     "this-machine", "h100-cudnn-fp16", "xeon-ort-1t",
                                     "xeon-ort-2t",  "this-machine",    "xeon-ort-16t"};
            for (int h = 0; h < 12; ++h)
                hosts += QByteArray(h ? "," : "") + "{\"host\": \"h" + QByteArray::number(h) +
                         "\", \"device\": \"" + devices[h] + "\"}";
            out.write("{\"version\": 1, \"hosts\": [" + hosts + "]}");
        }
        ClusterDocument pageCluster;
        GroupingDocument pageGrouping{&pageCluster};
        ClusterPage page{&pageCluster, &pageGrouping};
        const auto cluster = std::make_shared<const cleave::device::Cluster>(
            cleave::device::load_cluster(file.toStdString()));
        page.setCluster(cluster);
        auto* panel = page.groupingPage();
        // Vector sets need a vectors file.
        auto* sets = qobject_cast<QStandardItemModel*>(panel->featuresBox()->model());
        QVERIFY(!sets->item(panel->featuresBox()->findData("hp"))->isEnabled());
        QCOMPARE(panel->openVectors(vectors), QString());
        panel->groupsBox()->setValue(4);
        panel->featuresBox()->setCurrentIndex(panel->featuresBox()->findData("hp"));
        panel->workloadBox()->setCurrentIndex(
            panel->workloadBox()->findData("squeezenet1_1@1x3x224x224"));
        // The rate starts at 80 % of what the cluster can serve.
        const double rate = panel->document()->request().serving.rate_per_s;
        QVERIFY(rate > 1 && rate != cleave::grouping::ServingOptions{}.rate_per_s);
        QVERIFY(group(*panel));
        QCOMPARE(panel->errorText(), QString());
        const auto expected = coreGroups(*cluster, "hp", 4, vectors.toStdString());
        QCOMPARE(panelGroups(*panel, *cluster), expected);

        // The serving simulation of those groups, as cleave group --serve-rates gives it.
        const auto ms = cleave::grouping::host_benchmark_ms(
            *cluster, cleave::grouping::load_device_vectors(vectors.toStdString()),
            "squeezenet1_1@1x3x224x224", vectors.toStdString(), "workload");
        const auto served =
            cleave::grouping::simulate_serving(expected, 4, ms, {.rate_per_s = rate});
        const auto& shown = *panel->document()->outcome()->chosen.serving;
        QCOMPARE(shown.latency_std_ms, served.latency_std_ms);
        QCOMPARE(shown.groups[2].mean_latency_ms, served.groups[2].mean_latency_ms);
        QCOMPARE(panel->servingChart()->series()->count(), 4);
        QCOMPARE(panel->servingChart()->series()->barSets()[2]->at(0),
                 served.groups[2].mean_latency_ms);
        // Every feature set compared: flops, config, hp, he, ha.
        auto* table = panel->comparisonTable()->model();
        QCOMPARE(table->rowCount(), 5);
        QCOMPARE(table->index(2, 0).data().toString(), QString("hp"));
        QCOMPARE(table->index(2, 2).data().toString(),
                 QLocale().toString(served.latency_std_ms, 'g', 4));

        // The state brings the same settings and groups back without searching again.
        const nlohmann::json state = panel->document()->saveState();
        QCOMPARE(state["features"], "hp");
        ClusterDocument otherCluster;
        GroupingDocument otherGrouping{&otherCluster};
        ClusterPage other{&otherCluster, &otherGrouping};
        other.setCluster(cluster);
        QCOMPARE(other.groupingPage()->document()->restoreState(state), QString());
        const auto restored = other.groupingPage()->document()->request();
        QCOMPARE(restored.groups, 4);
        QCOMPARE(restored.workload, std::string("squeezenet1_1@1x3x224x224"));
        QCOMPARE(panelGroups(*other.groupingPage(), *cluster), expected);
        QCOMPARE(other.groupingPage()->document()->outcome()->chosen.serving->latency_std_ms,
                 served.latency_std_ms);
        QCOMPARE(other.groupingPage()->comparisonTable()->model()->rowCount(), 5);
        QCOMPARE(restored.serving.rate_per_s, rate);
        // Another cluster keeps the settings only.
        ClusterDocument smallCluster;
        GroupingDocument smallGrouping{&smallCluster};
        ClusterPage small{&smallCluster, &smallGrouping};
        small.setCluster(load("xeon4.cluster.json"));
        QCOMPARE(small.groupingPage()->document()->restoreState(state), QString());
        QVERIFY(!small.groupingPage()->document()->outcome());
    }

    void clusterJsonRestoresTheCluster() {
        ClusterDocument pageCluster;
        GroupingDocument pageGrouping{&pageCluster};
        ClusterPage page{&pageCluster, &pageGrouping};
        page.setCluster(load("mixed4.cluster.json"));
        const nlohmann::json saved = page.clusterJson();
        ClusterDocument otherCluster;
        GroupingDocument otherGrouping{&otherCluster};
        ClusterPage other{&otherCluster, &otherGrouping};
        QSignalSpy edited(&other, &ClusterPage::clusterEdited);
        QCOMPARE(other.restoreCluster(saved, "project.cleave"), QString());
        QCOMPARE(hostNames(other.document()->cluster()), hostNames(page.document()->cluster()));
        QCOMPARE(edited.size(), 1);
        nlohmann::json bad = saved;
        bad["hosts"][0]["device"] = "nope";
        QVERIFY(other.restoreCluster(bad, "project.cleave")
                    .contains("project.cleave: /hosts/0/device: no such device"));
        ClusterDocument blank;
        GroupingDocument blankGrouping{&blank};
        QVERIFY(ClusterPage(&blank, &blankGrouping).clusterJson().is_null());
    }
};

QTEST_MAIN(ClusterPageTest)
#include "cluster_page_test.moc"
