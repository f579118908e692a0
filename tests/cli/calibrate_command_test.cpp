// `cleave calibrate` end to end with ONNX Runtime: one command measures this machine within its
// budget and stores a device and its predictor in the user library, which `devices list`, `predict`
// and clusters then use by id; Ctrl-C and bad input leave the library as it was, with a message
// and exit 2; `devices export | import | remove` carry a device between libraries.
#include "cli_run.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

namespace {

using Run = cleave::test::CliRun;

const QString kModels = CLEAVE_EXAMPLE_MODELS_DIR;

// Runs cleave with the user library in `home`.
Run run_in(const QString& home, const QStringList& arguments, int timeout_ms = 300000) {
    QProcess process;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_DATA_HOME", home);
    process.setProcessEnvironment(env);
    process.start(CLEAVE_CLI_PATH, arguments);
    process.waitForFinished(timeout_ms);
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

// An examples folder holding one small real model.
QString examples(const QTemporaryDir& dir) {
    const QString folder = dir.filePath("examples");
    QDir().mkpath(folder);
    QFile::link(kModels + "/squeezenet1_1.onnx", folder + "/squeezenet1_1.onnx");
    return folder;
}

QByteArray read(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class CalibrateCommandTest : public QObject {
    Q_OBJECT

private slots:
    void init() {
        if (!CLEAVE_HAVE_ORT_PROFILER)
            QSKIP("built without Node.js and onnxruntime-node: no ort plugin");
    }

    void oneCommandMakesADeviceEveryCommandUses() {
        QTemporaryDir dir;
        const QString home = dir.filePath("home");
        // Two minutes: a decoder step, which the pool may choose early, warms up until its
        // outputs come to 128 MB in both sessions and took 8 s of 0.4 minutes on a busy 2-vCPU
        // host; under ctest's other tests there, one minute kept 3 networks (the probe 1.6x slow).
        const Run run = run_in(home, {"calibrate", "--device", "ci-box-ort-1t", "--backend", "ort",
                                      "--minutes", "2", "--kind", "lasso", "--examples",
                                      examples(dir), "--keep", dir.filePath("kept"), "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject r = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(r["device"].toString(), QString("ci-box-ort-1t"));
        QCOMPARE(r["kind"].toString(), QString("lasso"));
        QCOMPARE(r["threads"].toInt(), 1);
        QVERIFY(r["runtime"].toString().startsWith("ONNX Runtime 1.30.0"));
        // Measuring leaves time for training (how the budget is kept: calibration_test).
        QVERIFY(r["measuring_s"].toDouble() > 0);
        QVERIFY(r["measuring_s"].toDouble() < r["seconds"].toDouble());
        // Enough networks to train on stay: those timed while the host ran slow (its other
        // tenants) and not measured again are left out. Under ctest's other tests a 2-vCPU host
        // ran up to 3.9x slower than its fastest during this test (speed probe 5.2 to 20.1 ms),
        // and the budget then measures only a few.
        const QJsonArray networks = r["networks"].toArray();
        QVERIFY2(networks.size() >= 2, run.out.left(400).constData());
        // A progress line per network, on stderr; with --keep, its model beside the data, the
        // example models too.
        // A decoder step is shown with its phase and kept in a folder of its own.
        for (const auto& n : networks) {
            const QString name = n.toObject()["name"].toString();
            const QString dims = n.toObject()["dims"].toString();
            QVERIFY(run.err.contains(
                ("] " + name + (dims.isEmpty() ? "" : "@" + dims) + " (").toUtf8()));
            QVERIFY2(QFile::exists(dir.filePath("kept/models/" + name + ".onnx")) ||
                         (!dims.isEmpty() && QFile::exists(dir.filePath("kept/models/" + name +
                                                                        "/" + name + ".onnx"))),
                     qPrintable(name));
        }
        QVERIFY(QFile::exists(dir.filePath("kept/data.json")));
        // The machine's speed, followed by the probe from the first network on.
        const QJsonObject speed = r["speed"].toObject();
        QCOMPARE(speed["probe"].toString(), QString("mobilenet_v2_w050_r224"));
        QVERIFY(!speed["probes"].toArray().isEmpty());
        QVERIFY(speed["fastest_ms"].toDouble() > 0);
        QVERIFY(speed["slowest_ms"].toDouble() >= speed["fastest_ms"].toDouble());
        const QJsonObject lasso = r["kinds"].toArray()[0].toObject();
        QVERIFY(lasso["scored"].toBool());
        QVERIFY(lasso["e2e"].toObject()["mape"].toDouble() > 0);
        QVERIFY(!lasso["families"].toArray().isEmpty());
        QVERIFY(QFile::exists(home + "/cleave/devices/ci-box-ort-1t.json"));
        QVERIFY(QFile::exists(home + "/cleave/predictors/ci-box-ort-1t.json.xz"));

        const Run list = run_in(home, {"devices", "list", "--json"});
        QCOMPARE(list.exit_code, 0);
        QJsonObject mine;
        for (const auto& d : QJsonDocument::fromJson(list.out).object()["devices"].toArray())
            if (d.toObject()["id"].toString() == "ci-box-ort-1t")
                mine = d.toObject();
        QCOMPARE(mine["origin"].toString(), QString("user"));
        QCOMPARE(mine["predictor"].toString(), home + "/cleave/predictors/ci-box-ort-1t.json.xz");

        const Run predict = run_in(
            home, {"predict", kModels + "/resnet18.onnx", "--device", "ci-box-ort-1t", "--json"});
        QVERIFY2(predict.exit_code == 0, predict.err.constData());
        const QJsonObject p = QJsonDocument::fromJson(predict.out).object();
        QVERIFY(p["predictor"].toString().contains("ci-box-ort-1t.json.xz"));
        QVERIFY(p["total_ms"].toDouble() > 1);

        // A cluster file names it like any library device.
        const QString cluster = dir.filePath("two.cluster.json");
        QFile c(cluster);
        QVERIFY(c.open(QIODevice::WriteOnly));
        c.write(R"({"version": 1, "hosts": [{"host": "a", "device": "ci-box-ort-1t"},
                   {"host": "b", "device": "ci-box-ort-1t"}]})");
        c.close();
        const Run mapped =
            run_in(home, {"evaluate-mapping", kModels + "/resnet18.onnx", "--cluster", cluster,
                          "--points", "20", "--pes", "a_cpu0,b_cpu0", "--json"});
        QVERIFY2(mapped.exit_code == 0, mapped.err.constData());
    }

    void ctrlCLeavesTheLibraryAsItWas() {
        QTemporaryDir dir;
        const QString home = dir.filePath("home");
        QProcess process;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", home);
        process.setProcessEnvironment(env);
        process.start(CLEAVE_CLI_PATH, {"calibrate", "--device", "ci-box-ort-1t", "--minutes", "5",
                                        "--kind", "lasso", "--examples", examples(dir)});
        process.setReadChannel(QProcess::StandardError);
        QByteArray err;
        QElapsedTimer waited;
        waited.start();
        QVERIFY(process.waitForStarted());
        while (!err.contains("[1] ") && process.state() == QProcess::Running &&
               waited.elapsed() < 180000) {
            process.waitForReadyRead(1000);
            err += process.readAllStandardError();
        }
        QVERIFY2(err.contains("[1] "), err.constData());
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        QVERIFY(process.waitForFinished(60000));
        err += process.readAllStandardError();
        QCOMPARE(process.exitCode(), 130); // 128 + SIGINT, as a shell reports it
        QVERIFY2(err.contains("interrupted: nothing was written; the user library is unchanged"),
                 err.constData());
        QVERIFY(!QFile::exists(home + "/cleave/devices/ci-box-ort-1t.json"));
        QVERIFY(!QFile::exists(home + "/cleave/predictors/ci-box-ort-1t.json.xz"));
    }

    void badInputIsNamedAndExitsTwo_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("says");
        QTest::newRow("built-in id") << QStringList{"calibrate", "--device", "jetson-nano"}
                                     << "cleave: --device: jetson-nano: is a built-in device";
        QTest::newRow("bad id") << QStringList{"calibrate", "--device", "My Box"}
                                << "lower-case kebab case";
        QTest::newRow("no minutes")
            << QStringList{"calibrate", "--device", "b-1", "--minutes", "0"} << "--minutes";
        QTest::newRow("unknown back end")
            << QStringList{"calibrate", "--device", "b-1", "--backend", "tvm"} << "--backend";
        QTest::newRow("unknown kind")
            << QStringList{"calibrate", "--device", "b-1", "--kind", "forest"} << "forest";
        QTest::newRow("unknown device")
            << QStringList{"predict", kModels + "/resnet18.onnx", "--device", "nx-99"}
            << "nx-99: no such device";
        QTest::newRow("unknown user device")
            << QStringList{"devices", "remove", "nx-99"} << "is not in the user library";
    }

    void badInputIsNamedAndExitsTwo() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const Run run = run_in(dir.filePath("home"), arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains(says.toUtf8()), run.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("home/cleave")));
    }

    void aDeviceFileOfTheWrongFormatIsNamed() {
        QTemporaryDir dir;
        const QString file = dir.filePath("board.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "cleave-project", "version": 1})");
        f.close();
        const Run run = run_in(dir.filePath("home"), {"devices", "import", file});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains((file + ": /format: expected \"cleave-device-bundle\"").toUtf8()),
                 run.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("home/cleave")));
    }

    void aDeviceTravelsBetweenLibraries() {
        QTemporaryDir dir;
        const QString board = dir.filePath("board"), workstation = dir.filePath("workstation");
        const QString device_file = dir.filePath("b.json");
        // A datasheet device of the user's own, from a library device renamed.
        const Run shown = run_in(board, {"devices", "show", "jetson-nano", "--json"});
        QCOMPARE(shown.exit_code, 0);
        QJsonObject spec = QJsonDocument::fromJson(shown.out).object();
        spec["id"] = "my-nano";
        QFile f(device_file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(spec).toJson());
        f.close();
        QCOMPARE(run_in(board, {"devices", "import", device_file}).exit_code, 0);
        const QString bundle = dir.filePath("my-nano.cleave-device.json.xz");
        const Run exported = run_in(board, {"devices", "export", "my-nano", "--out", bundle});
        QVERIFY2(exported.exit_code == 0, exported.err.constData());
        const Run imported = run_in(workstation, {"devices", "import", bundle, "--json"});
        QVERIFY2(imported.exit_code == 0, imported.err.constData());
        QCOMPARE(read(board + "/cleave/devices/my-nano.json"),
                 read(workstation + "/cleave/devices/my-nano.json"));
        const Run removed = run_in(workstation, {"devices", "remove", "my-nano"});
        QCOMPARE(removed.exit_code, 0);
        QVERIFY(!QFile::exists(workstation + "/cleave/devices/my-nano.json"));
    }
};

QTEST_GUILESS_MAIN(CalibrateCommandTest)
#include "calibrate_command_test.moc"
