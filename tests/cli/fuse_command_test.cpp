// `cleave fuse` and `cleave fuse-eval` end to end, against ONNX Runtime's measured fusion of
// five CNNs (tests/data/ort-cpu-xeon-sample.json).
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
                 "cleave: " + file.fileName() + ": /runs/0/input_shape/2: expected a whole number");
    }
};

QTEST_GUILESS_MAIN(FuseCommandTest)
#include "fuse_command_test.moc"
