// `cleave profile --backend ort` end to end: real inference through ONNX Runtime 1.30
// (onnxruntime-node, the ort profiler plugin), whose kernels and covers, load-time constants
// included, must be those the shared Xeon measurements recorded with the same runtime
// (tests/data/ort-cpu-xeon-sample.json).
#include "../core/graph/onnx_builder.hpp"
#include "cli_run.hpp"
#include "core/profile/measured_dataset.hpp"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <map>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

const QString kModels = CLEAVE_EXAMPLE_MODELS_DIR;

Run profile(const QString& model_file, const QString& out, const QStringList& more = {}) {
    return run_cleave(QStringList{"profile", model_file, "--backend", "ort", "--warmup", "1",
                                  "--repeats", "3", "--max-rounds", "1", "--out", out} +
                      more);
}

std::vector<std::string> sorted(std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

class OrtProfileCommandTest : public QObject {
    Q_OBJECT

private slots:
    void init() {
        if (!CLEAVE_HAVE_ORT_PROFILER)
            QSKIP("built without Node.js and onnxruntime-node: no ort plugin");
    }

    void kernelsAreTheSharedXeonRunsKernels_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("mobilenet_v2") << "mobilenet_v2";
        QTest::newRow("efficientnet_b0") << "efficientnet_b0";
        QTest::newRow("densenet121") << "densenet121";
    }

    void kernelsAreTheSharedXeonRunsKernels() {
        QFETCH(QString, model);
        QTemporaryDir dir;
        const QString out = dir.filePath("ort.json");
        const Run run = profile(kModels + "/" + model + ".onnx", out, {"--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        // The runtime, where its onnxruntime-node is (the build folder's here), the threads.
        QVERIFY2(run.err.contains("ort: ONNX Runtime 1.30.0 (" CLEAVE_ORT_NODE_DIR_EXPECTED
                                  "), 1 thread"),
                 run.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        QVERIFY(summary["median_ms"].toDouble() > 0);

        const auto here = cleave::profile::load_measured_dataset(out.toStdString());
        QVERIFY(here.runtime.starts_with("ONNX Runtime 1.30.0 (CPUExecutionProvider)"));
        QCOMPARE(here.runs.size(), std::size_t{1});
        QCOMPARE(here.runs[0].e2e_ms.size(), std::size_t{3});
        const auto shared = cleave::profile::load_measured_dataset(
            std::string(CLEAVE_TEST_DATA_DIR) + "/ort-cpu-xeon-sample.json");
        const auto xeon = std::find_if(shared.runs.begin(), shared.runs.end(), [&](const auto& r) {
            return r.model == model.toStdString();
        });
        QVERIFY(xeon != shared.runs.end());
        const auto& mine = here.runs[0].kernels;
        QCOMPARE(mine.size(), xeon->kernels.size());
        for (std::size_t k = 0; k < mine.size(); ++k) {
            const auto& theirs = xeon->kernels[k];
            QCOMPARE(mine[k].op, theirs.op);
            QCOMPARE(sorted(mine[k].covers), sorted(theirs.covers));
            QVERIFY(mine[k].us.value_or(0) > 0);
        }
    }

    void aCompressedModelIsMeasuredFromACopyThatGoesAfterwards() {
        QTemporaryDir dir;
        QTemporaryDir scratch; // the system's temporary folder for this run (Node.js logs there)
        const QString out = dir.filePath("ort.json");
        qputenv("TMPDIR", scratch.path().toUtf8());
        const Run run =
            profile(QString(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR) + "/squeezenet1_1.onnx.xz", out);
        qunsetenv("TMPDIR");
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const auto data = cleave::profile::load_measured_dataset(out.toStdString());
        QCOMPARE(data.runs.size(), std::size_t{1});
        QCOMPARE(data.runs[0].model, std::string("squeezenet1_1"));
        QVERIFY(!data.runs[0].kernels.empty());
        QCOMPARE(QDir(scratch.path()).entryList({"cleave-*"}, QDir::AllEntries), QStringList{});
    }

    // A decoder step warms up until its outputs have totalled 128 MB (past the first collections
    // of the outputs' copies, which until then fault in fresh memory), far more runs than the one
    // asked for; a CNN warms up as asked.
    void aDecoderWarmsUpUntilItsOutputsCame128Megabytes() {
        QTemporaryDir dir;
        const Run generated =
            run_cleave({"generate-models", "--space", "decoder", "--count", "1", "--seed", "4",
                        "--out", dir.filePath("decoders"), "--json"});
        QVERIFY2(generated.exit_code == 0, generated.err.constData());
        const QString model = dir.filePath(
            "decoders/" +
            QJsonDocument::fromJson(generated.out)["models"][0].toObject()["file"].toString());
        const Run step = profile(model, dir.filePath("d.json"), {"--decode", "64"});
        QVERIFY2(step.exit_code == 0, step.err.constData());
        const QRegularExpression warmed("warmed up with (\\d+) runs");
        const auto match = warmed.match(QString::fromUtf8(step.err));
        QVERIFY2(match.hasMatch(), step.err.constData());
        QVERIFY2(match.captured(1).toInt() > 10, step.err.constData());

        const Run cnn =
            profile(QString(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR) + "/squeezenet1_1.onnx.xz",
                    dir.filePath("c.json"));
        QVERIFY2(cnn.exit_code == 0, cnn.err.constData());
        QVERIFY2(!cnn.err.contains("warmed up with"), cnn.err.constData());
    }

    void equalConstantsAreListedAsTheSharedDataListsThem() {
        // Two Reshapes with equal constant targets: ONNX Runtime keeps one of the two tensors and
        // points both Reshapes at it. The one it keeps is read by two kernels (in none); the one
        // it drops goes with the kernel of the node that read it.
        QTemporaryDir dir;
        cleave::test::OnnxBuilder b;
        b.input("x", {1, 4, 2, 2});
        const auto constant = [&](const std::string& name) {
            auto& node = b.node("Constant", {}, {name + "_output"}, name);
            auto* value = node.add_attribute();
            value->set_name("value");
            value->set_type(onnx::AttributeProto::TENSOR);
            value->mutable_t()->set_data_type(onnx::TensorProto::INT64);
            value->mutable_t()->add_dims(2);
            value->mutable_t()->add_int64_data(1);
            value->mutable_t()->add_int64_data(-1);
        };
        constant("first_shape");
        b.node("Reshape", {"x", "first_shape_output"}, {"r1"}, "first_reshape");
        b.node("Relu", {"r1"}, {"y1"}, "relu");
        constant("second_shape");
        b.node("Reshape", {"y1", "second_shape_output"}, {"r2"}, "second_reshape");
        b.node("Sigmoid", {"r2"}, {"y"}, "sigmoid");
        b.output("y");
        const QString model = dir.filePath("equal_constants.onnx");
        b.save(model.toStdString());
        const QString out = dir.filePath("ort.json");
        const Run run = profile(model, out);
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const auto data = cleave::profile::load_measured_dataset(out.toStdString());
        std::map<std::string, std::string> kernel_of;
        for (const auto& kernel : data.runs[0].kernels)
            for (const auto& node : kernel.covers)
                kernel_of[node] = kernel.name;
        QCOMPARE(kernel_of.count("first_shape") + kernel_of.count("second_shape"), std::size_t{1});
        const std::string dropped = kernel_of.count("first_shape") ? "first" : "second";
        QCOMPARE(kernel_of[dropped + "_shape"], kernel_of[dropped + "_reshape"]);
    }

    void runtimeThatRefusesTheModelExitsTwo() {
        // Valid ONNX that ONNX Runtime's CPU provider has no kernel for: a Conv on doubles.
        QTemporaryDir dir;
        cleave::test::OnnxBuilder b;
        b.input("x", {1, 1, 4, 4});
        cleave::test::OnnxBuilder::set_int(b.node("Cast", {"x"}, {"xd"}, "/cast/Cast"), "to",
                                           onnx::TensorProto::DOUBLE);
        b.initializer("w", {1, 1, 3, 3}, onnx::TensorProto::DOUBLE, 8);
        b.node("Conv", {"xd", "w"}, {"y"}, "/conv/Conv");
        b.output("y", onnx::TensorProto::DOUBLE);
        const QString model = dir.filePath("double_conv.onnx");
        b.save(model.toStdString());
        const Run run = profile(model, dir.filePath("x.json"));
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(
            run.err.startsWith(("cleave: " + model + ": ONNX Runtime cannot load it").toUtf8()),
            run.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("x.json")));
    }

    void missingOnnxRuntimeIsNamed() {
        QTemporaryDir dir;
        qputenv("CLEAVE_ORT_NODE_DIR", dir.path().toUtf8());
        const Run run = profile(kModels + "/squeezenet1_1.onnx", dir.filePath("x.json"));
        qunsetenv("CLEAVE_ORT_NODE_DIR");
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("onnxruntime-node is not installed there"), run.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("x.json")));
    }
};

QTEST_GUILESS_MAIN(OrtProfileCommandTest)
#include "ort_profile_command_test.moc"
