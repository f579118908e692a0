// `cleave fuse`, `cleave fuse-eval` and `cleave fuse-train` end to end, against ONNX Runtime's
// measured fusion of five CNNs (tests/data/ort-cpu-xeon-sample.json).
#include "cli_run.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

const QString kSample = QString(CLEAVE_TEST_DATA_DIR) + "/ort-cpu-xeon-sample.json";

} // namespace

class FuseCommandTest : public QObject {
    Q_OBJECT

private slots:
    void fuseListsKernelsInOrder() {
        const Run run =
            run_cleave({"fuse", QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        const QJsonArray kernels = root["kernels"].toArray();
        QCOMPARE(kernels.size(), 40);
        const QJsonObject first = kernels[0].toObject();
        QCOMPARE(first["type"].toString(), QString("FusedConv"));
        QCOMPARE(first["nodes"].toArray(),
                 (QJsonArray{"/conv1/Conv", "/bn1/BatchNormalization", "/relu/Relu"}));
        for (const char* key : {"name", "macs", "flops", "bytes_in", "bytes_out", "weight_bytes"})
            QVERIFY2(first.contains(key), key);
        QCOMPARE(root["edges"].toArray().size(), 76);
    }

    void fuseEvalMatchesTheRuntimeOnCnns() {
        const Run run = run_cleave(
            {"fuse-eval", "--data", kSample, "--models", CLEAVE_EXAMPLE_MODELS_DIR, "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root["models"].toArray().size(), 5);
        const QJsonObject all = root["cnn_families"].toObject();
        QCOMPARE(all["accuracy"].toDouble(), 1.0);
        QCOMPARE(all["kernels_predicted"].toInt(), all["kernels_measured"].toInt());
        QVERIFY(all["edges"].toInt() > 1500);
    }

    void tfliteRulesDisagreeWithTheCpuRuntime() {
        const Run run = run_cleave({"fuse-eval", "--data", kSample, "--models",
                                    CLEAVE_EXAMPLE_MODELS_DIR, "--rules", "tflite-gpu", "--json"});
        QCOMPARE(run.exit_code, 0);
        const double accuracy = QJsonDocument::fromJson(run.out)
                                    .object()["cnn_families"]
                                    .toObject()["accuracy"]
                                    .toDouble();
        QVERIFY2(accuracy < 0.99, qPrintable(QString::number(accuracy)));
    }

    void gpuFamilyChoosesWinogradKernels() {
        const QString resnet = QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx";
        for (const auto& [family, winograd] : {std::pair{"mali", 7}, std::pair{"adreno6xx", 0}}) {
            const Run run = run_cleave(
                {"fuse", resnet, "--rules", "tflite-gpu", "--gpu-family", family, "--json"});
            QCOMPARE(run.exit_code, 0);
            const QJsonObject root = QJsonDocument::fromJson(run.out).object();
            QCOMPARE(root["gpu_family"].toString(), QString(family));
            int count = 0;
            for (const auto& k : root["kernels"].toArray())
                count += k.toObject()["type"].toString() == "Winograd";
            QCOMPARE(count, winograd);
        }
    }

    void unknownGpuFamilyExitsTwo() {
        const Run run = run_cleave({"fuse", QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx",
                                    "--rules", "tflite-gpu", "--gpu-family", "adreno7"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.err.contains("--gpu-family: adreno7: no such GPU family; expected one of"));
    }

    void fuseTrainWritesAModelThatFuseReads() {
        QTemporaryDir dir;
        const QString model = dir.filePath("ort.fusion.json");
        const Run train =
            run_cleave({"fuse-train", "--data", kSample, "--models", CLEAVE_EXAMPLE_MODELS_DIR,
                        "--out", model, "--epochs", "150", "--hold-out", "resnet", "--json"});
        QCOMPARE(train.exit_code, 0);
        const QJsonObject summary = QJsonDocument::fromJson(train.out).object();
        QCOMPARE(summary["runs"].toInt(), 4);
        QVERIFY(summary["training_accuracy"].toDouble() > 0.98);
        QVERIFY(QFile::exists(model));

        const Run fuse =
            run_cleave({"fuse", QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/squeezenet1_1.onnx",
                        "--rules", "learned:" + model, "--json"});
        QCOMPARE(fuse.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(fuse.out).object();
        QCOMPARE(root["rules"].toString(), "learned:" + model);
        QVERIFY(!root["kernels"].toArray().isEmpty());

        const Run misspelt =
            run_cleave({"fuse-train", "--data", kSample, "--models", CLEAVE_EXAMPLE_MODELS_DIR,
                        "--out", dir.filePath("x.json"), "--hold-out", "resnets"});
        QCOMPARE(misspelt.exit_code, 2);
        QVERIFY2(misspelt.err.contains("--hold-out: no run of the family 'resnets' to hold out; "
                                       "the runs' families: "),
                 misspelt.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("x.json")));
    }

    void leaveFamilyOutScoresEveryFamily() {
        const Run run =
            run_cleave({"fuse-eval", "--data", kSample, "--models", CLEAVE_EXAMPLE_MODELS_DIR,
                        "--leave-family-out", "--epochs", "150", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root["rules"].toString(), QString("learned, leave-family-out"));
        const QJsonArray families = root["families"].toArray();
        QCOMPARE(families.size(), 5);
        for (const auto& f : families) {
            const auto family = f.toObject()["family"].toString();
            const double accuracy = f.toObject()["score"].toObject()["accuracy"].toDouble();
            // Four CNNs teach the classifier too little for some of the fifth (densenet's
            // pre-activation BN, mobilenet's Clip); squeezenet is learned from the others.
            if (family == "squeezenet")
                QCOMPARE(accuracy, 1.0);
            QVERIFY2(accuracy > 0.5 && accuracy <= 1.0, qPrintable(family));
        }
    }

    void missingLearnedModelExitsTwo() {
        const Run run = run_cleave({"fuse", QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx",
                                    "--rules", "learned:/nonexistent/model.json"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("/nonexistent/model.json"), run.err.constData());
    }

    void unknownRuleSetExitsTwo() {
        const Run run = run_cleave(
            {"fuse", QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx", "--rules", "nope"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.err.contains("no such rule set"));
    }

    void badDatasetNamesThePointer() {
        QTemporaryDir dir;
        QFile file(dir.filePath("bad.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            R"({"runs": [{"model": "resnet18", "input_shape": [1, 3, "224", 224], "e2e_ms": []}]})");
        file.close();
        const Run run = run_cleave(
            {"fuse-eval", "--data", file.fileName(), "--models", CLEAVE_EXAMPLE_MODELS_DIR});
        QCOMPARE(run.exit_code, 2);
        QCOMPARE(QString(run.err).trimmed(),
                 "cleave: " + file.fileName() + ": /runs/0/input_shape/2: expected a whole number >= 0, found string");
    }
};

QTEST_GUILESS_MAIN(FuseCommandTest)
#include "fuse_command_test.moc"
