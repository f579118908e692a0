// `cleave profile --backend opencv` end to end: real inference through the OpenCV DNN plugin,
// written in the shared dataset format, with covers that partition the model's run-time nodes.
#include "../core/graph/onnx_builder.hpp"
#include "cli_run.hpp"
#include "core/fusion/rule_engine.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/profile/measured_dataset.hpp"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

const QString kModels = CLEAVE_EXAMPLE_MODELS_DIR;

Run profile(const QString& model, const QString& shape, const QString& out,
            const QStringList& more = {}) {
    return run_cleave(QStringList{"profile", kModels + "/" + model + ".onnx", "--backend", "opencv",
                                  "--input-shape", "input=" + shape, "--warmup", "1", "--repeats",
                                  "3", "--max-rounds", "2", "--out", out} +
                      more);
}

// Every node the runtime runs is in exactly one kernel's covers; nothing else is.
QString partition_problem(const cleave::graph::Model& model,
                          const cleave::profile::MeasuredRun& run) {
    std::map<std::string, int> seen;
    for (const auto& kernel : run.kernels)
        for (const auto& node : kernel.covers)
            ++seen[node];
    const auto constant = cleave::fusion::load_time_constants(model);
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
        const auto& name = model.nodes[n].name;
        const int count = seen.count(name) ? seen[name] : 0;
        if (count != (constant[n] ? 0 : 1))
            return QString("%1 is in %2 kernels").arg(QString::fromStdString(name)).arg(count);
        seen.erase(name);
    }
    return seen.empty() ? QString()
                        : "covers name " + QString::fromStdString(seen.begin()->first) +
                              ", not a node of the model";
}

cleave::graph::Model load_at(const QString& model, std::int64_t size) {
    cleave::graph::LoadOptions options;
    options.input_shapes["input"] = {1, 3, size, size};
    return cleave::graph::load_model((kModels + "/" + model + ".onnx").toStdString(), options);
}

} // namespace

class ProfileCommandTest : public QObject {
    Q_OBJECT

private slots:
    void init() {
        if (!CLEAVE_HAVE_OPENCV_PROFILER)
            QSKIP("built without OpenCV's DNN module (libopencv-dnn-dev): no opencv plugin");
    }

    void squeezeNetRunCoversEveryNodeOnce() {
        QTemporaryDir dir;
        const QString out = dir.filePath("opencv.json");
        const Run run = profile("squeezenet1_1", "1x3x64x64", out, {"--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(summary["runs_in_file"].toInt(), 1);
        QVERIFY(summary["median_ms"].toDouble() > 0);
        QVERIFY(run.err.contains("opencv: round 1: 3 runs"));

        const auto data = cleave::profile::load_measured_dataset(out.toStdString());
        QVERIFY(data.runtime.starts_with("OpenCV 4."));
        QVERIFY(!data.device.empty());
        QCOMPARE(data.runs.size(), std::size_t{1});
        const auto& measured = data.runs[0];
        QCOMPARE(measured.model, std::string("squeezenet1_1"));
        QCOMPARE(measured.threads, 1);
        QCOMPARE(measured.input_shape, (std::vector<std::int64_t>{1, 3, 64, 64}));
        QCOMPARE(measured.e2e_ms.size(), std::size_t{3});
        for (const double ms : measured.e2e_ms)
            QVERIFY(ms > 0);
        QVERIFY(measured.cv);
        const QString problem = partition_problem(load_at("squeezenet1_1", 64), measured);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // OpenCV runs the first convolution with its ReLU as one layer.
        const auto& first = measured.kernels.front();
        QCOMPARE(first.op, std::string("Convolution"));
        QCOMPARE(first.covers, (std::vector<std::string>{"/features/features.0/Conv",
                                                         "/features/features.1/Relu"}));
        QVERIFY(first.us.value_or(0) > 0);
    }

    void sameConfigurationReplacesItsRun() {
        QTemporaryDir dir;
        const QString out = dir.filePath("opencv.json");
        QCOMPARE(profile("squeezenet1_1", "1x3x64x64", out).exit_code, 0);
        QCOMPARE(profile("squeezenet1_1", "1x3x32x32", out).exit_code, 0);
        QCOMPARE(profile("squeezenet1_1", "1x3x64x64", out).exit_code, 0);
        const auto data = cleave::profile::load_measured_dataset(out.toStdString());
        QCOMPARE(data.runs.size(), std::size_t{2});
        QCOMPARE(data.runs[1].input_shape.back(), std::int64_t{32});
    }

    void clipBoundsAreGivenToOpenCvAsAttributes() {
        QTemporaryDir dir;
        const QString out = dir.filePath("opencv.json");
        const Run run = profile("mobilenet_v2", "1x3x32x32", out);
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(run.err.contains("the bounds of 35 Clip nodes given as attributes"));
        const auto data = cleave::profile::load_measured_dataset(out.toStdString());
        const QString problem = partition_problem(load_at("mobilenet_v2", 32), data.runs[0]);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void aCompressedModelIsMeasuredFromACopyThatGoesAfterwards() {
        QTemporaryDir dir;
        QTemporaryDir scratch; // the system's temporary folder for this run
        const QString out = dir.filePath("opencv.json");
        qputenv("TMPDIR", scratch.path().toUtf8());
        const Run run = run_cleave(
            {"profile", QString(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR) + "/squeezenet1_1.onnx.xz",
             "--backend", "opencv", "--input-shape", "input=1x3x32x32", "--warmup", "1",
             "--repeats", "3", "--max-rounds", "1", "--out", out});
        qunsetenv("TMPDIR");
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const auto data = cleave::profile::load_measured_dataset(out.toStdString());
        QCOMPARE(data.runs.size(), std::size_t{1});
        QCOMPARE(data.runs[0].model, std::string("squeezenet1_1"));
        const QString problem = partition_problem(load_at("squeezenet1_1", 32), data.runs[0]);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(QDir(scratch.path()).entryList({"cleave-*"}, QDir::AllEntries), QStringList{});
    }

    void unknownBackendExitsTwo() {
        QTemporaryDir dir;
        const Run run = run_cleave({"profile", kModels + "/squeezenet1_1.onnx", "--backend",
                                    "onnxruntime", "--out", dir.filePath("x.json")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--backend: no profiler plugin named 'onnxruntime' "
                                  "(available: opencv"),
                 run.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("x.json")));
    }

    // Where --out cannot be written is found before any measuring, not after it.
    void anOutputFolderThatCannotBeWrittenExitsTwoBeforeMeasuring() {
        QTemporaryDir dir;
        const QString out = dir.filePath("missing/x.json");
        const Run run = profile("squeezenet1_1", "1x3x224x224", out);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(
            run.err.contains(("cleave: " + out + ": cannot create a file in this folder").toUtf8()),
            run.err.constData());
        QVERIFY2(!run.err.contains("round"), run.err.constData());
    }

    void fileThatIsNotAModelExitsTwo() {
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.onnx");
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a model");
        file.close();
        const Run run =
            run_cleave({"profile", bad, "--backend", "opencv", "--out", dir.filePath("x.json")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.startsWith(("cleave: " + bad).toUtf8()), run.err.constData());
    }

    void modelOpenCvRefusesExitsTwoNamingTheNode() {
        QTemporaryDir dir;
        cleave::test::OnnxBuilder b;
        b.input("x", {1, 8});
        b.initializer("gamma", {8});
        b.node("LayerNormalization", {"x", "gamma"}, {"y"}, "/norm/LayerNormalization");
        b.output("y");
        auto* shape =
            b.graph().mutable_output(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
        shape->add_dim()->set_dim_value(1);
        shape->add_dim()->set_dim_value(8);
        const QString model = dir.filePath("layer_norm.onnx");
        b.save(model.toStdString());
        const Run run =
            run_cleave({"profile", model, "--backend", "opencv", "--out", dir.filePath("x.json")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("node /norm/LayerNormalization (LayerNormalization): OpenCV 4."),
                 run.err.constData());
    }

    void datasetOfAnotherRuntimeIsLeftAlone() {
        QTemporaryDir dir;
        const QString out = dir.filePath("ort.json");
        const QByteArray ort = R"({"ort": "1.30.0", "cpu": "Intel Xeon", "runs": []})";
        QFile file(out);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(ort);
        file.close();
        const Run run = profile("squeezenet1_1", "1x3x32x32", out);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("holds runs of runtime 'ONNX Runtime 1.30.0'"),
                 run.err.constData());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), ort);
    }
};

QTEST_GUILESS_MAIN(ProfileCommandTest)
#include "profile_command_test.moc"
