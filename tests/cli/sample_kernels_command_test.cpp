// `cleave sample-kernels` on example models (the chosen kernels as JSON, a bad budget) and
// `cleave evaluate-sampling` on the measured sample (tests/data/ort-cpu-xeon-sample.json).
#include "cli_run.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QtTest>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

const QString kModels = CLEAVE_EXAMPLE_MODELS_DIR;
const QString kSample = QString(CLEAVE_TEST_DATA_DIR) + "/ort-cpu-xeon-sample.json";

} // namespace

class SampleKernelsCommandTest : public QObject {
    Q_OBJECT

private slots:
    void listsTheChosenKernelsAsJson() {
        const Run run =
            run_cleave({"sample-kernels", "--models", kModels + "/resnet18.onnx",
                        kModels + "/squeezenet1_1.onnx", "--budget", "6", "--seed", "3", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root["rules"].toString(), QString("ort-cpu"));
        QCOMPARE(root["models"].toInt(), 2);
        const QJsonArray kernels = root["kernels"].toArray();
        QCOMPARE(kernels.size(), 6);
        int covered = 0, previous = INT_MAX;
        QSet<QString> models;
        for (const auto& k : kernels) {
            const QJsonObject kernel = k.toObject();
            QVERIFY(!kernel["kernel"].toString().isEmpty());
            QVERIFY(!kernel["cost_class"].toString().isEmpty());
            const int size = kernel["cluster_size"].toInt();
            QVERIFY(size >= kernel["occurrences"].toInt() && size <= previous);
            previous = size;
            covered += size;
            models.insert(kernel["model"].toString());
        }
        QCOMPARE(covered, root["candidates"].toInt());
        QVERIFY(models.contains("resnet18") || models.contains("squeezenet1_1"));
    }

    void badBudgetExitsWithTwo() {
        const Run run =
            run_cleave({"sample-kernels", "--models", kModels + "/resnet18.onnx", "--budget", "0"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.err.contains("--budget"));
    }

    void evaluateSamplingScoresBothChoices() {
        const Run run = run_cleave({"evaluate-sampling", "--data", kSample, "--models", kModels,
                                    "--device", "xeon-ort-1t", "--kind", "lasso", "--budget", "20",
                                    "--seeds", "1", "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QVERIFY(root["distinct_kernels"].toInt() > 20);
        const QJsonObject row = root["budgets"].toArray()[0].toObject();
        QCOMPARE(row["budget"].toInt(), 20);
        for (const char* how : {"kmeans", "random"}) {
            const QJsonObject s = row[how].toObject();
            QVERIFY2(s["kernel_mape"].toDouble() > 0, how);
            QVERIFY2(s["e2e_mape"].toDouble() > 0, how);
        }
    }
};

QTEST_GUILESS_MAIN(SampleKernelsCommandTest)
#include "sample_kernels_command_test.moc"
