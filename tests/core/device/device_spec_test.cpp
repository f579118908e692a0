// Device files: a valid file reads into the spec and writes back unchanged; every mistake is
// named with the file, the JSON pointer and what was expected.
#include "core/device/device_spec.hpp"
#include "core/input_error.hpp"

#include <QtTest>

using cleave::device::DeviceKind;
using cleave::device::parse_device_spec;
using cleave::device::PeKind;

namespace {

// A small SoC in the file format; tests replace one piece of it at a time.
const std::string kGood = R"({
  "format": "cleave-device", "version": 1, "id": "my-board", "name": "My board",
  "kind": "soc", "source": "the board data sheet",
  "processing_elements": [
    {"kind": "cpu", "name": "big", "arch": "arm", "cores": 2, "clock_ghz": 2.0,
     "caches": [{"level": 2, "size_kib": 1024, "shared_by": 2}], "source": "data sheet"},
    {"kind": "cpu", "name": "little", "arch": "arm", "cores": 4, "clock_ghz": 1.5,
     "max_clock_ghz": 1.8, "source": "data sheet"},
    {"kind": "gpu", "name": "gpu", "arch": "NVIDIAVolta", "api": "CUDA",
     "compute_capability": "7.2", "sms": 6, "cuda_cores": 384, "tensor_cores": 48,
     "clock_ghz": 1.1, "peak_gflops": {"fp32": 844.8, "source": "derived"},
     "memory_bandwidth_gbs": 40, "busy_w": 8, "source": "data sheet"}
  ],
  "memory": {"capacity_gib": 8, "type": "LPDDR4x", "bus_width_bits": 128, "bandwidth_gbs": 51.2,
             "source": "data sheet"},
  "power": {"idle_w": 0, "modes_w": [10, 15], "communication_w": 1.5, "source": "measured"},
  "network": {"interface": "Gigabit Ethernet", "bandwidth_gbps": 1, "latency_us": 0,
              "source": "data sheet"}
})";

std::string replaced(const std::string& from, const std::string& to) {
    std::string text = kGood;
    const auto at = text.find(from);
    if (at == std::string::npos)
        throw std::logic_error("test text has no " + from);
    return text.replace(at, from.size(), to);
}

QString error_of(const std::string& text) {
    try {
        parse_device_spec(text, "my-board.json");
    } catch (const cleave::InputError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class DeviceSpecTest : public QObject {
    Q_OBJECT

private slots:
    void validFileReadsEveryField() {
        const auto d = parse_device_spec(kGood, "my-board.json");
        QCOMPARE(d.id, std::string("my-board"));
        QCOMPARE(d.kind, DeviceKind::soc);
        QCOMPARE(d.file, std::string("my-board.json"));
        QCOMPARE(d.processing_elements.size(), std::size_t(3));
        const auto& gpu = d.processing_elements[2];
        QCOMPARE(gpu.kind, PeKind::gpu);
        QCOMPARE(gpu.compute_capability, std::string("7.2"));
        QCOMPARE(gpu.cuda_cores, 384);
        QCOMPARE(*gpu.peak_gflops.fp32, 844.8);
        QVERIFY(!gpu.peak_gflops.fp16);
        QCOMPARE(*d.memory->bus_width_bits, 128);
        QCOMPARE(d.power->modes_w, (std::vector<double>{10, 15}));
        QCOMPARE(*d.power->idle_w, 0.0);
        QCOMPARE(*d.network->latency_us, 0.0);
        QCOMPARE(d.processing_elements[0].caches[0].kind, std::string("unified"));
        QCOMPARE(cleave::device::cpu_cores(d), 6);
        QCOMPARE(cleave::device::gpu_of(d), &d.processing_elements[2]);
    }

    void coreNumbersFollowOnFromEarlierClusters() {
        const auto d = parse_device_spec(kGood, "my-board.json");
        QCOMPARE(d.processing_elements[0].core_ids, (std::vector<int>{0, 1}));
        QCOMPARE(d.processing_elements[1].core_ids, (std::vector<int>{2, 3, 4, 5}));
    }

    void givenCoreNumbersAreKept() {
        const auto d = parse_device_spec(
            replaced(R"("cores": 2, "clock_ghz": 2.0,)", R"("cores": 2, "core_ids": [4, 5],)"),
            "my-board.json");
        QCOMPARE(d.processing_elements[0].core_ids, (std::vector<int>{4, 5}));
        QCOMPARE(d.processing_elements[1].core_ids, (std::vector<int>{6, 7, 8, 9}));
    }

    void aPeSeesItsOwnBandwidthElseTheMemorys() {
        const auto d = parse_device_spec(kGood, "my-board.json");
        QCOMPARE(*cleave::device::memory_bandwidth_gbs(d, d.processing_elements[2]), 40.0);
        QCOMPARE(*cleave::device::memory_bandwidth_gbs(d, d.processing_elements[0]), 51.2);
    }

    void writtenFileReadsBackUnchanged() {
        const auto d = parse_device_spec(kGood, "my-board.json");
        const std::string text = cleave::device::device_spec_json(d);
        const auto again = parse_device_spec(text, "again.json");
        QCOMPARE(cleave::device::device_spec_json(again), text);
        QCOMPARE(again.processing_elements[1].core_ids, d.processing_elements[1].core_ids);
        QCOMPARE(*again.processing_elements[1].max_clock_ghz, 1.8);
        QVERIFY(text.find("\"cores\": 2") != std::string::npos);
        QVERIFY(text.find("core_ids") == std::string::npos); // default numbering is left implicit
    }

    void derivedPeakIsReadAndWrittenBack() {
        const auto d = parse_device_spec(
            replaced(R"({"fp32": 844.8, "source": "derived"})",
                     R"({"fp32": 844.8, "derived": true, "source": "384 x 2 x 1.1 GHz"})"),
            "my-board.json");
        QVERIFY(d.processing_elements[2].peak_gflops.derived);
        const std::string text = cleave::device::device_spec_json(d);
        QVERIFY(text.find("\"derived\": true") != std::string::npos);
        QVERIFY(parse_device_spec(text, "again.json").processing_elements[2].peak_gflops.derived);
    }

    void peakIsQuotedUnlessMarkedDerived() {
        const auto d = parse_device_spec(kGood, "my-board.json");
        QVERIFY(!d.processing_elements[2].peak_gflops.derived);
        // false is the default, so it is left implicit when written
        QVERIFY(cleave::device::device_spec_json(d).find("\"derived\":") == std::string::npos);
        const auto quoted = parse_device_spec(
            replaced(R"({"fp32": 844.8, "source": "derived"})",
                     R"({"fp32": 844.8, "derived": false, "source": "datasheet"})"),
            "my-board.json");
        QVERIFY(!quoted.processing_elements[2].peak_gflops.derived);
    }

    void derivedMustBeTrueOrFalse() {
        const QString expected =
            "my-board.json: /processing_elements/2/peak_gflops/derived: expected true or false "
            "(true: the rates are computed from cores, clock and FLOP per clock, the computation "
            "in source), found ";
        QCOMPARE(error_of(replaced(R"({"fp32": 844.8, "source": "derived"})",
                                   R"({"fp32": 844.8, "derived": "yes", "source": "x"})")),
                 expected + "\"yes\"");
        QCOMPARE(error_of(replaced(R"({"fp32": 844.8, "source": "derived"})",
                                   R"({"fp32": 844.8, "derived": 1, "source": "x"})")),
                 expected + "number");
    }

    void malformedJsonNamesTheByte() {
        QVERIFY(error_of(R"({"format": )").startsWith("my-board.json: byte "));
    }

    void wrongFormatIsRefused() {
        QCOMPARE(error_of(replaced(R"("format": "cleave-device")", R"("format": "onnx")")),
                 QString("my-board.json: /format: expected \"cleave-device\""));
    }

    void unknownVersionIsRefused() {
        QCOMPARE(error_of(replaced(R"("version": 1)", R"("version": 2)")),
                 QString("my-board.json: /version: version 2 is not known; expected 1"));
    }

    void wrongTypeNamesThePointerAndTheExpectedType() {
        QCOMPARE(error_of(replaced(R"("cores": 4)", R"("cores": "four")")),
                 QString("my-board.json: /processing_elements/1/cores: expected a whole number "
                         "from 1 to 4096, found string"));
        QCOMPARE(error_of(replaced(R"("bandwidth_gbs": 51.2)", R"("bandwidth_gbs": -3)")),
                 QString("my-board.json: /memory/bandwidth_gbs: expected a number > 0 (GB/s), "
                         "found -3"));
        QCOMPARE(error_of(replaced(R"("modes_w": [10, 15])", R"("modes_w": [10, "max"])")),
                 QString("my-board.json: /power/modes_w/1: expected a power budget > 0 (W), "
                         "found \"max\""));
        const auto network = kGood.find(R"("network": {)");
        QCOMPARE(error_of(kGood.substr(0, network) + R"("network": "Gigabit Ethernet"})"),
                 QString("my-board.json: /network: expected an object describing the network "
                         "interface, found string"));
    }

    void missingFieldNamesItsObject() {
        QCOMPARE(error_of(replaced(R"("id": "my-board", )", "")),
                 QString("my-board.json: /: missing \"id\"; expected a string"));
        QCOMPARE(error_of(replaced(R"("cores": 4, )", "")),
                 QString("my-board.json: /processing_elements/1: missing \"cores\"; expected a "
                         "whole number from 1 to 4096"));
    }

    void everySectionWithFiguresNamesItsSource() {
        const QString expected = "missing \"source\"; expected a string naming the datasheet or "
                                 "measurement its figures come from";
        QCOMPARE(error_of(replaced(R"("max_clock_ghz": 1.8, "source": "data sheet")",
                                   R"("max_clock_ghz": 1.8)")),
                 "my-board.json: /processing_elements/1: " + expected);
        QCOMPARE(
            error_of(replaced(R"({"fp32": 844.8, "source": "derived"})", R"({"fp32": 844.8})")),
            "my-board.json: /processing_elements/2/peak_gflops: " + expected);
        QCOMPARE(error_of(replaced(R"("bandwidth_gbs": 51.2,
             "source": "data sheet")",
                                   R"("bandwidth_gbs": 51.2)")),
                 "my-board.json: /memory: " + expected);
        QCOMPARE(error_of(replaced(R"("communication_w": 1.5, "source": "measured")",
                                   R"("communication_w": 1.5)")),
                 "my-board.json: /power: " + expected);
        QCOMPARE(error_of(replaced(R"("source": "the board data sheet")", R"("source": "")")),
                 "my-board.json: /source: expected a string naming the datasheet or measurement "
                 "its figures come from, found an empty string");
    }

    void unknownFieldIsRefusedWithTheKnownOnes() {
        const QString error = error_of(replaced(R"("clock_ghz": 1.1,)", R"("clock_mhz": 1100,)"));
        QVERIFY2(error.startsWith("my-board.json: /processing_elements/2/clock_mhz: unknown "
                                  "field; expected one of kind, name, arch, clock_ghz"),
                 qPrintable(error));
        QVERIFY(error.contains("compute_capability"));
    }

    void idMustBeKebabCase() {
        QCOMPARE(error_of(replaced(R"("id": "my-board")", R"("id": "My_Board")")),
                 QString("my-board.json: /id: expected a lower-case kebab-case id such as "
                         "\"jetson-xavier-nx\", found \"My_Board\""));
    }

    void idHasALengthLimit() {
        const std::string longest(cleave::device::kMaxDeviceIdLength, 'b');
        QCOMPARE(parse_device_spec(replaced(R"("id": "my-board")", "\"id\": \"" + longest + "\""),
                                   "my-board.json")
                     .id,
                 longest);
        QCOMPARE(error_of(replaced(R"("id": "my-board")", "\"id\": \"" + longest + "b\"")),
                 QString("my-board.json: /id: expected an id of at most 64 characters, found 65"));
    }

    void choicesListWhatIsAllowed() {
        QCOMPARE(error_of(replaced(R"("kind": "soc")", R"("kind": "fpga")")),
                 QString("my-board.json: /kind: expected one of cpu, gpu, npu, soc, found "
                         "\"fpga\""));
        QCOMPARE(
            error_of(replaced(R"("arch": "arm", "cores": 4)", R"("arch": "riscv", "cores": 4)")),
            QString("my-board.json: /processing_elements/1/arch: expected one of arm, "
                    "x86_64, found \"riscv\""));
    }

    void gpuFieldsAreChecked() {
        QCOMPARE(error_of(replaced(R"("compute_capability": "7.2")",
                                   R"("compute_capability": "sm_72")")),
                 QString("my-board.json: /processing_elements/2/compute_capability: expected "
                         "MAJOR.MINOR such as \"7.2\", found \"sm_72\""));
        QVERIFY(error_of(replaced(R"("arch": "NVIDIAVolta")", R"("arch": "NVIDIA Volta")"))
                    .startsWith("my-board.json: /processing_elements/2/arch: expected a GPU "
                                "architecture as AutoDiCE's platform.txt writes it"));
    }

    void maxClockBelowClockIsRefused() {
        QCOMPARE(error_of(replaced(R"("max_clock_ghz": 1.8)", R"("max_clock_ghz": 1.2)")),
                 QString("my-board.json: /processing_elements/1/max_clock_ghz: expected a clock "
                         "at least clock_ghz (1.5 GHz)"));
    }

    void reservesMustLeaveRoom() {
        const auto own = [](const std::string& memory) {
            return replaced(R"("memory_bandwidth_gbs": 40,)",
                            R"("memory_bandwidth_gbs": 40, )" + memory + ",");
        };
        const auto gpu = cleave::device::parse_device_spec(
            own(R"("memory_gib": 4, "memory_reserve_gib": 0.5)"), "my-board.json");
        QCOMPARE(*cleave::device::own_memory_bytes(gpu.processing_elements[2]), 4ll << 30);
        QCOMPARE(error_of(own(R"("memory_reserve_gib": 0.5)")),
                 QString("my-board.json: /processing_elements/2/memory_reserve_gib: expected it "
                         "only beside memory_gib (a PE sharing the device memory has the "
                         "device's reserve, memory.reserve_gib)"));
        QCOMPARE(error_of(own(R"("memory_gib": 4, "memory_reserve_gib": 4)")),
                 QString("my-board.json: /processing_elements/2/memory_reserve_gib: expected a "
                         "reserve below memory_gib (4 GiB)"));
        QCOMPARE(error_of(replaced(R"("bandwidth_gbs": 51.2,)",
                                   R"("bandwidth_gbs": 51.2, "reserve_gib": 9,)")),
                 QString("my-board.json: /memory/reserve_gib: expected a reserve below "
                         "capacity_gib (8 GiB)"));
    }

    void aSecondGpuIsRefused() {
        const std::string text = replaced(R"("busy_w": 8, "source": "data sheet"})",
                                          R"("busy_w": 8, "source": "data sheet"},
                        {"kind": "gpu", "name": "gpu2", "arch": "NVIDIAVolta", "source": "x"})");
        QCOMPARE(error_of(text),
                 QString("my-board.json: /processing_elements/3: a second GPU; expected at most "
                         "one GPU per device (AutoDiCE names a host's GPU \"gpu\")"));
    }

    void aCpuNumberUsedTwiceIsRefused() {
        QCOMPARE(error_of(replaced(R"("cores": 4, "clock_ghz": 1.5,)",
                                   R"("cores": 4, "core_ids": [2, 3, 1, 4], "clock_ghz": 1.5,)")),
                 QString("my-board.json: /processing_elements/1/core_ids/2: CPU 1 is already in "
                         "/processing_elements/0; expected each CPU number once per device"));
        QCOMPARE(error_of(replaced(R"("cores": 4, "clock_ghz": 1.5,)",
                                   R"("cores": 4, "core_ids": [2, 3], "clock_ghz": 1.5,)")),
                 QString("my-board.json: /processing_elements/1/core_ids: expected 4 CPU "
                         "numbers, one per core, found 2"));
    }

    void scatteredCpuNumbersFromTenUpHaveNoKeyAndAreRefused() {
        QVERIFY(error_of(replaced(R"("cores": 4, "clock_ghz": 1.5,)",
                                  R"("cores": 4, "core_ids": [2, 3, 11, 12], "clock_ghz": 1.5,)"))
                    .startsWith("my-board.json: /processing_elements/1/core_ids: CPUs numbered 10 "
                                "or more"));
    }

    void missingFileIsNamed() {
        try {
            cleave::device::load_device_spec("/nonexistent/board.json");
            QFAIL("accepted");
        } catch (const cleave::InputError& e) {
            QCOMPARE(QString(e.what()), QString("/nonexistent/board.json: cannot read; expected "
                                                "a device file (docs/devices.md)"));
        }
    }
};

QTEST_GUILESS_MAIN(DeviceSpecTest)
#include "device_spec_test.moc"
