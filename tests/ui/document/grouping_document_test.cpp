// The Grouping tab's work as the studio document keeps it, over the cluster editor's hosts
// (mixed4: a Xavier AGX, a Xavier NX, a NUC and a Raspberry Pi 4): the settings the request
// carries (a change to keep only when the user made them), a device vectors file opened or
// refused, a result kept while the hosts and devices stay and dropped when they change, the
// settings and result saved and restored (for other hosts, the settings alone), and a state that
// does not read refused with the reason. The document keeps no undo history: the cluster editor's
// edits are the undo steps.
#include "core/device/cluster.hpp"
#include "core/grouping/grouping_run.hpp"
#include "ui/document/cluster_document.hpp"
#include "ui/document/grouping_document.hpp"

#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

using cleave::ui::ClusterDocument;
using cleave::ui::GroupingDocument;
namespace grouping = cleave::grouping;

namespace {

cleave::ui::ClusterPtr example(const char* name) {
    return std::make_shared<const cleave::device::Cluster>(
        cleave::device::load_cluster(std::string(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/" + name));
}

const QString kVectors = QString(CLEAVE_EXAMPLE_DATA_DIR) + "/measured160.vectors.json";

grouping::GroupingRequest someSettings() {
    grouping::GroupingRequest settings;
    settings.groups = 2;
    settings.features = "config";
    settings.seed = 5;
    settings.serving.rate_per_s = 123.5;
    settings.serving.batch = 8;
    settings.serving.duration_s = 3;
    return settings;
}

// The document's request grouped, as the tab's run does it.
cleave::ui::GroupingOutcomePtr grouped(const GroupingDocument& document) {
    return std::make_shared<const grouping::GroupingOutcome>(
        grouping::run_grouping(document.request()));
}

nlohmann::json asSaved(const nlohmann::json& state) {
    return nlohmann::json::parse(state.dump());
}

} // namespace

class GroupingDocumentTest : public QObject {
    Q_OBJECT

private slots:
    void theRequestIsTheSettingsOverTheHostsOnShow() {
        ClusterDocument cluster;
        cluster.setCluster(example("mixed4.cluster.json"));
        GroupingDocument document(&cluster);
        QSignalSpy changed(&document, &GroupingDocument::changed);
        auto settings = someSettings();
        settings.cluster = example("nx8.cluster.json"); // not what the document groups
        settings.vectors = "elsewhere.vectors.json";    // opened, never set
        document.setSettings(settings, false);
        QCOMPARE(changed.count(), 0);
        const auto request = document.request();
        QCOMPARE(request.cluster, cluster.clusterPtr());
        QVERIFY(request.vectors.empty());
        QCOMPARE(request.groups, 2);
        QCOMPARE(request.features, std::string("config"));
        QCOMPARE(request.seed, std::uint64_t{5});
        QCOMPARE(request.serving.rate_per_s, 123.5);
        settings.groups = 3;
        document.setSettings(settings, true);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(document.request().groups, 3);
    }

    void aVectorsFileIsOpenedOrRefused() {
        ClusterDocument cluster;
        cluster.setCluster(example("mixed4.cluster.json"));
        GroupingDocument document(&cluster);
        QSignalSpy vectors(&document, &GroupingDocument::vectorsChanged);
        QSignalSpy changed(&document, &GroupingDocument::changed);
        const QString missing = kVectors + ".missing";
        const QString error = document.openVectors(missing);
        QVERIFY2(error.contains(missing), qPrintable(error));
        QVERIFY(document.vectorsFile().isEmpty());
        QCOMPARE(vectors.count(), 0);
        QCOMPARE(changed.count(), 0);

        QCOMPARE(document.openVectors(kVectors), QString());
        QCOMPARE(vectors.count(), 1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(document.vectorsFile(), kVectors);
        QCOMPARE(document.request().vectors, kVectors.toStdString());
        QCOMPARE(document.vectorDevices(), 8);
        const auto& benchmarks = document.benchmarks();
        QVERIFY(std::find(benchmarks.begin(), benchmarks.end(), "squeezenet1_1@1x3x224x224") !=
                benchmarks.end());
    }

    void aResultStaysWhileTheHostsAndDevicesDo() {
        ClusterDocument cluster;
        cluster.setCluster(example("mixed4.cluster.json"));
        GroupingDocument document(&cluster);
        document.setSettings(someSettings(), false);
        QSignalSpy outcome(&document, &GroupingDocument::outcomeChanged);
        QSignalSpy dropped(&document, &GroupingDocument::outcomeDropped);
        QSignalSpy changed(&document, &GroupingDocument::changed);
        const auto found = grouped(document);
        document.setOutcome(found);
        QCOMPARE(document.outcome(), found);
        QCOMPARE(outcome.count(), 1);
        QCOMPARE(changed.count(), 1);
        const int generation = document.generation();

        // A link edit leaves the hosts as they were.
        auto link = cluster.cluster().default_link;
        link.latency_us *= 2;
        QCOMPARE(cluster.setDefaultLink(link), QString());
        QCOMPARE(document.outcome(), found);
        QCOMPARE(dropped.count(), 0);
        QCOMPARE(document.generation(), generation);

        // A renamed host: the result is for other hosts.
        QCOMPARE(cluster.renameHost(0, "agx02"), QString());
        QVERIFY(!document.outcome());
        QCOMPARE(dropped.count(), 1);
        QCOMPARE(dropped[0][0].toString(), QString("The hosts changed: group again."));
        QCOMPARE(outcome.count(), 2);
        QCOMPARE(document.generation(), generation + 1);
        // So is a host on another device.
        document.setOutcome(grouped(document));
        QCOMPARE(cluster.setDevice(3, "raspberry-pi-5"), QString());
        QVERIFY(!document.outcome());
        QCOMPARE(dropped.count(), 2);
        // Undoing brings the hosts back, not the result.
        cluster.undoStack()->undo();
        QVERIFY(!document.outcome());
    }

    void settingsAndResultRoundTrip() {
        ClusterDocument cluster;
        cluster.setCluster(example("mixed4.cluster.json"));
        GroupingDocument document(&cluster);
        document.setSettings(someSettings(), false);
        const auto found = grouped(document);
        document.setOutcome(found);
        const auto saved = asSaved(document.saveState());
        QCOMPARE(saved["groups"], 2);
        QCOMPARE(saved["features"], "config");
        QCOMPARE(saved["seed"], 5);
        QCOMPARE(saved["rate_per_s"], 123.5);
        QCOMPARE(saved["batch"], 8);
        QCOMPARE(saved["duration_s"], 3.0);
        QVERIFY(saved["result"].is_object());

        ClusterDocument sameHosts;
        sameHosts.setCluster(example("mixed4.cluster.json"));
        GroupingDocument restored(&sameHosts);
        QSignalSpy told(&restored, &GroupingDocument::restored);
        QSignalSpy outcome(&restored, &GroupingDocument::outcomeChanged);
        QCOMPARE(restored.restoreState(saved), QString());
        QCOMPARE(told.count(), 1);
        QCOMPARE(told[0][0].toString(), QString());
        QCOMPARE(told[0][1].toString(), QString());
        QCOMPARE(outcome.count(), 1);
        QVERIFY(restored.outcome());
        // The same groups, found again from the saved ones: no search.
        QCOMPARE(restored.outcome()->chosen.search.best.group_of,
                 found->chosen.search.best.group_of);
        QCOMPARE(restored.outcome()->chosen.sums, found->chosen.sums);
        QCOMPARE(restored.outcome()->comparison.size(), found->comparison.size());
        QCOMPARE(restored.request().groups, 2);
        QCOMPARE(restored.request().features, std::string("config"));
        QCOMPARE(restored.request().serving.rate_per_s, 123.5);
        QCOMPARE(restored.request().serving.batch, 8);
        QCOMPARE(restored.request().cluster, sameHosts.clusterPtr());
        QCOMPARE(asSaved(restored.saveState()), saved);
    }

    void otherHostsRestoreTheSettingsAlone() {
        ClusterDocument cluster;
        cluster.setCluster(example("mixed4.cluster.json"));
        GroupingDocument document(&cluster);
        document.setSettings(someSettings(), false);
        document.setOutcome(grouped(document));
        const auto saved = asSaved(document.saveState());

        ClusterDocument other;
        other.setCluster(example("nx8.cluster.json"));
        GroupingDocument restored(&other);
        QSignalSpy told(&restored, &GroupingDocument::restored);
        QCOMPARE(restored.restoreState(saved), QString());
        QCOMPARE(told.count(), 1);
        QCOMPARE(told[0][1].toString(),
                 QString("The saved grouping was for other hosts: group again."));
        QVERIFY(!restored.outcome());
        QCOMPARE(restored.request().features, std::string("config"));
        QVERIFY(restored.saveState()["result"].is_null());
    }

    void aFieldLeftOutKeepsItsValue() {
        ClusterDocument cluster;
        cluster.setCluster(example("mixed4.cluster.json"));
        GroupingDocument document(&cluster);
        document.setSettings(someSettings(), false);
        const int generation = document.generation();
        QCOMPARE(document.restoreState({{"seed", 11}}), QString());
        QCOMPARE(document.request().seed, std::uint64_t{11});
        QCOMPARE(document.request().groups, 2);
        QCOMPARE(document.request().features, std::string("config"));
        // A grouping started before the restore is stale when it ends.
        QCOMPARE(document.generation(), generation + 1);
    }

    void aBadStateIsRefusedWithTheReason() {
        ClusterDocument cluster;
        cluster.setCluster(example("mixed4.cluster.json"));
        GroupingDocument document(&cluster);
        document.setSettings(someSettings(), false);
        const auto found = grouped(document);
        document.setOutcome(found);
        QSignalSpy told(&document, &GroupingDocument::restored);

        const QString notAnObject = document.restoreState(nlohmann::json(42));
        QVERIFY2(notAnObject.startsWith("grouping state: "), qPrintable(notAnObject));
        QCOMPARE(told.count(), 1);
        QCOMPARE(told[0][0].toString(), notAnObject);
        const QString wrongKind = document.restoreState({{"groups", "two"}, {"seed", 9}});
        QVERIFY2(wrongKind.startsWith("grouping state: ") && wrongKind.contains("/groups"),
                 qPrintable(wrongKind));
        // Settings that do not read change nothing, the result included.
        QCOMPARE(document.request().groups, 2);
        QCOMPARE(document.request().seed, std::uint64_t{5});
        QCOMPARE(document.outcome(), found);

        // A vectors file that no longer reads: its reason.
        const QString gone = kVectors + ".gone";
        const QString missing = document.restoreState({{"vectors", gone.toStdString()}});
        QVERIFY2(missing.contains(gone), qPrintable(missing));
        QCOMPARE(told.count(), 3);
        QVERIFY(document.vectorsFile().isEmpty());
    }
};

QTEST_MAIN(GroupingDocumentTest)
#include "grouping_document_test.moc"
