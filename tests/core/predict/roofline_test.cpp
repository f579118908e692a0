// The roofline predictor: a launch plus the longer of FLOPs at the peak rate and bytes at the
// bandwidth, over an efficiency; calibrated to the median measured ratio; its figures from a
// device spec (the named PE, or the fastest) and its file's round trip and errors.
#include "../input_error_of.hpp"
#include "core/device/device_library.hpp"
#include "core/input_error.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/predict/roofline.hpp"

#include <QtTest>
#include <stdexcept>

using namespace cleave;
using namespace cleave::predict;

namespace {

std::size_t column(const char* name) {
    const auto& names = kernel_feature_names();
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

// A kernel's features with these FLOPs and bytes read, written and of weights.
std::vector<double> kernel(double flops, double in, double out = 0, double weights = 0) {
    std::vector<double> row(kernel_feature_names().size(), 0);
    row[column("flops")] = flops;
    row[column("bytes_in")] = in;
    row[column("bytes_out")] = out;
    row[column("weight_bytes")] = weights;
    row[column("macs")] = 1e12; // MACs are not what a roofline reads
    return row;
}

// A board with a 48 GFLOP/s CPU on 12.8 GB/s memory and a 500 GFLOP/s GPU with 25 GB/s of its
// own.
device::DeviceSpec board() {
    device::DeviceSpec d;
    d.id = "board";
    d.file = "board.json";
    device::ProcessingElement cpu;
    cpu.name = "cpu";
    cpu.cores = 4;
    cpu.peak_gflops.fp32 = 48;
    device::ProcessingElement gpu;
    gpu.kind = device::PeKind::gpu;
    gpu.name = "gpu";
    gpu.peak_gflops.fp32 = 500;
    gpu.memory_bandwidth_gbs = 25;
    device::ProcessingElement npu; // no figures
    npu.name = "npu";
    d.processing_elements = {cpu, gpu, npu};
    d.memory = device::Memory{};
    d.memory->bandwidth_gbs = 12.8;
    return d;
}

} // namespace

class RooflineTest : public QObject {
    Q_OBJECT

private slots:
    void aLaunchPlusTheLongerRoofOverTheEfficiency() {
        const RooflineRegressor r({1000, 100, 0.5, 3});
        // 2e6 FLOPs at 1000 GFLOP/s: 2 us; 5e5 bytes at 100 GB/s: 5 us; 5 / 0.5 + 3.
        QCOMPARE(r.predict(kernel(2e6, 3e5, 1e5, 1e5).data()), 13.0);
        // 8e6 FLOPs: 8 us of compute outlast the 5 of memory.
        QCOMPARE(r.predict(kernel(8e6, 3e5, 1e5, 1e5).data()), 19.0);
        // Without a bandwidth, compute alone.
        const RooflineRegressor compute_only({1000, 0, 0.5, 3});
        QCOMPARE(compute_only.predict(kernel(2e6, 3e5, 1e5, 1e5).data()), 7.0);
    }

    void rooflineCalibratesItsEfficiency() {
        RooflineParameters params{1000, 100, 1, 0};
        RooflineRegressor r(params);
        RegressionSamples s;
        s.feature_names = kernel_feature_names();
        const auto& names = s.feature_names;
        const auto flops = static_cast<std::size_t>(std::find(names.begin(), names.end(), "flops") -
                                                    names.begin());
        for (int i = 1; i <= 9; ++i) {
            std::vector<double> row(names.size(), 0);
            row[flops] = i * 1e6; // i us at 1000 GFLOP/s
            s.x.insert(s.x.end(), row.begin(), row.end());
            s.y.push_back(i * 4.0); // measured at a quarter of peak
            ++s.rows;
        }
        r.fit(s, 1);
        QVERIFY(std::abs(r.parameters().efficiency - 0.25) < 1e-12);
    }

    void calibrationMeasuresPastTheLaunchAndStaysAShare() {
        RegressionSamples s;
        s.feature_names = kernel_feature_names();
        const auto add = [&](double flops, double us) {
            const auto row = kernel(flops, 0);
            s.x.insert(s.x.end(), row.begin(), row.end());
            s.y.push_back(us);
            ++s.rows;
        };
        add(1e6, 5);   // 1 us of roof in 5 - 3 = 2 us of work: 0.5
        add(2e6, 3);   // no time past the launch: not a ratio
        add(0, 40);    // no roof: not a ratio
        add(3e6, 13);  // 3 in 10: 0.3
        add(4e6, 3.5); // 4 in 0.5: 8, held to 1 when it is the median
        RooflineRegressor r({1000, 100, 1, 3});
        r.fit(s, 1);
        QCOMPARE(r.parameters().efficiency, 0.5); // the median of 0.3, 0.5 and 8
        QCOMPARE(r.parameters().peak_gflops, 1000.0);
        QCOMPARE(r.parameters().launch_us, 3.0);
        s.y = {5, 3, 40, 3.1, 3.5}; // ratios 0.5, 30, 8: median 8, held to 1
        r.fit(s, 1);
        QCOMPARE(r.parameters().efficiency, 1.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, r.fit(RegressionSamples{}, 1));
    }

    void savedParametersLoadBack() {
        const RooflineRegressor r({8100, 320, 0.6, 10});
        RooflineRegressor loaded;
        loaded.load(r.save(), kernel_feature_names().size());
        QCOMPARE(loaded.parameters().peak_gflops, 8100.0);
        QCOMPARE(loaded.parameters().bandwidth_gbs, 320.0);
        QCOMPARE(loaded.parameters().efficiency, 0.6);
        QCOMPARE(loaded.parameters().launch_us, 10.0);
        const auto row = kernel(2e9, 8e6);
        QCOMPARE(loaded.predict(row.data()), r.predict(row.data()));
    }

    void badParametersNameThePlace() {
        RooflineRegressor r;
        const auto load = [&](const char* text) {
            return cleave::test::input_error_of([&] { r.load(text, 33); });
        };
        QCOMPARE(
            load(R"({"peak_gflops": 1, "bandwidth_gbs": 1, "efficiency": 1.5, "launch_us": 0})"),
            std::string(" | /efficiency | expected a share in (0, 1]"));
        QCOMPARE(load(R"({"peak_gflops": 0, "bandwidth_gbs": 0, "efficiency": 1, "launch_us": 0})"),
                 std::string(" | /peak_gflops | expected a peak rate or a bandwidth above 0"));
        QVERIFY(load(R"({"peak_gflops": 1, "bandwidth_gbs": 1, "launch_us": 0})")
                    .starts_with(" | / | missing \"efficiency\""));
        QVERIFY(load(R"({"peak_gflops": 1, "bandwidth_gbs": 1, "efficiency": 1, "launch_us": -2})")
                    .starts_with(" | /launch_us | "));
        QVERIFY(load("[]").starts_with(" | / | "));
    }

    void figuresOfTheNamedOrTheFastestPe() {
        const auto d = board();
        const auto fastest = roofline_of(d);
        QCOMPARE(fastest.peak_gflops, 500.0);
        QCOMPARE(fastest.bandwidth_gbs, 25.0); // its own
        QCOMPARE(fastest.launch_us, 10.0);     // a GPU's
        QCOMPARE(fastest.efficiency, 1.0);
        const auto cpu = roofline_of(d, "cpu");
        QCOMPARE(cpu.peak_gflops, 48.0);
        QCOMPARE(cpu.bandwidth_gbs, 12.8); // the device memory's
        QCOMPARE(cpu.launch_us, 5.0);
        QCOMPARE(cleave::test::input_error_of([&] { roofline_of(d, "dsp"); }),
                 std::string("board.json | /processing_elements | no processing element named "
                             "'dsp' in device board"));
        QCOMPARE(cleave::test::input_error_of([&] { roofline_of(d, "npu"); }),
                 std::string("board.json | /processing_elements | device board: its processing "
                             "element npu lacks a peak FP32 rate or a memory bandwidth, which a "
                             "roofline predictor needs both of"));
    }

    void anUncalibratedPredictorPerCostClass() {
        auto d = board();
        d.processing_elements.erase(d.processing_elements.begin() + 1); // the CPU is the fastest
        const auto p = roofline_predictor(d, "");
        QCOMPARE(p.device, std::string("board"));
        QCOMPARE(p.kind, std::string("roofline"));
        QCOMPARE(p.rules, std::string("ort-cpu"));
        QCOMPARE(p.features, kernel_feature_names());
        const std::map<std::string, double> efficiency{
            {"*", 0.5},        {"Conv/depthwise", 0.05}, {"Conv/grouped", 0.2}, {"Conv/1x1", 0.4},
            {"Conv/kxk", 0.5}, {"Gemm/gemm", 0.6},       {"MatMul/gemm", 0.6}};
        QCOMPARE(p.classes.size(), efficiency.size());
        for (const auto& [cls, share] : efficiency) {
            const auto* r = dynamic_cast<const RooflineRegressor*>(p.classes.at(cls).model.get());
            QVERIFY2(r, cls.c_str());
            QCOMPARE(r->parameters().efficiency, share);
            QCOMPARE(r->parameters().peak_gflops, 48.0);
        }
        QCOMPARE(roofline_predictor(d, "my-rules").rules, std::string("my-rules"));
        QCOMPARE(roofline_predictor(board(), "").rules, std::string("tensorrt-like"));
    }

    void rooflineFromTheDeviceSpec() {
        const auto t4 = device::find_device("nvidia-t4");
        const auto p = roofline_predictor(t4, "");
        QCOMPARE(p.kind, std::string("roofline"));
        QCOMPARE(p.rules, std::string("tensorrt-like"));
        const auto params = roofline_of(t4);
        QCOMPARE(params.peak_gflops, 8100.0);
        QCOMPARE(params.bandwidth_gbs, 320.0);
        // A big square matrix product is bound by compute: launch + flops / (peak x efficiency).
        std::vector<double> features(kernel_feature_names().size(), 0);
        const auto& names = kernel_feature_names();
        const auto at = [&](const char* name) {
            return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) -
                                            names.begin());
        };
        features[at("flops")] = 2e9;
        features[at("bytes_in")] = 8e6;
        const auto latency = predict_features(p, features, "Gemm/gemm");
        QCOMPARE(latency.model_class, std::string("Gemm/gemm"));
        QVERIFY(std::abs(latency.us - (params.launch_us + 2e9 / (8100e3 * 0.6))) < 1e-6);
        // A copy is bound by memory.
        std::fill(features.begin(), features.end(), 0);
        features[at("bytes_in")] = features[at("bytes_out")] = 32e6;
        const auto copy = predict_features(p, features, "Transpose");
        QVERIFY(std::abs(copy.us - (params.launch_us + 64e6 / (320e3 * 0.5))) < 1e-6);
        // A measured device has no datasheet figures: it needs a trained predictor.
        QVERIFY(cleave::test::input_error_of([] {
                    roofline_of(device::find_device("xeon-ort-1t"));
                }).find("train a predictor from its data") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(RooflineTest)
#include "roofline_test.moc"
