// Cross-device predictors from the command line, on three devices made from the measured sample
// (tests/data/ort-cpu-xeon-sample.json: convolutions and the rest sped up by other factors):
// `cleave train-cross-device` writes a base that `cleave train --kind cross-device` adapts and
// `cleave predict` uses; `cleave evaluate-cross-device --json` leaves each device out; exit 2
// for too few devices, an unknown device and a bad base file.
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

const QString kSample = QString(CLEAVE_TEST_DATA_DIR) + "/ort-cpu-xeon-sample.json";
const QString kModels = CLEAVE_EXAMPLE_MODELS_DIR;

// The sample as a device running at `threads` threads, its convolution kernels taking `conv`
// times as long and every other kernel `other` times; end-to-end times keep the sample's overhead.
// `machine`: the processor the file names, where not the sample's.
QByteArray sped_up(double conv, double other, int threads, const QString& machine = {}) {
    QFile file(kSample);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    QJsonArray runs = root["runs"].toArray();
    for (auto&& value : runs) {
        QJsonObject run = value.toObject();
        double before = 0, after = 0;
        QJsonArray kernels = run["kernels"].toArray();
        for (auto&& k : kernels) {
            QJsonObject kernel = k.toObject();
            if (kernel["us"].isDouble()) {
                const double us = kernel["us"].toDouble();
                const double scaled = us * (kernel["op"].toString().contains("Conv") ? conv : other);
                before += us;
                after += scaled;
                kernel["us"] = scaled;
            }
            k = kernel;
        }
        run["kernels"] = kernels;
        run["threads"] = threads;
        QJsonArray times;
        for (const auto& t : run["e2e_ms"].toArray())
            times.append(t.toDouble() + (after - before) / 1000);
        run["e2e_ms"] = times;
        value = run;
    }
    root["runs"] = runs;
    if (!machine.isEmpty())
        root["cpu"] = machine;
    return QJsonDocument(root).toJson();
}

// Three machines, each standing for a library device; `one_machine`: all three the sample's.
struct Devices {
    QTemporaryDir dir;
    QStringList data;
    explicit Devices(bool one_machine = false) {
        const auto other = [&](const char* name) { return one_machine ? QString() : name; };
        data = {"xeon-ort-1t=" + kSample,
                "xeon-ort-2t=" + written(dir, "two.json", sped_up(0.55, 0.9, 2, other("Board B"))),
                "xeon-ort-4t=" + written(dir, "four.json", sped_up(0.3, 0.8, 4, other("Board C")))};
    }
};

} // namespace

class CrossDeviceCommandTest : public QObject {
    Q_OBJECT

private slots:
    void aBaseIsTrainedAdaptedAndPredicts() {
        Devices devices;
        const QString base = devices.dir.filePath("base.json.xz");
        const Run trained = run_cleave(QStringList{"train-cross-device", "--data"} + devices.data +
                                       QStringList{"--models", kModels, "--out", base, "--json"});
        QCOMPARE(trained.exit_code, 0);
        const QJsonObject summary = QJsonDocument::fromJson(trained.out).object();
        QCOMPARE(summary["kind"].toString(), QString("gbdt"));
        const QJsonArray rows = summary["devices"].toArray();
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[1].toObject()["device"].toString(), QString("xeon-ort-2t"));
        // Faster convolutions: a faster device overall.
        const auto speed = [&](int i) {
            return rows[i].toObject()["descriptor"].toObject()["device_speed"].toDouble();
        };
        QVERIFY(speed(0) < speed(1) && speed(1) < speed(2));

        const QString predictor = devices.dir.filePath("p.json");
        const Run adapted = run_cleave(
            {"train", "--data", devices.data[2].mid(QString("xeon-ort-4t=").size()), "--models",
             kModels, "--device", "xeon-ort-4t", "--kind", "cross-device", "--cross-device-base",
             base, "--out", predictor, "--json"});
        QVERIFY2(adapted.exit_code == 0, adapted.err.constData());
        const QJsonObject p = QJsonDocument::fromJson(adapted.out).object();
        QCOMPARE(p["kind"].toString(), QString("cross-device"));
        QVERIFY2(p["training_kernel_mape"].toDouble() < 0.3, adapted.out.constData());

        const Run predicted = run_cleave({"predict", kModels + "/resnet18.onnx", "--device",
                                          "xeon-ort-4t", "--predictor", predictor, "--json"});
        QCOMPARE(predicted.exit_code, 0);
        QVERIFY(QJsonDocument::fromJson(predicted.out).object()["total_ms"].toDouble() > 0);
    }

    void evaluateLeavesEachDeviceOut() {
        Devices devices;
        const Run run = run_cleave(QStringList{"evaluate-cross-device", "--data"} + devices.data +
                                   QStringList{"--models", kModels, "--samples", "5", "--samples",
                                               "20", "--seeds", "1", "--json"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.err.contains("xeon-ort-2t: training the base on the 2 other devices"));
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        const QJsonArray rows = root["devices"].toArray();
        QCOMPARE(rows.size(), 3);
        for (const auto& value : rows) {
            const QJsonObject device = value.toObject();
            QCOMPARE(device["runs"].toInt(), 5);
            QCOMPARE(device["trained_on"].toArray().size(), 2);
            QVERIFY(!device["machine"].toString().isEmpty());
            QVERIFY(device["roofline"].isNull()); // the Xeon's spec has no peak rate
            const QJsonArray samples = device["samples"].toArray();
            QCOMPARE(samples.size(), 2);
            QCOMPARE(samples[1].toObject()["samples"].toInt(), 20);
            for (const char* method : {"cross_device", "descriptor_only", "device_only"}) {
                const QJsonObject s = samples[1].toObject()[method].toObject();
                QVERIFY2(s["e2e_mape"].toDouble() > 0, method);
                QVERIFY2(s["kernel_mape"].toDouble() > 0, method);
            }
        }
    }

    void badInputExitsWithTwo() {
        Devices devices;
        Run run = run_cleave({"evaluate-cross-device", "--data", devices.data[0], devices.data[1],
                              "--models", kModels});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("at least three measured devices"), run.err.constData());

        // Thread counts of one machine are left out together
        Devices same(true);
        run = run_cleave(QStringList{"evaluate-cross-device", "--data"} + same.data +
                         QStringList{"--models", kModels});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("leaving out machine Model name:"), run.err.constData());
        QVERIFY2(run.err.contains("leaves 0 devices of other machines"), run.err.constData());

        run = run_cleave({"evaluate-cross-device", "--data", "no-such-device=" + kSample,
                          "--models", kModels});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("no-such-device"), run.err.constData());

        const QString bad = written(devices.dir, "bad.json", "{\"format\": \"cleave-predictor\"}");
        run = run_cleave({"train", "--data", kSample, "--models", kModels, "--device",
                          "xeon-ort-1t", "--kind", "cross-device", "--cross-device-base", bad,
                          "--out", devices.dir.filePath("p.json")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("bad.json") && run.err.contains("/format"), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(CrossDeviceCommandTest)
#include "cross_device_command_test.moc"
