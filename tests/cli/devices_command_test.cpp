// `cleave devices list | show | import` end to end: the JSON documents' form, the library in
// order, this machine detected, and exit 2 with a message for an unknown device, a bad file or
// a predictor that once crashed the import.
#include "cli_run.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

QJsonObject device_named(const QJsonArray& devices, const QString& id) {
    for (const auto& d : devices)
        if (d.toObject()["id"].toString() == id)
            return d.toObject();
    return {};
}

// Runs cleave with a user library of its own under `home`.
Run run_in(const QString& home, const QStringList& arguments) {
    QProcess process;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_DATA_HOME", home);
    process.setProcessEnvironment(env);
    process.start(CLEAVE_CLI_PATH, arguments);
    process.waitForFinished(120000);
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

} // namespace

class DevicesCommandTest : public QObject {
    Q_OBJECT

private slots:
    void listJsonHasEveryDeviceWithItsPes() {
        const Run run = run_cleave({"devices", "list", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root.keys(), QStringList{"devices"});
        const QJsonArray devices = root["devices"].toArray();
        QCOMPARE(devices.size(), 28);
        QCOMPARE(devices[0].toObject()["id"].toString(), QString("jetson-xavier-nx"));
        QCOMPARE(devices[27].toObject()["id"].toString(), QString("this-machine"));
        for (const char* id : {"jetson-agx-xavier", "jetson-tx2", "jetson-orin-nano", "jetson-nano",
                               "raspberry-pi-4", "raspberry-pi-5", "intel-nuc", "nvidia-t4",
                               "nvidia-v100", "nvidia-a10g", "nvidia-h100", "xeon-ort-1t",
                               "xeon-ort-16t", "h100-cudnn-fp32", "h100-cudnn-fp16"})
            QVERIFY2(!device_named(devices, id).isEmpty(), id);

        const QJsonObject nx = devices[0].toObject();
        QCOMPARE(nx.keys(),
                 (QStringList{"id", "kind", "measured", "memory_bandwidth_gbs", "memory_gib",
                              "name", "network_gbps", "origin", "pes", "predictor", "source"}));
        QCOMPARE(nx["origin"].toString(), QString("built-in"));
        QVERIFY(nx["predictor"].isNull()); // a roofline from its figures
        QVERIFY(device_named(devices, "xeon-ort-1t")["predictor"].toString().endsWith(
            "/xeon-ort-1t.json.xz"));
        QCOMPARE(devices[27].toObject()["origin"].toString(), QString("detected"));
        QCOMPARE(nx["kind"].toString(), QString("soc"));
        QCOMPARE(nx["measured"].toBool(), false);
        QCOMPARE(nx["memory_gib"].toDouble(), 8.0);
        QCOMPARE(nx["memory_bandwidth_gbs"].toDouble(), 51.2);
        const QJsonArray pes = nx["pes"].toArray();
        QCOMPARE(pes.size(), 2);
        const QJsonObject cpu = pes[0].toObject();
        QCOMPARE(cpu.keys(), (QStringList{"arch", "cores", "kind", "memory_bandwidth_gbs", "name",
                                          "peak_gflops", "resource"}));
        QCOMPARE(cpu["resource"].toString(), QString("arm012345"));
        QCOMPARE(cpu["cores"].toInt(), 6);
        const QJsonObject cpu_peak = cpu["peak_gflops"].toObject();
        QCOMPARE(cpu_peak.keys(), (QStringList{"derived", "fp16", "fp32", "int8"}));
        QCOMPARE(cpu_peak["fp32"].toDouble(), 182.4); // 6 Carmel cores x 1.9 GHz x 16
        QCOMPARE(cpu_peak["derived"].toBool(), true);
        QVERIFY(cpu_peak["fp16"].isNull());
        const QJsonObject gpu = pes[1].toObject();
        QCOMPARE(gpu["resource"].toString(), QString("gpu"));
        QCOMPARE(gpu["arch"].toString(), QString("NVIDIAVolta"));
        QVERIFY(!gpu.contains("cores"));
        QCOMPARE(gpu["peak_gflops"].toObject()["fp32"].toDouble(), 844.8);
        QCOMPARE(gpu["peak_gflops"].toObject()["derived"].toBool(), true);
        const QJsonObject t4 = device_named(devices, "nvidia-t4")["pes"].toArray()[0].toObject();
        QCOMPARE(t4["peak_gflops"].toObject()["derived"].toBool(), false); // the datasheet's

        const QJsonObject xeon = device_named(devices, "xeon-ort-16t");
        QCOMPARE(xeon["measured"].toBool(), true);
        QCOMPARE(xeon["pes"].toArray()[0].toObject()["resource"].toString(), QString("cpu0-15"));
        QVERIFY(xeon["memory_gib"].isNull());

        const QJsonObject me = devices[27].toObject();
        QCOMPARE(me["source"].toString(), QString("detected"));
        QVERIFY(me["pes"].toArray()[0].toObject()["cores"].toInt() >= 1);
    }

    void everyPeOfTheLibraryIsCosted() {
        // A roofline needs a PE's fp32 peak and the bandwidth it sees; measured devices stand
        // for their runs instead (shipped predictors), yet the H100 ones carry nvidia-h100's.
        const Run run = run_cleave({"devices", "list", "--json"});
        QCOMPARE(run.exit_code, 0);
        for (const auto& entry : QJsonDocument::fromJson(run.out).object()["devices"].toArray()) {
            const QJsonObject device = entry.toObject();
            const QString id = device["id"].toString();
            if (id.startsWith("xeon-ort-") || id == "this-machine")
                continue; // this-machine: see this_machine_test, it depends on the machine
            for (const auto& pe : device["pes"].toArray()) {
                const QString what = id + " " + pe.toObject()["resource"].toString();
                QVERIFY2(pe.toObject()["peak_gflops"].toObject()["fp32"].toDouble() > 0,
                         qPrintable(what));
                QVERIFY2(pe.toObject()["memory_bandwidth_gbs"].toDouble() > 0, qPrintable(what));
            }
        }
    }

    void listTableHasOneLinePerDeviceAndMarksDerivedPeaks() {
        const Run run = run_cleave({"devices", "list"});
        QCOMPARE(run.exit_code, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 31); // header, 28 devices, a blank line, the mark's legend
        QVERIFY(lines[0].startsWith("id "));
        QCOMPARE(lines[1].simplified(),
                 QByteArray("jetson-xavier-nx built-in soc arm012345 gpu 182.4* / 844.8* 8 GiB "
                            "51.2 NVIDIA Jetson Xavier NX (8 GB module)"));
        QVERIFY(lines[28].simplified().startsWith("this-machine detected cpu "));
        QVERIFY(lines[29].isEmpty());
        QCOMPARE(lines[30], QByteArray("* derived: cores x clock x FLOP per clock, no document "
                                       "giving the rate (cleave devices show ID gives the "
                                       "derivation)"));
        QVERIFY(run.err.isEmpty());
    }

    void listOutWritesTheDocument() {
        QTemporaryDir dir;
        const QString out = dir.filePath("devices.json");
        const Run run = run_cleave({"devices", "list", "--out", out});
        QCOMPARE(run.exit_code, 0);
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(file.readAll()).object()["devices"].toArray().size(), 28);
    }

    void aGpuWithMemoryOfItsOwnShowsIt() {
        const Run run = run_cleave({"devices", "show", "rtx-4090-desktop"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY2(run.out.contains("\n  memory     24 GiB of its own, 1008 GB/s\n"),
                 run.out.constData());
        const Run json = run_cleave({"devices", "list", "--json"});
        for (const auto& d : QJsonDocument::fromJson(json.out).object()["devices"].toArray())
            if (d.toObject()["id"].toString() == "rtx-4090-desktop")
                QCOMPARE(d.toObject()["pes"].toArray()[0].toObject()["memory_gib"].toDouble(),
                         24.0);
    }

    void showPrintsEveryPeWithItsSources() {
        const Run run = run_cleave({"devices", "show", "jetson-tx2"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.startsWith("jetson-tx2: NVIDIA Jetson TX2 (8 GB module)\n"));
        QVERIFY(run.out.contains("\nPE arm12        Denver 2 cluster: 2 arm cores"));
        QVERIFY(run.out.contains("\nPE arm0345      Cortex-A57 cluster: 4 arm cores"));
        QVERIFY(run.out.contains("\nPE gpu          Pascal GPU: NVIDIAPascal (CUDA, compute "
                                 "capability 6.2), 2 SMs, 256 CUDA cores, 1.3 GHz\n"));
        QVERIFY(run.out.contains("  peak       fp32 665.6, fp16 1331.2, int8 - GFLOP/s, "
                                 "derived\n"));
        QVERIFY(run.out.contains("  peak       fp32 64, fp16 -, int8 - GFLOP/s, derived\n"
                                 "  memory     59.7 GB/s\n"));
        QVERIFY(run.out.contains("  peak from  derived: 2 cores x 2.0 GHz x 16 FP32 FLOP per "
                                 "clock;"));
        QVERIFY(run.out.contains("memory     8 GiB LPDDR4, 128-bit, 59.7 GB/s\n"));
        QVERIFY(run.out.contains("  source   data sheet: 128-bit LPDDR4"));
    }

    void showJsonIsTheDeviceFileAndReadsBack() {
        QTemporaryDir dir;
        const QString out = dir.filePath("nx.json");
        const Run run = run_cleave({"devices", "show", "jetson-xavier-nx", "--json", "--out", out});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject device = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(device["format"].toString(), QString("cleave-device"));
        QCOMPARE(device["version"].toInt(), 1);
        QCOMPARE(device["id"].toString(), QString("jetson-xavier-nx"));
        QCOMPARE(device["processing_elements"].toArray().size(), 2);
        QVERIFY(!device["memory"].toObject()["source"].toString().isEmpty());

        const Run again = run_cleave({"devices", "show", out, "--json"});
        QCOMPARE(again.exit_code, 0);
        QCOMPARE(QJsonDocument::fromJson(again.out).object(), device);
    }

    void showThisMachineIsDetected() {
        const Run run = run_cleave({"devices", "show", "this-machine", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject device = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(device["id"].toString(), QString("this-machine"));
        QCOMPARE(device["source"].toString(), QString("detected"));
    }

    void unknownDeviceExitsTwoListingTheLibrary() {
        const Run run = run_cleave({"devices", "show", "jetson-xavier"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.startsWith("cleave: jetson-xavier: no such device; expected one of "
                                    "jetson-xavier-nx, jetson-agx-xavier, "),
                 run.err.constData());
        QVERIFY(run.err.contains(
            "this-machine, a device calibrated with cleave calibrate, or a device file (.json)"));
    }

    void badDeviceFileExitsTwoNamingFileAndPointer() {
        QTemporaryDir dir;
        const QString path = dir.filePath("board.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": "cleave-device", "version": 1, "id": "board", "name": "Board",
            "kind": "soc", "source": "mine",
            "processing_elements": [{"kind": "cpu", "name": "c", "arch": "arm", "cores": 0,
                                     "source": "mine"}]})");
        file.close();
        const Run run = run_cleave({"devices", "show", path});
        QCOMPARE(run.exit_code, 2);
        QCOMPARE(QString(run.err), "cleave: " + path +
                                       ": /processing_elements/0/cores: expected a whole number "
                                       "from 1 to 4096, found 0\n");
    }

    // A device id names the user library's files: one past the limit is refused by its
    // length, not by the file system.
    void anIdPastTheLengthLimitSaysTheLimit() {
        QTemporaryDir dir;
        QFile good(QString(CLEAVE_TEST_DATA_DIR) + "/regressions/bar-box-2t.json");
        QVERIFY(good.open(QIODevice::ReadOnly));
        QJsonObject device = QJsonDocument::fromJson(good.readAll()).object();
        device["id"] = QString(300, 'b');
        const QString path = dir.filePath("long.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(device).toJson());
        file.close();
        const Run shown = run_cleave({"devices", "show", path});
        QCOMPARE(shown.exit_code, 2);
        QCOMPARE(QString(shown.err), "cleave: " + path +
                                         ": /id: expected an id of at most 64 characters, found "
                                         "300\n");
        const Run imported = run_in(dir.filePath("home"), {"devices", "import", path});
        QCOMPARE(imported.exit_code, 2);
        QVERIFY(imported.err.contains("at most 64 characters"));
        QVERIFY(!QFile::exists(dir.filePath("home/cleave")));
    }

    // The predictors that once crashed `predict` crashed `devices import --predictor` too
    // (tests/data/regressions): refused, and nothing is written.
    void formerCrashesOfImportExitTwoNamingTheFile_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("14") << "predictor-mutation-14.json.xz";
        QTest::newRow("87") << "predictor-mutation-87.json.xz";
        QTest::newRow("233") << "predictor-mutation-233.json.xz";
    }
    void formerCrashesOfImportExitTwoNamingTheFile() {
        QFETCH(QString, file);
        QTemporaryDir dir;
        const QString regressions = QString(CLEAVE_TEST_DATA_DIR) + "/regressions/";
        const Run run =
            run_in(dir.filePath("home"), {"devices", "import", regressions + "bar-box-2t.json",
                                          "--predictor", regressions + file});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.startsWith(("cleave: " + regressions + file + ": ").toUtf8()),
                 run.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("home/cleave")));
    }

    void missingSubcommandIsAUsageError() {
        QCOMPARE(run_cleave({"devices"}).exit_code, 2);
        QCOMPARE(run_cleave({"devices", "show"}).exit_code, 2);
    }

    void helpNamesTheCommands() {
        const Run run = run_cleave({"--help"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.contains("devices"));
        QVERIFY(run.out.contains("platform"));
    }
};

QTEST_GUILESS_MAIN(DevicesCommandTest)
#include "devices_command_test.moc"
