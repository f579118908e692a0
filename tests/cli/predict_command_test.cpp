// `cleave train`, `cleave evaluate` and `cleave predict` end to end on the measured sample
// (tests/data/ort-cpu-xeon-sample.json), and their errors: another device's predictor, an
// unknown device, a data file in another format.
#include "cli_run.hpp"
#include "tests/core/graph/tiny_decoder.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

const QString kSample = QString(CLEAVE_TEST_DATA_DIR) + "/ort-cpu-xeon-sample.json";
const QString kModels = CLEAVE_EXAMPLE_MODELS_DIR;
const QString kResnet18 = kModels + "/resnet18.onnx";

} // namespace

class PredictCommandTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString predictor_;

private slots:
    void initTestCase() {
        predictor_ = dir_.filePath("xeon-1t.json");
        const Run run =
            run_cleave({"train", "--data", kSample, "--models", kModels, "--device", "xeon-ort-1t",
                        "--hold-out", "squeezenet", "--out", predictor_, "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root["kind"].toString(), QString("lasso"));
        QCOMPARE(root["runs"].toInt(), 4);
        QVERIFY(root["classes"].toObject().contains("*"));
        QVERIFY(QFile::exists(predictor_));
    }

    void evaluateScoresKernelsAndEndToEnd() {
        const Run run = run_cleave({"evaluate", "--data", kSample, "--models", kModels,
                                    "--predictor", predictor_, "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject device =
            QJsonDocument::fromJson(run.out).object()["devices"].toArray()[0].toObject();
        QCOMPARE(device["device"].toString(), QString("xeon-ort-1t"));
        QCOMPARE(device["families"].toArray().size(), 5);
        const QJsonObject e2e = device["end_to_end"].toObject();
        QCOMPARE(e2e["count"].toInt(), 5);
        for (const char* key : {"mape", "rmspe", "within_5", "within_10", "within_15"})
            QVERIFY2(e2e.contains(key), key);
        QVERIFY(e2e["mape"].toDouble() > 0 && e2e["mape"].toDouble() < 0.5);
        QVERIFY(device["kernels"].toObject()["count"].toInt() > 600);
        QCOMPARE(device["runs"].toArray().size(), 5);
    }

    void consistencyReportsTheFloorOfTheRuns() {
        const Run run = run_cleave(
            {"evaluate", "--data", kSample, "--models", kModels, "--consistency", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        const QJsonObject device = root["devices"].toArray()[0].toObject();
        QCOMPARE(device["device"].toString(), QString("1 thread"));
        QCOMPARE(device["runs"].toInt(), 5);
        QVERIFY(device["timed_kernels"].toInt() > 600);
        QVERIFY(device["distinct_kernels"].toInt() < device["timed_kernels"].toInt());
        const double floor = device["oracle_mape"].toDouble();
        QVERIFY(floor >= 0 && floor < 0.5);
        QCOMPARE(device["per_run"].toArray().size(), 5);
        QVERIFY(run_cleave({"evaluate", "--data", kSample, "--models", kModels, "--consistency",
                            "--predictor", predictor_})
                    .exit_code == 2);
    }

    void predictGivesKernelsAndTotal() {
        const Run run = run_cleave(
            {"predict", kResnet18, "--device", "xeon-ort-1t", "--predictor", predictor_, "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        const QJsonArray kernels = root["kernels"].toArray();
        QCOMPARE(kernels.size(), 40);
        double sum = 0;
        for (const auto& k : kernels) {
            const QJsonObject kernel = k.toObject();
            QVERIFY(kernel["latency_ms"].toDouble() > 0);
            QVERIFY(kernel.contains("energy_mj"));
            QVERIFY(kernel["source"].toString().startsWith("lasso:"));
            sum += kernel["latency_ms"].toDouble();
        }
        QVERIFY(std::abs(sum - root["kernels_ms"].toDouble()) < 1e-9);
        QVERIFY(std::abs(root["total_ms"].toDouble() -
                         (root["kernels_ms"].toDouble() + root["overhead_ms"].toDouble())) < 1e-9);
        // resnet18 at 1 thread measured 56 ms end to end on that Xeon.
        QVERIFY(root["total_ms"].toDouble() > 25 && root["total_ms"].toDouble() < 110);
    }

    void rooflineWhenNoPredictorIsGiven() {
        const Run run = run_cleave({"predict", kResnet18, "--device", "nvidia-t4", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QVERIFY(root["predictor"].toString().contains("uncalibrated"));
        QCOMPARE(root["rules"].toString(), QString("tensorrt-like"));
        QVERIFY(root["total_ms"].toDouble() > 0);
    }

    void aCpuRunsAtTheThreadsGiven() {
        // intel-nuc: 4 cores; at 1 thread a quarter of its peak: resnet18's compute-bound
        // convolutions take 4 times as long, its kernels bound by memory as long as before
        const auto total = [](const QStringList& more) {
            const Run run = run_cleave(
                QStringList{"predict", kResnet18, "--device", "intel-nuc", "--json"} + more);
            const QJsonObject root = QJsonDocument::fromJson(run.out).object();
            return std::make_pair(root["total_ms"].toDouble(), root["threads"]);
        };
        const auto all = total({});
        const auto one = total({"--threads", "1"});
        QVERIFY(all.second.isNull());
        QCOMPARE(one.second.toInt(), 1);
        QVERIFY2(one.first > 1.5 * all.first && one.first < 4.0001 * all.first,
                 qPrintable(QString::number(one.first / all.first)));
        for (const auto& [device, threads, says] :
             std::vector<std::tuple<QString, QString, QString>>{
                 {"intel-nuc", "5", "--threads: a thread count from 1 to 4"},
                 {"intel-nuc", "0", "--threads"},
                 {"nvidia-t4", "1",
                  "--threads: a thread count for a CPU; device nvidia-t4 has no "
                  "CPU PE"},
                 {"xeon-ort-4t", "2",
                  "--threads: 4 threads: device xeon-ort-4t is measured at "
                  "that count only, found 2"}}) {
            const Run run =
                run_cleave({"predict", kResnet18, "--device", device, "--threads", threads});
            QCOMPARE(run.exit_code, 2);
            QVERIFY2(run.err.contains(says.toUtf8()), run.err.constData());
        }
    }

    // The 2-layer decoder of tiny_decoder.hpp: its KV cache is 2 layers x key and value of
    // [1, 2 heads, context, 4] float32.
    void aDecoderIsCostedAtItsPhase() {
        const QString decoder = dir_.filePath("decoder.onnx");
        std::ofstream(decoder.toStdString(), std::ios::binary)
            << cleave::test::TinyDecoder::build().SerializeAsString();
        const Run decode = run_cleave({"predict", decoder, "--decode", "1024", "--batch", "1",
                                       "--device", "nvidia-t4", "--json"});
        QCOMPARE(decode.exit_code, 0);
        const QJsonObject step = QJsonDocument::fromJson(decode.out).object();
        QCOMPARE(step["phase"].toString(), QString("decode"));
        QCOMPARE(step["tokens"].toInteger(), 1);
        QCOMPARE(step["context"].toInteger(), 1025);
        QCOMPARE(step["kv_cache_bytes"].toInteger(), 2 * 2 * 2 * 1025 * 4 * 4);
        QCOMPARE(step["weights_bytes"].toInteger(), 1024 * 4 + 9 * 8);
        QVERIFY(step["total_ms"].toDouble() > 0);
        QCOMPARE(step["tokens_per_s"].toDouble(), 1000.0 / step["total_ms"].toDouble());

        const Run prefill = run_cleave(
            {"predict", decoder, "--prefill", "512", "--batch", "1", "--device", "nvidia-t4"});
        QCOMPARE(prefill.exit_code, 0);
        QVERIFY2(prefill.out.contains("\nprefill of 512 tokens at context 512 (batch 1): weights "
                                      "0.0 MB, KV cache 0.1 MB\n"),
                 prefill.out.constData());
    }

    void shippedH100PredictorCostsEveryKernel() {
        const Run run = run_cleave(
            {"predict", kModels + "/resnet50.onnx", "--device", "h100-cudnn-fp16", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QVERIFY2(root["predictor"].toString().endsWith("h100-cudnn-fp16.json.xz"),
                 run.out.constData());
        QCOMPARE(root["rules"].toString(), QString("pytorch-eager"));
        const QJsonArray kernels = root["kernels"].toArray();
        QCOMPARE(kernels.size(), 175);
        for (const auto& k : kernels) {
            QVERIFY(k.toObject()["latency_ms"].toDouble() > 0);
            QVERIFY(k.toObject()["source"].toString().startsWith("launch-bound:"));
        }
        // Measured: 4.19-9.93 ms over its input sizes, 8.64 ms at 224x224.
        QVERIFY(root["total_ms"].toDouble() > 4.19 && root["total_ms"].toDouble() < 9.93);
    }

    void endToEndTimesAloneTrainAndEvaluateLaunchBound() {
        // The sample's runs without their kernels and marked float16: what the H100 data gives.
        QFile in(kSample);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject data = QJsonDocument::fromJson(in.readAll()).object();
        QJsonArray runs;
        for (const auto& r : data["runs"].toArray()) {
            QJsonObject run = r.toObject();
            run.remove("kernels");
            run["dtype"] = "float16";
            runs.append(run);
        }
        data["runs"] = runs;
        const QString totals = dir_.filePath("totals.json");
        QFile out(totals);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(data).toJson());
        out.close();

        Run run =
            run_cleave({"train", "--data", totals, "--models", kModels, "--device", "xeon-ort-1t",
                        "--kind", "launch-bound", "--out", dir_.filePath("totals-predictor.json")});
        QCOMPARE(run.exit_code, 0);
        QVERIFY2(run.out.contains("on end-to-end times alone"), run.out.constData());
        run = run_cleave({"train", "--data", totals, "--models", kModels, "--device", "xeon-ort-1t",
                          "--out", dir_.filePath("lasso.json")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("train --kind launch-bound"), run.err.constData());

        run = run_cleave({"evaluate", "--data", totals, "--models", kModels, "--leave-family-out",
                          "--kind", "launch-bound", "--by-family", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject device =
            QJsonDocument::fromJson(run.out).object()["devices"].toArray()[0].toObject();
        QCOMPARE(device["device"].toString(), QString("1 thread, float16"));
        QCOMPARE(device["families"].toArray().size(), 5);
        QCOMPARE(device["end_to_end"].toObject()["count"].toInt(), 5);
    }

    // Predictors that once crashed the command (tests/data/regressions): two with a tree array
    // cut short, which XGBoost's loader read past, and one with a number no double holds.
    void formerCrashesExitTwoNamingTheFile_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("says");
        const QString tree = "/classes/*/model/xgboost/learner/gradient_booster/model/trees/";
        QTest::newRow("14") << "predictor-mutation-14.json.xz"
                            << tree + "32/split_type: expected 119 entries";
        QTest::newRow("87") << "predictor-mutation-87.json.xz"
                            << tree + "21/split_type: expected 125 entries";
        QTest::newRow("233") << "predictor-mutation-233.json.xz"
                             << "byte 1502394: the number 31e998 is too large for a double";
    }
    void formerCrashesExitTwoNamingTheFile() {
        QFETCH(QString, file);
        QFETCH(QString, says);
        const QString regressions = QString(CLEAVE_TEST_DATA_DIR) + "/regressions/";
        const Run run =
            run_cleave({"predict", kResnet18, "--device", regressions + "bar-box-2t.json",
                        "--predictor", regressions + file});
        QCOMPARE(run.exit_code, 2);
        // Without XGBoost the gbdt predictors are refused for their kind.
        const QString start = "cleave: " + regressions + file + ": ";
        const bool read = CLEAVE_HAVE_XGBOOST_REGRESSOR || file.contains("233");
        QVERIFY2(run.err.startsWith((start + (read ? says : QString())).toUtf8()),
                 run.err.constData());
    }

    void errorsNameWhatIsWrong() {
        Run run = run_cleave(
            {"predict", kResnet18, "--device", "xeon-ort-4t", "--predictor", predictor_});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.err.contains("/device: the predictor is for device 'xeon-ort-1t'"));
        run = run_cleave({"predict", kResnet18, "--device", "no-such-board"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.err.contains("no-such-board"));
        run = run_cleave(
            {"evaluate", "--data", predictor_, "--models", kModels, "--predictor", predictor_});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains(predictor_.toUtf8()) && run.err.contains("expected"),
                 run.err.constData());
        run = run_cleave({"train", "--data", kSample, "--models", kModels, "--device",
                          "xeon-ort-1t", "--kind", "forest", "--out", dir_.filePath("x.json")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.err.contains("--kind: no regressor plugin named 'forest'"));
        QVERIFY(!QFile::exists(dir_.filePath("x.json")));
        // A misspelt family would hold nothing out: refused, with the runs' families listed.
        run =
            run_cleave({"train", "--data", kSample, "--models", kModels, "--device", "xeon-ort-1t",
                        "--hold-out", "squeezenets", "--out", dir_.filePath("x.json")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--hold-out: no run of the family 'squeezenets' to hold out; "
                                  "the runs' families: "),
                 run.err.constData());
        QVERIFY(run.err.contains("squeezenet"));
        QVERIFY(!QFile::exists(dir_.filePath("x.json")));
    }
};

QTEST_GUILESS_MAIN(PredictCommandTest)
#include "predict_command_test.moc"
