// The built-in device library: the devices issue 5 and DESIGN.md name, every one valid with
// its figures' sources, the files on disk all compiled in, and lookups by id or file.
#include "core/device/device_library.hpp"
#include "core/device/pe_key.hpp"
#include "core/input_error.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <tuple>

using cleave::device::DeviceSpec;
using cleave::device::library_device;
using cleave::device::PeKind;

namespace {

const std::vector<std::string> kDatasheetDevices{"jetson-xavier-nx",
                                                 "jetson-agx-xavier",
                                                 "jetson-tx2",
                                                 "jetson-orin-nano",
                                                 "jetson-orin-nano-super",
                                                 "jetson-orin-nx-16gb",
                                                 "jetson-agx-orin-32gb",
                                                 "jetson-agx-orin-64gb",
                                                 "jetson-nano",
                                                 "raspberry-pi-4",
                                                 "raspberry-pi-5",
                                                 "raspberry-pi-5-16gb",
                                                 "intel-nuc",
                                                 "intel-n100-mini-pc",
                                                 "nvidia-t4",
                                                 "nvidia-v100",
                                                 "nvidia-a10g",
                                                 "nvidia-h100",
                                                 "rtx-4060-desktop",
                                                 "rtx-4090-desktop"};
const std::vector<std::string> kMeasuredDevices{"xeon-ort-1t",    "xeon-ort-2t",  "xeon-ort-4t",
                                                "xeon-ort-8t",    "xeon-ort-16t", "h100-cudnn-fp32",
                                                "h100-cudnn-fp16"};

DeviceSpec device(const std::string& id) {
    auto d = library_device(id);
    if (!d)
        throw std::logic_error("no library device " + id);
    return *d;
}

std::vector<std::string> resources(const DeviceSpec& d) {
    std::vector<std::string> out;
    for (const auto& pe : d.processing_elements)
        out.push_back(cleave::device::pe_resource(pe));
    return out;
}

} // namespace

class DeviceLibraryTest : public QObject {
    Q_OBJECT

private slots:
    void idsAreTheDatasheetDevicesThenTheMeasuredOnesThenThisMachine() {
        std::vector<std::string> expected = kDatasheetDevices;
        expected.insert(expected.end(), kMeasuredDevices.begin(), kMeasuredDevices.end());
        expected.push_back("this-machine");
        QCOMPARE(cleave::device::library_device_ids(), expected);
        QVERIFY(kDatasheetDevices.size() >= 12);
    }

    void everyFileInTheResourceFolderIsCompiledInUnchanged() {
        const QDir folder(CLEAVE_DEVICE_LIBRARY_DIR);
        const QStringList files = folder.entryList({"*.json"}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), int(kDatasheetDevices.size() + kMeasuredDevices.size()));
        for (const QString& name : files) {
            const auto on_disk =
                cleave::device::load_device_spec(folder.filePath(name).toStdString());
            QCOMPARE(QString::fromStdString(on_disk.id) + ".json", name);
            const auto built_in = device(on_disk.id);
            QCOMPARE(built_in.file, std::string("built-in"));
            QCOMPARE(cleave::device::device_spec_json(built_in),
                     cleave::device::device_spec_json(on_disk));
        }
    }

    void everyDeviceNamesTheSourceOfEverySection() {
        for (const auto& d : cleave::device::library_devices()) {
            QVERIFY2(!d.source.empty(), d.id.c_str());
            QVERIFY2(!d.processing_elements.empty(), d.id.c_str());
            for (const auto& pe : d.processing_elements) {
                QVERIFY2(!pe.source.empty(), (d.id + " " + pe.name).c_str());
                const auto& peak = pe.peak_gflops;
                if (peak.fp32 || peak.fp16 || peak.int8)
                    QVERIFY2(!peak.source.empty(), (d.id + " " + pe.name).c_str());
            }
            if (d.memory)
                QVERIFY2(!d.memory->source.empty(), d.id.c_str());
            if (d.power)
                QVERIFY2(!d.power->source.empty(), d.id.c_str());
            if (d.network)
                QVERIFY2(!d.network->source.empty(), d.id.c_str());
        }
    }

    void everyDeviceWritesAndReadsBackUnchanged() {
        for (const auto& d : cleave::device::library_devices()) {
            const std::string text = cleave::device::device_spec_json(d);
            QCOMPARE(cleave::device::device_spec_json(
                         cleave::device::parse_device_spec(text, d.id + ".json")),
                     text);
        }
    }

    void datasheetDevicesCarryDatasheetFigures() {
        for (const auto& id : kDatasheetDevices) {
            const auto d = device(id);
            QVERIFY2(!d.measurement, id.c_str());
            QVERIFY2(d.memory && (d.memory->capacity_gib || d.memory->bandwidth_gbs), id.c_str());
            QVERIFY2(d.source.find("measured") == std::string::npos, id.c_str());
        }
    }

    void xavierNxHasItsDataSheetFigures() {
        const auto nx = device("jetson-xavier-nx");
        QCOMPARE(resources(nx), (std::vector<std::string>{"arm012345", "gpu"}));
        const auto& carmel = nx.processing_elements[0];
        QCOMPARE(carmel.cores, 6);
        QCOMPARE(*carmel.clock_ghz, 1.9);
        const auto* gpu = cleave::device::gpu_of(nx);
        QCOMPARE(gpu->arch, std::string("NVIDIAVolta"));
        QCOMPARE(gpu->api, std::string("CUDA"));
        QCOMPARE(gpu->cuda_cores, 384);
        QCOMPARE(gpu->tensor_cores, 48);
        QCOMPARE(*gpu->clock_ghz, 1.1);
        QCOMPARE(*gpu->peak_gflops.fp32, 384 * 2 * 1.1);
        QCOMPARE(*nx.memory->bandwidth_gbs, 51.2);
        QCOMPARE(*nx.memory->bus_width_bits, 128);
        QCOMPARE(nx.power->modes_w, (std::vector<double>{10, 15}));
        QCOMPARE(*nx.network->bandwidth_gbps, 1.0);
    }

    void tx2NamesItsTwoCpuClustersByTheirLinuxNumbers() {
        const auto tx2 = device("jetson-tx2");
        QCOMPARE(resources(tx2), (std::vector<std::string>{"arm12", "arm0345", "gpu"}));
        QCOMPARE(cleave::device::cpu_cores(tx2), 6);
        QCOMPARE(cleave::device::gpu_of(tx2)->arch, std::string("NVIDIAPascal"));
    }

    void dataCentreGpusHaveTheirDatasheetRates() {
        QCOMPARE(*device("nvidia-h100").processing_elements[0].peak_gflops.fp32, 67000.0);
        QCOMPARE(*device("nvidia-h100").memory->bandwidth_gbs, 3350.0);
        QCOMPARE(*device("nvidia-v100").processing_elements[0].peak_gflops.fp32, 15700.0);
        QCOMPARE(*device("nvidia-v100").memory->bandwidth_gbs, 900.0);
        QCOMPARE(*device("nvidia-t4").processing_elements[0].peak_gflops.int8, 130000.0);
        QCOMPARE(*device("nvidia-a10g").memory->capacity_gib, 24.0);
        QCOMPARE(resources(device("nvidia-t4")), (std::vector<std::string>{"gpu"}));
    }

    void desktopGpusHaveMemoryOfTheirOwn() {
        QCOMPARE(*cleave::device::gpu_of(device("rtx-4090-desktop"))->memory_gib, 24.0);
        QCOMPARE(*cleave::device::gpu_of(device("rtx-4060-desktop"))->memory_gib, 8.0);
        // A Jetson's GPU shares the board's memory.
        QVERIFY(!cleave::device::gpu_of(device("jetson-orin-nx-16gb"))->memory_gib);
        QCOMPARE(*device("jetson-orin-nx-16gb").memory->capacity_gib, 16.0);
        QCOMPARE(*device("raspberry-pi-5-16gb").memory->capacity_gib, 16.0);
    }

    void everyDatasheetPeIsCosted() {
        // The roofline needs a PE's fp32 peak and the bandwidth it sees: no PE is left out.
        for (const auto& id : kDatasheetDevices) {
            const auto d = device(id);
            for (const auto& pe : d.processing_elements) {
                const std::string what = id + " " + pe.name;
                QVERIFY2(pe.peak_gflops.fp32 && *pe.peak_gflops.fp32 > 0, what.c_str());
                QVERIFY2(cleave::device::memory_bandwidth_gbs(d, pe), what.c_str());
            }
        }
    }

    void derivedCpuPeaksAreCoresTimesClockTimesFlopPerClock() {
        // FP32 FLOP per clock per core: two 128-bit FMA pipes (Carmel, Denver 2, Cortex-A76,
        // A78AE) give 16, one 128-bit FMLA per clock over two 64-bit pipes (A57, A72) gives 8.
        const std::vector<std::tuple<std::string, std::size_t, int>> cpus{
            {"jetson-xavier-nx", 0, 16},
            {"jetson-agx-xavier", 0, 16},
            {"jetson-tx2", 0, 16},
            {"jetson-tx2", 1, 8},
            {"jetson-nano", 0, 8},
            {"raspberry-pi-4", 0, 8},
            {"raspberry-pi-5", 0, 16},
            {"jetson-orin-nano", 0, 16},
            {"intel-nuc", 0, 32},
            {"jetson-orin-nx-16gb", 0, 16},
            {"jetson-agx-orin-64gb", 0, 16},
            {"raspberry-pi-5-16gb", 0, 16},
            {"intel-n100-mini-pc", 0, 16}};
        for (const auto& [id, index, flop_per_clock] : cpus) {
            const auto d = device(id);
            const auto& pe = d.processing_elements.at(index);
            const std::string what = id + " " + pe.name;
            QVERIFY2(pe.peak_gflops.derived, what.c_str());
            QVERIFY2(pe.peak_gflops.source.starts_with("derived: "), what.c_str());
            QCOMPARE(*pe.peak_gflops.fp32, pe.cores * *pe.clock_ghz * flop_per_clock);
        }
        QCOMPARE(*device("jetson-xavier-nx").processing_elements[0].peak_gflops.fp32, 182.4);
        QCOMPARE(*device("jetson-tx2").processing_elements[1].peak_gflops.fp32, 64.0);
    }

    void quotedPeaksAreNotMarkedDerived() {
        for (const char* id : {"nvidia-t4", "nvidia-v100", "nvidia-a10g", "nvidia-h100"})
            QVERIFY2(!device(id).processing_elements[0].peak_gflops.derived, id);
        const auto a10g = device("nvidia-a10g");
        QCOMPARE(*a10g.processing_elements[0].peak_gflops.fp32, 31200.0); // NVIDIA's 31.2 TFLOPS
        QCOMPARE(*a10g.memory->bandwidth_gbs, 600.0);
    }

    void piBandwidthsFollowFromTheirMemoryAndAnAssumedBus() {
        for (const auto& [id, mts] :
             {std::pair{"raspberry-pi-4", 3200.0}, std::pair{"raspberry-pi-5", 4267.0}}) {
            const auto d = device(id);
            QCOMPARE(*d.memory->bus_width_bits, 32);
            QCOMPARE(*d.memory->bandwidth_gbs, std::round(4 * mts / 10) / 100); // 12.8, 17.07
            QVERIFY(d.memory->note.find("assumption") != std::string::npos);
        }
    }

    void measuredXeonDevicesHaveOneCpuPeOfTheirThreadCount() {
        for (const int threads : {1, 2, 4, 8, 16}) {
            const auto d = device("xeon-ort-" + std::to_string(threads) + "t");
            QVERIFY(d.measurement);
            QCOMPARE(*d.measurement->threads, threads);
            QCOMPARE(d.measurement->data, std::string("../shared/data/ort-cpu-xeon.json.xz"));
            QCOMPARE(d.processing_elements.size(), std::size_t(1));
            QCOMPARE(d.processing_elements[0].cores, threads);
            QCOMPARE(d.processing_elements[0].arch, std::string("x86_64"));
        }
        QCOMPARE(resources(device("xeon-ort-4t")), (std::vector<std::string>{"cpu0123"}));
        QCOMPARE(resources(device("xeon-ort-16t")), (std::vector<std::string>{"cpu0-15"}));
    }

    void measuredH100DevicesNameTheirPrecision() {
        for (const auto& [id, dtype] :
             {std::pair{"h100-cudnn-fp32", "float32"}, std::pair{"h100-cudnn-fp16", "float16"}}) {
            const auto d = device(id);
            QCOMPARE(d.measurement->dtype, std::string(dtype));
            QCOMPARE(d.measurement->data, std::string("../shared/data/cuda-h100.json.xz"));
            QCOMPARE(cleave::device::gpu_of(d)->arch, std::string("NVIDIAHopper"));
        }
    }

    void thisMachineIsDetectedWhenAskedFor() {
        const auto d = device("this-machine");
        QCOMPARE(d.id, std::string("this-machine"));
        QCOMPARE(d.source, std::string("detected"));
        QCOMPARE(d.file, std::string("detected"));
        QVERIFY(cleave::device::cpu_cores(d) >= 1);
        QVERIFY(!cleave::device::pe_resource(d.processing_elements[0]).empty());
    }

    void unknownIdListsTheLibrary() {
        try {
            cleave::device::find_device("jetson-agx-orin", "--device");
            QFAIL("accepted");
        } catch (const cleave::InputError& e) {
            const QString message = e.what();
            QVERIFY2(
                message.startsWith("--device: jetson-agx-orin: no such device; expected one of "
                                   "jetson-xavier-nx, jetson-agx-xavier, "),
                qPrintable(message));
            QVERIFY(message.endsWith("h100-cudnn-fp16, this-machine, a device calibrated with "
                                     "cleave calibrate, or a device file (.json)"));
        }
    }

    void aDeviceFileIsFoundByItsPath() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("mine.json").toStdString();
        auto nx = device("jetson-xavier-nx");
        nx.id = "my-nx";
        std::ofstream(path) << cleave::device::device_spec_json(nx);
        const auto found = cleave::device::find_device(path);
        QCOMPARE(found.id, std::string("my-nx"));
        QCOMPARE(found.file, path);
        QVERIFY(cleave::device::is_device_file("mine.json"));
        QVERIFY(!cleave::device::is_device_file("jetson-tx2"));
    }
};

QTEST_GUILESS_MAIN(DeviceLibraryTest)
#include "device_library_test.moc"
