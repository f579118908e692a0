// The device descriptor: figures from a spec, the kind of each kernel of the measured sample, and
// speeds measured from kernels (a device twice as slow has half the speed and the same shape).
#include "../measured_sample.hpp"
#include "core/predict/device_descriptor.hpp"
#include "core/predict/kernel_features.hpp"

#include <QtTest>
#include <cmath>
#include <map>

using namespace cleave;
using namespace cleave::predict;

namespace {

std::vector<KernelSample> sample_kernels() {
    static const std::vector<KernelSample> kernels = [] {
        const cleave::test::MeasuredSample sample;
        std::vector<KernelSample> out;
        for (std::size_t i = 0; i < sample.data.runs.size(); ++i) {
            const auto run = prepare_run(sample.models[i], sample.data.runs[i]);
            out.insert(out.end(), run.samples.begin(), run.samples.end());
        }
        return out;
    }();
    return kernels;
}

} // namespace

class DeviceDescriptorTest : public QObject {
    Q_OBJECT

private slots:
    void figuresComeFromTheFirstCpu() {
        device::DeviceSpec spec;
        device::ProcessingElement cpu;
        cpu.cores = 4;
        cpu.peak_gflops.fp32 = 200;
        cpu.memory_bandwidth_gbs = 25.6;
        cpu.caches = {{1, "data", 32, 1}, {2, "unified", 512, 1}, {3, "unified", 4096, 0}};
        spec.processing_elements = {cpu};
        const auto f = device_figures(spec, 2);
        QCOMPARE(f.threads, 2);
        QCOMPARE(f.fp32_gflops_per_core, 50.0);
        QCOMPARE(f.memory_bandwidth_gbs, 25.6);
        QCOMPARE(f.cache_kib_per_core, 1024.0); // 4 MiB L3 over 4 cores
        const auto none = device_figures(device::DeviceSpec{}, 8);
        QCOMPARE(none.threads, 8);
        QCOMPARE(none.fp32_gflops_per_core, 0.0);
    }

    void kernelsFallIntoTheirSpeedGroups() {
        std::map<std::string, std::map<SpeedGroup, int>> groups; // by cost class
        for (const auto& s : sample_kernels())
            ++groups[s.model_class][speed_group(s.features)];
        QCOMPARE(groups["Conv/kxk"].size(), std::size_t{1});
        QVERIFY(groups["Conv/kxk"].count(SpeedGroup::dense_convolution));
        QVERIFY(groups["Conv/depthwise"].count(SpeedGroup::grouped_convolution));
        QCOMPARE(groups["Conv/depthwise"].size(), std::size_t{1});
        QVERIFY(groups["Gemm/gemv"].count(SpeedGroup::matrix_product));
        QVERIFY(groups["Add"].count(SpeedGroup::other));
    }

    void aDeviceTwiceAsSlowHasHalfTheSpeedAndTheSameShape() {
        auto kernels = sample_kernels();
        const auto d = device_descriptor({1, 0, 0, 0}, kernels);
        QCOMPARE(d.size(), device_descriptor_names().size());
        for (auto& k : kernels)
            k.us *= 2;
        const auto slow = device_descriptor({1, 0, 0, 0}, kernels);
        QVERIFY(std::abs(slow[kDeviceSpeedColumn] / d[kDeviceSpeedColumn] - 0.5) < 1e-12);
        for (std::size_t j = kDeviceSpeedColumn + 1; j < d.size(); ++j)
            QVERIFY(std::abs(slow[j] - d[j]) < 1e-12);
        // The groups differ: the Xeon at 1 thread is not uniformly faster or slower than the
        // nominal roofline across kinds of kernel.
        double spread = 0;
        for (std::size_t j = kDeviceSpeedColumn + 1; j < d.size(); ++j)
            spread = std::max(spread, std::abs(std::log(d[j])));
        QVERIFY2(spread > 0.1, std::to_string(spread).c_str());
    }

    void groupsNotMeasuredTakeTheOverallSpeed() {
        std::vector<KernelSample> convolutions;
        for (const auto& s : sample_kernels())
            if (speed_group(s.features) == SpeedGroup::dense_convolution)
                convolutions.push_back(s);
        const auto d = device_descriptor({1, 0, 0, 0}, convolutions);
        QCOMPARE(d[kDeviceSpeedColumn + 2], 1.0);
        QCOMPARE(d[kDeviceSpeedColumn + 3], 1.0);
        QCOMPARE(d[kDeviceSpeedColumn + 4], 1.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, device_descriptor({1, 0, 0, 0}, {}));
    }
};

QTEST_GUILESS_MAIN(DeviceDescriptorTest)
#include "device_descriptor_test.moc"
