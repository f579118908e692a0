// `cleave group` end to end: the JSON document (groups, feature sums, objective, the exact
// optimum), per-host vectors from a file, and exit 2 with a precise message for bad input.
#include "cli_run.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;
using cleave::test::written;

QString example(const char* name) {
    return QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/" + name;
}

QSet<QString> hosts_of(const QJsonArray& groups) {
    QSet<QString> hosts;
    for (const auto& group : groups)
        for (const auto& host : group.toObject()["hosts"].toArray())
            hosts.insert(host.toString());
    return hosts;
}

} // namespace

class GroupCommandTest : public QObject {
    Q_OBJECT

private slots:
    void jsonListsGroupsSumsAndObjective() {
        const Run run = run_cleave({"group", "--cluster", example("mixed4.cluster.json"),
                                    "--groups", "2", "--features", "flops", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root.keys(),
                 (QStringList{"cluster", "exact", "feature_names", "features", "groups",
                              "normalisation", "notes", "objective", "scales", "search",
                              "serving"}));
        QCOMPARE(root["features"].toString(), QString("flops"));
        QCOMPARE(root["feature_names"].toArray(), (QJsonArray{"fp32_gflops"}));
        QCOMPARE(root["scales"].toObject()["fp32_gflops"].toDouble(), 289.28 + 1402.88); // AGX
        QVERIFY(root["exact"].isNull());
        const QJsonArray groups = root["groups"].toArray();
        QCOMPARE(groups.size(), 2);
        QCOMPARE(hosts_of(groups), (QSet<QString>{"agx01", "nx01", "nuc01", "rpi01"}));
        const QJsonObject first = groups[0].toObject();
        QCOMPARE(first.keys(), (QStringList{"devices", "hosts", "normalised_sums", "sums"}));
        // Peak FP32, CPU + GPU: AGX 289.28 + 1402.88 = 1692.16 | NX 182.4 + 844.8 + NUC 358.4
        // + Pi 4 48 = 1433.6.
        double total = 0;
        for (const auto& group : groups)
            total += group.toObject()["sums"].toObject()["fp32_gflops"].toDouble();
        QVERIFY(std::abs(total - (1692.16 + 1027.2 + 358.4 + 48)) < 1e-9);
        QCOMPARE(hosts_of(QJsonArray{first}), (QSet<QString>{"agx01"}));
        const double a = 1692.16 / 1692.16, b = 1433.6 / 1692.16;
        QVERIFY(std::abs(root["objective"].toDouble() - (a - b) * (a - b) / 4) < 1e-12);
        QCOMPARE(root["search"].toObject()["starts"].toInt(), 33);
        QCOMPARE(root["notes"].toArray().size(), 0); // every PE has a peak
    }

    void exactConfirmsTheSearchOnIdenticalDevices() {
        const Run run = run_cleave({"group", "--cluster", example("nx8.cluster.json"), "--groups",
                                    "4", "--features", "config", "--exact", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root["objective"].toDouble(), 0.0);
        const QJsonObject exact = root["exact"].toObject();
        QCOMPARE(exact["objective"].toDouble(), 0.0);
        QCOMPARE(exact["gap"].toDouble(), 0.0);
        for (const auto& group : root["groups"].toArray())
            QCOMPARE(group.toObject()["hosts"].toArray().size(), 2);
        QCOMPARE(root["feature_names"].toArray().size(), 6);
    }

    void exactOnMixedClusterEqualsSearch() {
        const Run run = run_cleave({"group", "--cluster", example("mixed4.platform.txt"),
                                    "--groups", "3", "--features", "config", "--exact", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QVERIFY(std::abs(root["exact"].toObject()["gap"].toDouble()) < 1e-12);
        QCOMPARE(root["groups"].toArray().size(), 3);
    }

    void featuresFileVectorsAreBalanced() {
        QTemporaryDir dir;
        const QString file =
            written(dir, "ha.json",
                    R"({"features": ["hp", "he"], "hosts": {"agx01": [4, 1], "nx01": [2, 1],)"
                    R"( "nuc01": [1, 1], "rpi01": [1, 1]}})");
        const Run run = run_cleave({"group", "--cluster", example("mixed4.cluster.json"),
                                    "--groups", "2", "--features-file", file, "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root["features"].toString(), file);
        QCOMPARE(root["feature_names"].toArray(), (QJsonArray{"hp", "he"}));
        // {agx01 rpi01} {nx01 nuc01}: hp 5 | 3, /4 = 1.25 | 0.75, variance 0.0625; he 2 | 2.
        // ({agx01} alone balances hp but leaves he 1 | 3, variance 1.)
        QVERIFY(std::abs(root["objective"].toDouble() - 0.0625) < 1e-12);
    }

    void tableNamesGroupsAndObjective() {
        const Run run = run_cleave({"group", "--cluster", example("mixed4.cluster.json"),
                                    "--groups", "2", "--features", "flops", "--exact"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.contains("group 0: agx01"));
        QVERIFY(run.out.contains("exact optimum"));
        QVERIFY(run.out.contains("reached it"));
    }

    void badInputExitsTwoWithThePlace_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString mixed = example("mixed4.cluster.json");
        QTest::newRow("zero groups")
            << QStringList{"--cluster", mixed, "--groups", "0", "--features", "flops"}
            << "cleave: --groups: 0 groups for the 4 hosts of " + mixed +
                   "; expected a whole number from 1 to 4";
        QTest::newRow("more groups than hosts")
            << QStringList{"--cluster", mixed, "--groups", "5", "--features", "flops"}
            << "cleave: --groups: 5 groups for the 4 hosts";
        QTest::newRow("unknown feature set")
            << QStringList{"--cluster", mixed, "--groups", "2", "--features", "gflops"}
            << "cleave: --features: unknown feature set \"gflops\"; expected one of flops, config "
               "(device specs), hp, he, ha";
        QTest::newRow("no feature set") << QStringList{"--cluster", mixed, "--groups", "2"}
                                        << "cleave: --features: expected exactly one of";
        QTest::newRow("missing cluster") << QStringList{"--cluster",  "/nonexistent/x.cluster.json",
                                                        "--groups",   "2",
                                                        "--features", "flops"}
                                         << "cleave: /nonexistent/x.cluster.json";
        QTest::newRow("negative restarts") << QStringList{"--cluster",  mixed,   "--groups",   "2",
                                                          "--features", "flops", "--restarts", "-1"}
                                           << "cleave: --restarts: expected a whole number >= 0";
    }

    void badInputExitsTwoWithThePlace() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run run = run_cleave(QStringList{"group"} + arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(QString::fromUtf8(run.err).startsWith(message), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    void badClusterFileExitsTwoWithThePointer() {
        QTemporaryDir dir;
        const QString file = written(dir, "bad.cluster.json",
                                     R"({"version": 1, "hosts": [{"host": "a", "device": 7}]})");
        const Run run =
            run_cleave({"group", "--cluster", file, "--groups", "1", "--features", "flops"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("/hosts/0/device"), run.err.constData());
    }

    void badFeaturesFileExitsTwoWithThePointer() {
        QTemporaryDir dir;
        const QString file = written(dir, "f.json", R"({"agx01": [1], "nx01": [1], "nuc01": [1]})");
        const Run run = run_cleave({"group", "--cluster", example("mixed4.cluster.json"),
                                    "--groups", "2", "--features-file", file});
        QCOMPARE(run.exit_code, 2);
        QCOMPARE(QString::fromUtf8(run.err),
                 "cleave: " + file +
                     ": /rpi01: missing; expected a feature vector for every host of the "
                     "cluster\n");
    }
};

QTEST_GUILESS_MAIN(GroupCommandTest)
#include "group_command_test.moc"
