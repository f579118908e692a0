// `cleave platform check` end to end: a platform.txt or a cluster file read as a cluster
// (hosts, matched devices, PE keys, links), and exit 2 naming the first bad line.
#include "cli_run.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;
using cleave::test::written;

QString example(const char* name) {
    return QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/" + name;
}

} // namespace

class PlatformCommandTest : public QObject {
    Q_OBJECT

private slots:
    void platformTxtJsonListsHostsDevicesAndKeys() {
        const Run run = run_cleave({"platform", "check", example("nx8.platform.txt"), "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root.keys(), (QStringList{"file", "hosts", "links"}));
        QCOMPARE(root["file"].toString(), example("nx8.platform.txt"));
        const QJsonArray hosts = root["hosts"].toArray();
        QCOMPARE(hosts.size(), 8);
        const QJsonObject nx01 = hosts[0].toObject();
        QCOMPARE(nx01.keys(), (QStringList{"device", "host", "match", "pes"}));
        QCOMPARE(nx01["host"].toString(), QString("nx01"));
        QCOMPARE(nx01["device"].toString(), QString("jetson-xavier-nx"));
        QCOMPARE(nx01["match"].toString(),
                 QString("nx01: arm, 6 cores, gpu NVIDIAVolta -> jetson-xavier-nx"));
        const QJsonArray pes = nx01["pes"].toArray();
        QCOMPARE(pes.size(), 2);
        QCOMPARE(pes[0].toObject()["key"].toString(), QString("nx01_arm012345"));
        QCOMPARE(pes[0].toObject()["kind"].toString(), QString("cpu"));
        QCOMPARE(pes[1].toObject()["key"].toString(), QString("nx01_gpu"));
        const QJsonObject links = root["links"].toObject();
        QCOMPARE(links["default"].toObject()["bandwidth_gbps"].toDouble(), 1.0);
        QCOMPARE(links["default"].toObject()["latency_us"].toDouble(), 100.0);
        QCOMPARE(links["pairs"].toArray().size(), 0);
    }

    void platformTxtTableNamesTheMatches() {
        const Run run = run_cleave({"platform", "check", example("mixed4.platform.txt")});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.contains("hosts    4, 6 PEs\n"));
        QVERIFY(run.out.contains("agx01        jetson-agx-xavier  agx01_arm01234567 agx01_gpu\n"));
        QVERIFY(run.out.contains("rpi01        raspberry-pi-4     rpi01_arm0123\n"));
        QVERIFY(run.out.contains("\nmatched from the platform file's lines:\n"));
        QVERIFY(run.out.contains("  nuc01: x86_64, 4 cores, no gpu -> intel-nuc (also fits "
                                 "intel-n100-mini-pc, xeon-ort-4t; a cluster file can name "
                                 "another)\n"));
    }

    void clusterFileShowsItsLinks() {
        const Run run = run_cleave({"platform", "check", example("mixed4.cluster.json")});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.contains("links    default 1 Gbit/s, 100 us; 3 pairs\n"));
        QVERIFY(run.out.contains("link     agx01 - rpi01: 0.1 Gbit/s, 2000 us\n"));
        QVERIFY(!run.out.contains("matched from"));

        const Run json = run_cleave({"platform", "check", example("nx8.cluster.json"), "--json"});
        QCOMPARE(json.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(root["hosts"].toArray().size(), 8);
        QVERIFY(root["hosts"].toArray()[0].toObject()["match"].isNull());
    }

    void badLineExitsTwoWithItsNumber() {
        QTemporaryDir dir;
        const QString path = written(dir, "platform.txt",
                                     "# lab\nnx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)\n"
                                     "nx02, arm, slots=0-5, gpu=NVIDIAVolta CUDA\n"
                                     "nx03, arm, slot=0-5\n");
        const Run run = run_cleave({"platform", "check", path});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(QString(run.err), "cleave: " + path +
                                       ": line 3: expected gpu=ARCH (API) such as "
                                       "gpu=NVIDIAVolta (CUDA), found \"gpu=NVIDIAVolta CUDA\"\n");
    }

    void lineNoDeviceFitsExitsTwoWithItsNumber() {
        QTemporaryDir dir;
        const QString path = written(dir, "platform.txt",
                                     "nx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)\n"
                                     "big, arm, slots=0-63\n");
        const Run run = run_cleave({"platform", "check", path, "--json"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.startsWith(("cleave: " + path +
                                     ": line 2: no library device fits big (arm, 64 cores, no "
                                     "gpu); expected one of ")
                                        .toUtf8()),
                 run.err.constData());
    }

    void bareHostNamesNeedAClusterFile() {
        QTemporaryDir dir;
        const QString path = written(dir, "hosts.txt", "nx01\nnx02\n");
        const Run run = run_cleave({"platform", "check", path});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.err.startsWith(("cleave: " + path +
                                    ": line 1: nx01 is a bare host name, which says nothing of "
                                    "its device")
                                       .toUtf8()));
    }

    void badClusterFileExitsTwoWithThePointer() {
        QTemporaryDir dir;
        const QString path =
            written(dir, "lab.cluster.json",
                    R"({"version": 1, "hosts": [{"host": "nx01", "device": "jetson-xavier-nx"}],
                "links": {"default": {"bandwidth_gbps": "fast"}}})");
        const Run run = run_cleave({"platform", "check", path});
        QCOMPARE(run.exit_code, 2);
        QCOMPARE(QString(run.err), "cleave: " + path +
                                       ": /links/default/bandwidth_gbps: expected a number > 0 "
                                       "(Gbit/s), found string\n");
    }

    void missingFileExitsTwo() {
        const Run run = run_cleave({"platform", "check", "/nonexistent/platform.txt"});
        QCOMPARE(run.exit_code, 2);
        QCOMPARE(QString(run.err), QString("cleave: /nonexistent/platform.txt: cannot read; "
                                           "expected an AutoDiCE platform.txt\n"));
    }
};

QTEST_GUILESS_MAIN(PlatformCommandTest)
#include "platform_command_test.moc"
