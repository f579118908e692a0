// Latency predictors: the predictor file's round trip (a lasso trained on the measured sample,
// tests/data/ort-cpu-xeon-sample.json), an older file's input/output part and its errors, and the
// shipped predictors costing whole models. Each regressor, the training and the library have
// tests of their own (lasso_test, predictor_training_test, predictor_library_test, ...).
#include "../measured_sample.hpp"
#include "core/device/device_library.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/predict/launch_bound_training.hpp"
#include "core/predict/predictor_library.hpp"
#include "core/predict/predictor_training.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace cleave;
using namespace cleave::predict;

namespace {

const cleave::test::PreparedSample& sample() {
    return cleave::test::prepared_sample();
}

std::string message_of(const std::function<void()>& f) {
    return cleave::test::input_error_of(f);
}

// The lasso predictor of xeon-ort-1t trained on the sample, once: what the file tests save,
// change and read back.
const Predictor& sample_predictor() {
    static const Predictor p = [] {
        PredictorTrainingOptions options;
        options.device = "xeon-ort-1t";
        return train_predictor(sample().all(), options);
    }();
    return p;
}

void write(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString()) << text;
}

} // namespace

class PredictorTest : public QObject {
    Q_OBJECT

private slots:
    void predictorFileRoundTrips() {
        const auto& p = sample_predictor();
        QVERIFY(p.classes.count(kAllKernels));
        QVERIFY(p.classes.count("Conv/kxk"));
        QTemporaryDir dir;
        const auto path = dir.filePath("p.json").toStdString();
        save_predictor(p, path);
        const auto q = load_predictor(path);
        QCOMPARE(q.device, p.device);
        QCOMPARE(q.classes.size(), p.classes.size());
        const auto& model = sample().models[0];
        const auto kernels = fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
        const auto a = predict_model(p, model, kernels);
        const auto b = predict_model(q, model, kernels);
        QCOMPARE(a.kernels.size(), kernels.kernels.size());
        QVERIFY(a.total_ms > a.kernels_ms);
        QCOMPARE(b.total_ms, a.total_ms);
        for (std::size_t k = 0; k < a.kernels.size(); ++k) {
            QCOMPARE(b.kernels[k].us, a.kernels[k].us);
            QCOMPARE(b.kernels[k].model_class, a.kernels[k].model_class);
        }
    }

    void anOlderFilesInputOutputPartStillCounts() {
        const auto& p = sample_predictor();
        QTemporaryDir dir;
        const auto path = dir.filePath("older.json");
        auto doc = nlohmann::json::parse(predictor_json(p));
        doc.erase("overhead_kernel_time_share");
        doc.erase("overhead_per_output_mb_us");
        doc.erase("overhead_per_mapped_output_mb_us");
        doc["overhead_per_io_mb_us"] = 300.0;
        write(path, doc.dump());
        const auto q = load_predictor(path.toStdString());
        QCOMPARE(q.overhead_kernel_time_share, 0.0);
        QCOMPARE(q.overhead_per_output_mb_us, 0.0);
        QCOMPARE(q.overhead_per_mapped_output_mb_us, 0.0);
        QCOMPARE(q.overhead_per_io_mb_us, 300.0);
        const auto& model = sample().models[0];
        const auto kernels = fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
        const auto latency = predict_model(q, model, kernels);
        const auto io = graph_io_bytes(model);
        double launches = 0;
        for (const auto& k : kernels.kernels)
            launches += k.launches;
        QVERIFY(
            std::abs(latency.overhead_ms - (q.overhead_ms + (q.overhead_per_kernel_us * launches +
                                                             300 * (io.inputs + io.outputs) / 1e6) /
                                                                1000)) < 1e-9);
        QVERIFY(nlohmann::json::parse(predictor_json(q)).contains("overhead_per_io_mb_us"));
        QVERIFY(!nlohmann::json::parse(predictor_json(p)).contains("overhead_per_io_mb_us"));
    }

    void badPredictorFilesNameThePlace() {
        const auto& p = sample_predictor();
        QTemporaryDir dir;
        const auto good = dir.filePath("good.json");
        save_predictor(p, good.toStdString());
        std::ifstream in(good.toStdString());
        const auto doc = nlohmann::json::parse(in);
        const auto path = dir.filePath("bad.json");
        const auto load_with = [&](const std::function<void(nlohmann::json&)>& change) {
            auto d = doc;
            change(d);
            write(path, d.dump());
            return message_of([&] { load_predictor(path.toStdString()); });
        };
        QVERIFY(load_with([](nlohmann::json& d) {
                    d["format"] = "x";
                }).find("| /format | expected \"cleave-predictor\"") != std::string::npos);
        QVERIFY(load_with([](nlohmann::json& d) {
                    d["features"][3] = "weights";
                }).find("| /features/3 | expected \"bytes_out\"") != std::string::npos);
        QVERIFY(load_with([](nlohmann::json& d) {
                    d["kind"] = "nope";
                }).find("| /kind | no regressor plugin named 'nope'") != std::string::npos);
        QVERIFY(load_with([](nlohmann::json& d) {
                    d["classes"]["*"]["model"]["weights"] = {1, 2};
                }).find("| /classes/*/model/weights | expected 35 numbers") != std::string::npos);
        QVERIFY(load_with([](nlohmann::json& d) {
                    d["overhead_ms"] = -1;
                }).find("| /overhead_ms | expected a number >= 0 (ms), found -1") !=
                std::string::npos);
        write(path, "{\"format\": ");
        QVERIFY(message_of([&] { load_predictor(path.toStdString()); }).find("| byte ") !=
                std::string::npos);
        // A predictor for one device is not taken for another.
        const auto other = device::find_device("xeon-ort-4t");
        QVERIFY(message_of([&] { predictor_for(other, good.toStdString(), ""); })
                    .find("| /device | the predictor is for device 'xeon-ort-1t', not "
                          "'xeon-ort-4t'") != std::string::npos);
    }

    // With a memory curve no kernel is faster than its bytes at the bandwidth of the model's
    // working set; the curve survives the file, and a curve whose sets do not grow is refused.
    void aMemoryCurveFloorsKernelsByTheirBytes() {
        auto p = sample_predictor();
        const auto& model = sample().models[0]; // resnet18: 46.8 MB of weights
        const auto kernels = fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
        const auto free = predict_model(p, model, kernels);
        const double weights = working_set_bytes(model);
        QVERIFY2(weights > 40e6 && weights < 50e6, std::to_string(weights).c_str());
        // 1 GB/s from 32 MiB up, 100 GB/s below: resnet18 reads at 1 GB/s.
        p.memory_curve = {{16.0 * (1 << 20), 100}, {32.0 * (1 << 20), 1}};
        const auto floored = predict_model(p, model, kernels);
        int bound = 0;
        for (std::size_t k = 0; k < kernels.kernels.size(); ++k) {
            const auto& kernel = kernels.kernels[k];
            const double floor_us =
                static_cast<double>(kernel.bytes_in + kernel.bytes_out) / 1e3; // 1e3 bytes a us
            const auto& got = floored.kernels[k];
            QVERIFY(got.us >= free.kernels[k].us);
            QVERIFY(std::abs(got.us - std::max(free.kernels[k].us, floor_us)) < 1e-6 * got.us);
            QCOMPARE(got.memory_bound, floor_us > free.kernels[k].us);
            bound += got.memory_bound;
        }
        QVERIFY(bound > 0);
        QVERIFY(floored.kernels_ms > free.kernels_ms);
        // At half the probe's rate, a kernel the floor decides takes twice as long.
        auto half = p;
        half.memory_efficiency = 0.5;
        const auto slower = predict_model(half, model, kernels);
        for (std::size_t k = 0; k < kernels.kernels.size(); ++k)
            if (floored.kernels[k].memory_bound)
                QVERIFY(std::abs(slower.kernels[k].us - 2 * floored.kernels[k].us) <
                        1e-6 * slower.kernels[k].us);
        // Under 16 MiB of working set the floor is 100 GB/s: every kernel above it is as before.
        QCOMPARE(device::bandwidth_at(p.memory_curve, 1e6), 100.0);
        QCOMPARE(device::bandwidth_at(p.memory_curve, 1e12), 1.0);
        QVERIFY(std::abs(device::bandwidth_at(p.memory_curve, 16.0 * (1 << 20) * std::sqrt(2.0)) -
                         50.5) < 1e-9);

        QTemporaryDir dir;
        const auto path = dir.filePath("curve.json").toStdString();
        save_predictor(p, path);
        const auto q = load_predictor(path);
        QCOMPARE(q.memory_curve.size(), std::size_t{2});
        QCOMPARE(q.memory_curve[1].gbs, 1.0);
        QCOMPARE(q.memory_efficiency, 1.0);
        save_predictor(half, path);
        QCOMPARE(load_predictor(path).memory_efficiency, 0.5);
        QCOMPARE(predict_model(q, model, kernels).kernels_ms, floored.kernels_ms);
        auto doc = nlohmann::json::parse(predictor_json(p));
        doc["memory_curve"][1]["bytes"] = 1000;
        write(QString::fromStdString(path), doc.dump());
        QVERIFY(message_of([&] {
                    load_predictor(path);
                }).find("| /memory_curve/1/bytes | expected more bytes than the point before") !=
                std::string::npos);
        doc = nlohmann::json::parse(predictor_json(p)); // a good curve again
        doc["memory_efficiency"] = 0;
        write(QString::fromStdString(path), doc.dump());
        QVERIFY(message_of([&] { load_predictor(path); }).find("| /memory_efficiency |") !=
                std::string::npos);
        doc["memory_efficiency"] = 11;
        write(QString::fromStdString(path), doc.dump());
        QVERIFY(message_of([&] {
                    load_predictor(path);
                }).find("| /memory_efficiency | expected at most 10") != std::string::npos);
        doc.erase("memory_efficiency");
        doc["memory_curve"] = {{{"bytes", 1e6}, {"gbs", 0}}};
        write(QString::fromStdString(path), doc.dump());
        QVERIFY(message_of([&] { load_predictor(path); }).find("| /memory_curve/0/gbs |") !=
                std::string::npos);
        doc["memory_curve"] = {{{"bytes", 1e6}, {"gbs", 5e-324}}};
        write(QString::fromStdString(path), doc.dump());
        QVERIFY(message_of([&] {
                    load_predictor(path);
                }).find("| /memory_curve/0/gbs | expected at least 0.001 GB/s") !=
                std::string::npos);
        QVERIFY(
            !nlohmann::json::parse(predictor_json(sample_predictor())).contains("memory_curve"));
    }

    void shippedPredictorsLoadAndPredict() {
        const auto kinds = regressor_kinds();
        if (std::find(kinds.begin(), kinds.end(), "gbdt") == kinds.end())
            QSKIP("built without XGBoost (libxgboost-dev): the shipped gbdt predictors need it");
        const auto& model = sample().models[0]; // resnet18, 56 ms measured at 1 thread
        QCOMPARE(sample().data.runs[0].model, std::string("resnet18"));
        const auto kernels = fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
        double previous = 0;
        for (const int threads : {1, 2, 4, 8, 16}) {
            const std::string id = "xeon-ort-" + std::to_string(threads) + "t";
            const auto file = shipped_predictor(id);
            QVERIFY2(file, id.c_str());
            const auto p = predictor_for(device::find_device(id), "", "");
            QCOMPARE(p.device, id);
            QCOMPARE(p.kind, std::string("gbdt"));
            QCOMPARE(p.rules, std::string("ort-cpu"));
            const double ms = predict_model(p, model, kernels).total_ms;
            if (threads == 1)
                QVERIFY2(std::abs(ms - 56.0) / 56.0 < 0.2, std::to_string(ms).c_str());
            else // more threads, less time, down to the point where they stop helping
                QVERIFY2(ms < previous * 1.1, (id + ": " + std::to_string(ms)).c_str());
            previous = ms;
        }
    }

    void shippedH100PredictorsCostEveryKernel() {
        // PyTorch eager at batch 1 on the H100 is bound by the host's launches: resnet50's
        // medians over its seven input sizes (32 .. 224) span 3.55-8.91 ms at fp32 and
        // 4.19-9.93 ms at fp16 in ../shared/data/cuda-h100.json.xz, runs a busy host slowed
        // included; at 224x224, the example model's size, the project's own runs
        // (examples/data/torch-eager-h100.json.xz, the fastest of three sweeps) took 4.608 ms and
        // 5.046 ms.
        const auto model = graph::load_model(CLEAVE_EXAMPLE_MODELS_DIR "/resnet50.onnx");
        const auto kernels =
            fusion::detect_kernels(model, fusion::find_fusion_method("pytorch-eager"));
        QCOMPARE(kernels.kernels.size(), std::size_t{175}); // Conv, BN, Relu, Add... each launched
        struct Case {
            const char* device;
            double measured_224_ms, fastest_ms, slowest_ms, tolerance;
        };
        for (const Case c : {Case{"h100-cudnn-fp32", 4.608, 3.554, 8.912, 0.15},
                             Case{"h100-cudnn-fp16", 5.046, 4.186, 9.926, 0.15}}) {
            QVERIFY2(shipped_predictor(c.device), c.device);
            const auto p = predictor_for(device::find_device(c.device), "", "");
            QCOMPARE(p.kind, std::string("launch-bound"));
            QCOMPARE(p.rules, std::string("pytorch-eager"));
            const auto latency = predict_model(p, model, kernels);
            const std::string at = std::string(c.device) + ": " + std::to_string(latency.total_ms);
            QVERIFY2(latency.total_ms > c.fastest_ms && latency.total_ms < c.slowest_ms,
                     at.c_str());
            QVERIFY2(std::abs(latency.total_ms - c.measured_224_ms) / c.measured_224_ms <
                         c.tolerance,
                     at.c_str());
            // A view (Flatten) launches no kernel and may cost the host next to nothing.
            for (const auto& k : latency.kernels)
                QVERIFY2(k.us > 0 && k.us < 1000 &&
                             (k.us > 1 || eager_group(cost_type(k.model_class)) == kViews),
                         (at + " " + k.model_class).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(PredictorTest)
#include "predictor_test.moc"
