// The pool a calibration chooses from: the benchmark suite at batch 1, the simulation models of
// every space, decoder steps (prefills and decode steps of generated decoders) and the example
// models, each with its kernels and a nominal cost; example models
// shipped compressed are unpacked once where the calibration works.
#include "core/calibration/calibration_pool.hpp"
#include "core/input_error.hpp"
#include "core/modelgen/model_specs.hpp"
#include "core/profile/run_models.hpp"
#include "core/xz_codec.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <set>

using namespace cleave;

namespace {

const std::string kModels = CLEAVE_EXAMPLE_MODELS_DIR;

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

class CalibrationPoolTest : public QObject {
    Q_OBJECT

private slots:
    void thePoolHoldsEveryKindOfNetwork() {
        QTemporaryDir dir;
        const auto method = fusion::find_fusion_method("ort-cpu");
        calibration::PoolOptions o;
        o.work_folder = dir.path().toStdString();
        o.example_models = {kModels + "/squeezenet1_1.onnx"};
        o.simulation_models = 2;
        o.method = &method;
        const auto pool = calibration::build_pool(o);
        std::set<std::string> families;
        int examples = 0;
        for (const auto& n : pool) {
            families.insert(n.family);
            examples += n.example;
            QVERIFY(n.model);
            QVERIFY(!n.kernels.kernels.empty());
            QVERIFY2(n.nominal_ms > 0, n.name.c_str());
            QVERIFY(std::filesystem::exists(n.source));
            // Batch 1 only: a predictor serves batch-1 kernels.
            QCOMPARE(n.model->tensors[static_cast<std::size_t>(n.model->inputs[0])].shape->front(),
                     std::int64_t{1});
        }
        QCOMPARE(examples, 1);
        for (const auto& family :
             {"affinity", "scale", "mobilenet", "blocks", "nas9", "squeezenet"})
            QVERIFY2(families.count(family), family);
    }

    // Each decoder is written once, in a folder of its own, and pooled at 2 prefills and 4 decode
    // steps, each loaded at its phase: its token inputs and cache as the step binds them.
    void decodersArePooledStepByStep() {
        QTemporaryDir dir;
        const auto method = fusion::find_fusion_method("ort-cpu");
        calibration::PoolOptions o;
        o.work_folder = dir.path().toStdString();
        o.decoders = 2;
        o.method = &method;
        const auto steps = calibration::more_decoder_steps(o, 0, 2);
        QCOMPARE(steps.size(), std::size_t{12});
        std::set<std::string> names, labels;
        for (const auto& n : steps) {
            names.insert(n.name);
            labels.insert(calibration::pool_label(n));
            QVERIFY(!n.dims.empty());
            QVERIFY2(n.nominal_ms > 0, n.name.c_str());
            QCOMPARE(n.source,
                     std::filesystem::path(o.work_folder) / "models" / n.name / (n.name + ".onnx"));
            QVERIFY(std::filesystem::exists(n.source.string() + ".data"));
            // The family is the style the name starts with, held out together.
            QCOMPARE(n.name.substr(0, n.family.size()), n.family);
            QVERIFY(n.family == "llama" || n.family == "qwen" || n.family == "phi" ||
                    n.family == "gemma");
            const int ids = n.model->find_tensor("input_ids");
            QVERIFY(ids >= 0);
            const auto& shape = *n.model->tensors[static_cast<std::size_t>(ids)].shape;
            QCOMPARE(shape.back(), n.dims.prefill ? *n.dims.prefill : std::int64_t{1});
            QVERIFY(n.dims.prefill ? !n.dims.decode : n.dims.decode.has_value());
        }
        QCOMPARE(names.size(), std::size_t{2});
        QCOMPARE(labels.size(), std::size_t{12});
        QVERIFY(labels.begin()->find('@') != std::string::npos);

        // A measured step's model is found again where the pool wrote it, at its phase.
        profile::RunModels models(std::filesystem::path(o.work_folder) / "models", false);
        profile::MeasuredRun run;
        run.model = steps.back().name;
        run.dims = steps.back().dims;
        const auto* model = models.find(run);
        QVERIFY(model);
        QCOMPARE(model->tensors.size(), steps.back().model->tensors.size());

        // Growing the pool continues the sequence: no decoder is written twice.
        const auto more = calibration::more_decoder_steps(o, 2, 1);
        QCOMPARE(more.size(), std::size_t{6});
        QVERIFY(!names.contains(more.front().name));
    }

    void aPackedExampleIsUnpackedWhereTheCalibrationWorks() {
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        const std::string onnx = read(kModels + "/squeezenet1_1.onnx");
        std::ofstream(folder + "/squeezenet1_1.onnx.xz", std::ios::binary) << xz_compress(onnx);
        const auto method = fusion::find_fusion_method("ort-cpu");
        calibration::PoolOptions o;
        o.work_folder = folder + "/work";
        o.example_models = {folder + "/squeezenet1_1.onnx.xz"};
        o.simulation_models = 1;
        o.method = &method;
        const auto pool = calibration::build_pool(o);
        const auto& example = pool.back();
        QVERIFY(example.example);
        QCOMPARE(example.name, std::string("squeezenet1_1"));
        const auto file = calibration::measurable_file(example, folder + "/work/examples");
        QCOMPARE(file.string(), folder + "/work/examples/squeezenet1_1.onnx");
        QCOMPARE(read(file.string()), onnx);
    }

    void aDamagedPackedExampleNamesItsFile() {
        QTemporaryDir dir;
        const std::string file = dir.path().toStdString() + "/bad.onnx.xz";
        std::ofstream(file, std::ios::binary) << xz_compress("not a model").substr(0, 20);
        const auto method = fusion::find_fusion_method("ort-cpu");
        calibration::PoolOptions o;
        o.work_folder = dir.path().toStdString();
        o.example_models = {file};
        o.simulation_models = 1;
        o.method = &method;
        try {
            calibration::build_pool(o);
            QFAIL("a damaged model was pooled");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), file);
        }
    }
};

QTEST_GUILESS_MAIN(CalibrationPoolTest)
#include "calibration_pool_test.moc"
