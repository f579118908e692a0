// A CPU PE at fewer threads than cores: peaks scale with the cores used, memory stays;
// a thread count the user gives is checked against the device.
#include "../input_error_of.hpp"
#include "core/device/cpu_threads.hpp"
#include "core/device/device_library.hpp"

#include <QtTest>

using namespace cleave;
using cleave::device::device_at_threads;
using cleave::device::spec_at_threads;

namespace {

device::DeviceSpec board() {
    device::DeviceSpec spec;
    spec.id = "board";
    device::ProcessingElement cpu;
    cpu.name = "cpu";
    cpu.cores = 8;
    cpu.peak_gflops.fp32 = 800;
    cpu.peak_gflops.fp16 = 1600;
    cpu.memory_bandwidth_gbs = 50;
    device::ProcessingElement gpu;
    gpu.kind = device::PeKind::gpu;
    gpu.name = "gpu";
    gpu.peak_gflops.fp32 = 2000;
    spec.processing_elements = {cpu, gpu};
    return spec;
}

} // namespace

class CpuThreadsTest : public QObject {
    Q_OBJECT

private slots:
    void cpuPeaksScaleToTheThreadsUsed() {
        const auto two = spec_at_threads(board(), 2);
        const auto& cpu = two.processing_elements[0];
        QCOMPARE(cpu.cores, 2);
        QCOMPARE(cpu.peak_gflops.fp32.value_or(0), 200.0);
        QCOMPARE(cpu.peak_gflops.fp16.value_or(0), 400.0);
        QVERIFY(!cpu.peak_gflops.int8); // absent stays absent
        QCOMPARE(cpu.memory_bandwidth_gbs.value_or(0), 50.0);
        QCOMPARE(two.processing_elements[1].peak_gflops.fp32.value_or(0), 2000.0); // the GPU
        for (const int threads : {0, 8, 16}) // unknown, or every core
            QCOMPARE(spec_at_threads(board(), threads).processing_elements[0].peak_gflops.fp32,
                     std::optional<double>(800));
    }

    void aGivenCountIsCheckedAgainstTheDevice() {
        QCOMPARE(device_at_threads(board(), 4, "", "--threads")
                     .processing_elements[0]
                     .peak_gflops.fp32.value_or(0),
                 400.0);
        QCOMPARE(test::input_error_of([] { device_at_threads(board(), 9, "", "--threads"); }),
                 std::string(" | --threads | a thread count from 1 to 8, the cores of board's "
                             "largest CPU PE; found 9"));
        QCOMPARE(test::input_error_of([] { device_at_threads(board(), 0, "c.json", "/hosts/0"); }),
                 std::string("c.json | /hosts/0 | a thread count from 1 to 8, the cores of "
                             "board's largest CPU PE; found 0"));
        auto gpu_only = board();
        gpu_only.processing_elements.erase(gpu_only.processing_elements.begin());
        QCOMPARE(test::input_error_of([&] { device_at_threads(gpu_only, 1, "", "--threads"); }),
                 std::string(" | --threads | a thread count for a CPU; device board has no CPU "
                             "PE"));
        // A measured device holds at its own count only
        const auto measured = device::find_device("xeon-ort-4t");
        QCOMPARE(device_at_threads(measured, 4, "", "--threads").id, std::string("xeon-ort-4t"));
        QCOMPARE(test::input_error_of([&] { device_at_threads(measured, 2, "", "--threads"); }),
                 std::string(" | --threads | 4 threads: device xeon-ort-4t is measured at that "
                             "count only, found 2 (a device measured at that count: cleave "
                             "calibrate --threads 2)"));
    }
};

QTEST_GUILESS_MAIN(CpuThreadsTest)
#include "cpu_threads_test.moc"
