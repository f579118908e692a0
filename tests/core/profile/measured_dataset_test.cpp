// Measured datasets: a file Cleave writes reads back unchanged, a run of the same model, threads,
// input shape and dtype replaces the earlier one, and the shared ONNX Runtime file still reads.
#include "core/input_error.hpp"
#include "core/profile/measured_dataset.hpp"

#include <QTemporaryDir>
#include <QtTest>

namespace {

using cleave::profile::MeasuredDataset;
using cleave::profile::MeasuredRun;

MeasuredRun run_of(const std::string& model, std::int64_t size, double ms) {
    MeasuredRun run;
    run.model = model;
    run.threads = 1;
    run.dtype = "float32";
    run.input_shape = {1, 3, size, size};
    run.e2e_ms = {ms, ms + 0.5, ms - 0.25};
    run.cv = 0.03;
    run.kernels.push_back({"/conv1/Conv", "Convolution", "", {"/conv1/Conv", "/relu/Relu"}, 812.5});
    run.kernels.push_back({"/fc/Gemm", "InnerProduct", "", {"/fc/Gemm"}, std::nullopt});
    return run;
}

} // namespace

class MeasuredDatasetTest : public QObject {
    Q_OBJECT

private slots:
    void savedDatasetReadsBack() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.json").toStdString();
        MeasuredDataset data;
        data.runtime = "OpenCV 4.6.0 DNN, OpenCV backend, CPU target";
        data.device = "AMD EPYC, 2 logical CPUs";
        data.runs.push_back(run_of("resnet18", 64, 12.0));
        cleave::profile::save_measured_dataset(data, path);

        const auto back = cleave::profile::load_measured_dataset(path);
        QCOMPARE(back.runtime, data.runtime);
        QCOMPARE(back.device, data.device);
        QCOMPARE(back.runs.size(), std::size_t{1});
        const auto& run = back.runs[0];
        QCOMPARE(run.model, std::string("resnet18"));
        QCOMPARE(run.threads, 1);
        QCOMPARE(run.dtype, std::string("float32"));
        QCOMPARE(run.input_shape, (std::vector<std::int64_t>{1, 3, 64, 64}));
        QCOMPARE(run.e2e_ms, (std::vector<double>{12.0, 12.5, 11.75}));
        QCOMPARE(run.cv.value_or(-1), 0.03);
        QCOMPARE(run.kernels.size(), std::size_t{2});
        QCOMPARE(run.kernels[0].covers, (std::vector<std::string>{"/conv1/Conv", "/relu/Relu"}));
        QCOMPARE(run.kernels[0].us.value_or(-1), 812.5);
        QVERIFY(!run.kernels[1].us);
    }

    void runOfTheSameConfigurationIsReplaced() {
        MeasuredDataset data;
        cleave::profile::put_run(data, run_of("resnet18", 64, 12.0));
        cleave::profile::put_run(data, run_of("resnet18", 32, 4.0));
        cleave::profile::put_run(data, run_of("resnet18", 64, 11.0));
        QCOMPARE(data.runs.size(), std::size_t{2});
        QCOMPARE(data.runs[0].e2e_ms.front(), 11.0);
        QCOMPARE(data.runs[1].input_shape.back(), std::int64_t{32});
    }

    // A decoder's phases are runs of their own, and read back with the dims they bound.
    void decoderPhasesAreRunsOfTheirOwn() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.json").toStdString();
        MeasuredDataset data;
        auto decode = run_of("llama-3.2-1b", 64, 20.0);
        decode.dims = cleave::graph::parse_dim_bindings_text("decode=256");
        auto prefill = run_of("llama-3.2-1b", 64, 90.0);
        prefill.dims = cleave::graph::parse_dim_bindings_text("prefill=128 batch=2");
        cleave::profile::put_run(data, decode);
        cleave::profile::put_run(data, prefill);
        cleave::profile::put_run(data, run_of("llama-3.2-1b", 64, 5.0)); // nothing bound
        QCOMPARE(data.runs.size(), std::size_t{3});
        cleave::profile::save_measured_dataset(data, path);
        const auto back = cleave::profile::load_measured_dataset(path);
        QCOMPARE(back.runs.size(), std::size_t{3});
        QCOMPARE(back.runs[0].dims, decode.dims);
        QCOMPARE(back.runs[1].dims, prefill.dims);
        QVERIFY(back.runs[2].dims.empty());
        QCOMPARE(cleave::graph::dim_bindings_text(back.runs[1].dims),
                 std::string("batch=2 prefill=128"));
    }

    void dimsThatDoNotParseAreRefusedWhereTheyAre() {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"runs": [{"model": "m", "input_shape": [1], "dims": "decode=soon",
                        "e2e_ms": [1]}]})");
        file.close();
        try {
            cleave::profile::load_measured_dataset(path.toStdString());
            QFAIL("expected an InputError");
        } catch (const cleave::InputError& e) {
            QCOMPARE(e.place(), std::string("/runs/0/dims"));
            QVERIFY(e.problem().find("decode=soon") != std::string::npos);
        }
    }

    void languageModelsAreTransformerFamilies() {
        using cleave::profile::is_transformer_family;
        using cleave::profile::model_family;
        QCOMPARE(model_family("llama-3.2-1b"), std::string("llama"));
        QCOMPARE(model_family("qwen2.5-0.5b"), std::string("qwen"));
        QCOMPARE(model_family("phi-3-mini-4k-instruct"), std::string("phi"));
        QCOMPARE(model_family("smollm2-135m"), std::string("smollm"));
        QCOMPARE(model_family("mobilenet_v3_small"), std::string("mobilenet"));
        for (const char* family : {"llama", "qwen", "phi", "smollm", "gemma", "mistral"})
            QVERIFY(is_transformer_family(family));
        QVERIFY(!is_transformer_family("resnet"));
    }

    void onnxRuntimeFileStillReads() {
        const auto data = cleave::profile::load_measured_dataset(CLEAVE_TEST_DATA_DIR
                                                                 "/ort-cpu-xeon-sample.json");
        QCOMPARE(data.runtime, std::string("ONNX Runtime 1.30.0"));
        QCOMPARE(data.runs.size(), std::size_t{5});
        QVERIFY(!data.runs[0].cv);
    }

    // ONNX Runtime names no node for a kernel it adds (HardSwish runs as HardSigmoid + Mul) and
    // gives standard ops the empty domain: such kernels read as they are.
    void kernelWithoutANameReads() {
        QTemporaryDir dir;
        const QString path = dir.filePath("hardswish.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"runs": [{"model": "m", "input_shape": [1], "e2e_ms": [1], "kernels": [
            {"name": "", "op": "HardSigmoid", "domain": "", "covers": [], "us": null},
            {"name": "/act/HardSwish", "op": "Mul", "domain": "", "covers": [], "us": 3.5}]}]})");
        file.close();
        const auto data = cleave::profile::load_measured_dataset(path.toStdString());
        QCOMPARE(data.runs.front().kernels.size(), std::size_t{2});
        QCOMPARE(data.runs.front().kernels.front().name, std::string());
        QCOMPARE(data.runs.front().kernels.front().op, std::string("HardSigmoid"));
        QVERIFY(!data.runs.front().kernels.front().us);
        QCOMPARE(*data.runs.front().kernels.back().us, 3.5);
    }

    void cvThatIsNotANumberIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"runs": [{"model": "m", "input_shape": [1], "e2e_ms": [1], "cv": "low"}]})");
        file.close();
        try {
            cleave::profile::load_measured_dataset(path.toStdString());
            QFAIL("expected an InputError");
        } catch (const cleave::InputError& e) {
            QCOMPARE(e.place(), std::string("/runs/0/cv"));
        }
    }
};

QTEST_GUILESS_MAIN(MeasuredDatasetTest)
#include "measured_dataset_test.moc"
