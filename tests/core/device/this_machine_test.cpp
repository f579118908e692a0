// `this-machine` is described from what Linux reports: the CPU model, the CPUs this process may
// use and the memory; its fp32 peak is derived from the cores, clocks and SIMD flags Linux
// reports, and its memory bandwidth is measured once per CPU model and CPU set and kept in the
// user library (without a measurement, an assumption it says it is).
#include "core/device/device_library.hpp"
#include "core/device/pe_key.hpp"
#include "core/device/this_machine.hpp"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <sched.h>
#include <stdexcept>

using cleave::device::MachineFacts;
using cleave::device::this_machine;

namespace {
std::vector<int> range(int first, int count, int step = 1) {
    std::vector<int> ids;
    for (int i = 0; i < count; ++i)
        ids.push_back(first + i * step);
    return ids;
}

// /proc/cpuinfo of an x86 machine: one block per logical CPU, `cores` physical cores with
// `threads` SMT siblings each, numbered as Linux numbers them (siblings cores apart).
std::string x86_cpuinfo(const std::string& model, const std::string& mhz, int cores, int threads,
                        const std::string& flags) {
    std::string text;
    for (int cpu = 0; cpu < cores * threads; ++cpu)
        text += "processor\t: " + std::to_string(cpu) +
                "\nvendor_id\t: GenuineIntel\nmodel name\t: " + model + "\ncpu MHz\t\t: " + mhz +
                "\nphysical id\t: 0\nsiblings\t: " + std::to_string(cores * threads) +
                "\ncore id\t\t: " + std::to_string(cpu % cores) +
                "\ncpu cores\t: " + std::to_string(cores) + "\nflags\t\t: fpu sse sse2 " + flags +
                "\n\n";
    return text;
}

// /proc/cpuinfo of an aarch64 board: no core numbering, one Arm core type per CPU.
std::string arm_cpuinfo(const std::vector<std::pair<std::string, std::string>>& cpus,
                        const std::string& board) {
    std::string text;
    for (std::size_t cpu = 0; cpu < cpus.size(); ++cpu)
        text += "processor\t: " + std::to_string(cpu) +
                "\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\n"
                "CPU implementer\t: " +
                cpus[cpu].first + "\nCPU architecture: 8\nCPU part\t: " + cpus[cpu].second + "\n\n";
    return text + "Hardware\t: BCM2835\nModel\t\t: " + board + "\n";
}

std::map<int, double> max_khz(int count, double khz) {
    std::map<int, double> freq;
    for (int cpu = 0; cpu < count; ++cpu)
        freq[cpu] = khz;
    return freq;
}
} // namespace

class ThisMachineTest : public QObject {
    Q_OBJECT

private slots:
    void x86ServerReadsModelCpusAndMemory() {
        MachineFacts facts;
        facts.cpuinfo = "processor\t: 0\nvendor_id\t: GenuineIntel\n"
                        "model name\t: Intel(R) Xeon(R) Processor\nflags\t\t: fpu\n";
        facts.meminfo = "MemTotal:       16777216 kB\nMemFree:  1 kB\n";
        facts.machine = "x86_64";
        facts.cpus = range(0, 16);
        const auto d = this_machine(facts);
        QCOMPARE(d.id, std::string("this-machine"));
        QCOMPARE(d.name, std::string("This machine (Intel(R) Xeon(R) Processor)"));
        QCOMPARE(d.source, std::string("detected"));
        const auto& cpu = d.processing_elements.at(0);
        QCOMPARE(cpu.arch, std::string("x86_64"));
        QCOMPARE(cpu.cores, 16);
        QCOMPARE(cleave::device::pe_key("me", cpu), std::string("me_cpu0-15"));
        QVERIFY(!cpu.peak_gflops.fp32);
        QCOMPARE(*d.memory->capacity_gib, 16.0);
        QVERIFY(!d.memory->bandwidth_gbs);
    }

    void armBoardTakesItsModelLine() {
        MachineFacts facts;
        facts.cpuinfo = "processor\t: 0\nBogoMIPS\t: 108.00\nModel\t\t: Raspberry Pi 4 Model B "
                        "Rev 1.4\n";
        facts.machine = "aarch64";
        facts.cpus = range(0, 4);
        const auto d = this_machine(facts);
        QCOMPARE(d.processing_elements[0].core_type, std::string("Raspberry Pi 4 Model B Rev 1.4"));
        QCOMPARE(cleave::device::pe_key("pi", d.processing_elements[0]), std::string("pi_arm0123"));
        QVERIFY(!d.memory);
    }

    void allowedCpusKeepTheirNumbers() {
        MachineFacts facts;
        facts.machine = "x86_64";
        facts.cpus = {2, 3};
        const auto d = this_machine(facts);
        QCOMPARE(cleave::device::pe_key("me", d.processing_elements[0]), std::string("me_cpu23"));
        QCOMPARE(d.processing_elements[0].core_type, std::string("unknown CPU"));
    }

    void scatteredCpusFromTenUpAreNumberedFromZero() {
        MachineFacts facts;
        facts.machine = "x86_64";
        facts.cpus = range(0, 12, 2); // 0, 2, ... 22
        const auto d = this_machine(facts);
        QCOMPARE(d.processing_elements[0].cores, 12);
        QCOMPARE(cleave::device::pe_key("me", d.processing_elements[0]), std::string("me_cpu0-11"));
    }

    void avx2DesktopCountsPhysicalCoresAtTheirMaximumClock() {
        MachineFacts facts;
        facts.machine = "x86_64";
        // An i7-8700: 6 cores, 12 threads, idling at 800 MHz, up to 4.6 GHz
        facts.cpuinfo =
            x86_cpuinfo("Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", "800.000", 6, 2, "avx avx2 fma");
        facts.cpus = range(0, 12);
        facts.max_freq_khz = max_khz(12, 4600000);
        const auto cpu = this_machine(facts).processing_elements.at(0);
        QCOMPARE(cpu.cores, 12); // the PE keeps every logical CPU, for its key
        QCOMPARE(cpu.threads_per_core, 2);
        QCOMPARE(*cpu.clock_ghz, 4.6);
        QCOMPARE(*cpu.peak_gflops.fp32, 6 * 4.6 * 32); // 883.2
        QVERIFY(cpu.peak_gflops.derived);
        QVERIFY2(cpu.peak_gflops.source.find("6 cores x 4.6 GHz (cpuinfo_max_freq) x 32 FP32 FLOP "
                                             "per clock (avx2 and fma") != std::string::npos,
                 cpu.peak_gflops.source.c_str());
        QVERIFY(cpu.note.starts_with("6 physical cores (distinct physical id and core id"));
    }

    void withoutCpufreqTheModelNamesClockCounts() {
        MachineFacts facts;
        facts.machine = "x86_64";
        facts.cpuinfo =
            x86_cpuinfo("Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", "800.000", 6, 2, "avx avx2 fma");
        facts.cpus = range(0, 12);
        const auto cpu = this_machine(facts).processing_elements.at(0);
        QCOMPARE(*cpu.peak_gflops.fp32, 6 * 3.2 * 32); // 614.4
        QVERIFY(cpu.peak_gflops.source.find("(the model name)") != std::string::npos);
    }

    void avx512VirtualMachineTakesCpuMhz() {
        // This kind of machine: a KVM guest whose model name has no clock and no cpufreq
        MachineFacts facts;
        facts.machine = "x86_64";
        facts.cpuinfo = x86_cpuinfo("Intel(R) Xeon(R) Processor", "2299.998", 2, 1,
                                    "avx avx2 fma avx512f avx512bw");
        facts.cpus = range(0, 2);
        const auto cpu = this_machine(facts).processing_elements.at(0);
        QCOMPARE(cpu.threads_per_core, 1);
        QCOMPARE(*cpu.clock_ghz, 2.3);
        QCOMPARE(*cpu.peak_gflops.fp32, 294.4); // 2 x 2.3 x 64
        QVERIFY2(cpu.peak_gflops.source.find("64 FP32 FLOP per clock (avx512f: 16 lanes x 2 (FMA) "
                                             "x 2 FMA units") != std::string::npos,
                 cpu.peak_gflops.source.c_str());
    }

    void amdCoresAreToldApartByFamily() {
        // This project's CI machine: a KVM guest of an AMD EPYC (Zen 4: cpu family 25 with
        // AVX-512), whose 512-bit work runs on two 256-bit FMA pipes: half an Intel core's rate.
        const auto amd = [](const std::string& family, const std::string& model,
                            const std::string& flags) {
            auto text = x86_cpuinfo("AMD EPYC", "2500.000", 2, 1, flags);
            for (std::size_t at = 0; (at = text.find("GenuineIntel", at)) != std::string::npos;)
                text.replace(at, 12,
                             "AuthenticAMD\ncpu family\t: " + family + "\nmodel\t\t: " + model);
            return text;
        };
        MachineFacts facts;
        facts.machine = "x86_64";
        facts.cpus = range(0, 2);
        facts.cpuinfo = amd("25", "17", "avx avx2 fma avx512f avx512bw");
        auto cpu = this_machine(facts).processing_elements.at(0);
        QCOMPARE(*cpu.peak_gflops.fp32, 2 * 2.5 * 32);
        QVERIFY2(cpu.peak_gflops.source.find("AMD Zen 4") != std::string::npos,
                 cpu.peak_gflops.source.c_str());
        // Zen 3 (family 25, no AVX-512) and Zen 2 (family 23, model 0x31): two 256-bit pipes.
        facts.cpuinfo = amd("25", "33", "avx avx2 fma");
        QCOMPARE(*this_machine(facts).processing_elements[0].peak_gflops.fp32, 2 * 2.5 * 32);
        facts.cpuinfo = amd("23", "49", "avx avx2 fma");
        QCOMPARE(*this_machine(facts).processing_elements[0].peak_gflops.fp32, 2 * 2.5 * 32);
        // Zen+ (family 23, model 8): two 128-bit pipes.
        facts.cpuinfo = amd("23", "8", "avx avx2 fma");
        QCOMPARE(*this_machine(facts).processing_elements[0].peak_gflops.fp32, 2 * 2.5 * 16);
    }

    void olderSimdFlagsGiveLessPerClock() {
        MachineFacts facts;
        facts.machine = "x86_64";
        facts.cpus = range(0, 4);
        facts.max_freq_khz = max_khz(4, 3000000);
        facts.cpuinfo = x86_cpuinfo("Sandy Bridge", "1600.000", 4, 1, "avx");
        QCOMPARE(*this_machine(facts).processing_elements[0].peak_gflops.fp32, 4 * 3.0 * 16);
        facts.cpuinfo = x86_cpuinfo("Core 2", "1600.000", 4, 1, "");
        QCOMPARE(*this_machine(facts).processing_elements[0].peak_gflops.fp32, 4 * 3.0 * 8);
    }

    void smtSiblingsOfOneCoreCountOnce() {
        MachineFacts facts;
        facts.machine = "x86_64";
        facts.cpuinfo = x86_cpuinfo("Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", "3200.000", 6, 2,
                                    "avx avx2 fma");
        facts.cpus = {0, 6}; // core 0 and its sibling
        const auto cpu = this_machine(facts).processing_elements.at(0);
        QCOMPARE(cpu.cores, 2);
        QCOMPARE(*cpu.peak_gflops.fp32, 1 * 3.2 * 32);
        QVERIFY(cpu.note.starts_with("1 physical core (distinct"));
    }

    void armBoardMatchesTheLibrarysDerivation() {
        // A Raspberry Pi 4: four Cortex-A72 (CPU part 0xd08) at 1.5 GHz, as raspberry-pi-4 derives
        MachineFacts facts;
        facts.machine = "aarch64";
        facts.cpuinfo =
            arm_cpuinfo(std::vector<std::pair<std::string, std::string>>(4, {"0x41", "0xd08"}),
                        "Raspberry Pi 4 Model B Rev 1.4");
        facts.cpus = range(0, 4);
        facts.max_freq_khz = max_khz(4, 1500000);
        const auto d = this_machine(facts);
        const auto& cpu = d.processing_elements.at(0);
        QCOMPARE(cpu.core_type, std::string("Raspberry Pi 4 Model B Rev 1.4"));
        QCOMPARE(*cpu.peak_gflops.fp32,
                 *cleave::device::find_device("raspberry-pi-4")
                      .processing_elements[0]
                      .peak_gflops.fp32); // 48
        QVERIFY(cpu.note.starts_with("4 logical CPUs this process may use; /proc/cpuinfo numbers "
                                     "no cores"));
        // An Arm core Cleave has no table entry for: two 128-bit FMA pipes assumed
        facts.cpuinfo =
            arm_cpuinfo(std::vector<std::pair<std::string, std::string>>(4, {"0x41", "0xd0b"}),
                        "Raspberry Pi 5 Model B Rev 1.0");
        facts.max_freq_khz = max_khz(4, 2400000);
        QCOMPARE(*this_machine(facts).processing_elements[0].peak_gflops.fp32,
                 *cleave::device::find_device("raspberry-pi-5")
                      .processing_elements[0]
                      .peak_gflops.fp32); // 153.6
    }

    void bigLittleSumsItsCores() {
        // A Jetson TX2: Denver 2 as CPUs 1 and 2, Cortex-A57 as 0, 3, 4, 5, all at 2 GHz
        MachineFacts facts;
        facts.machine = "aarch64";
        facts.cpuinfo = arm_cpuinfo({{"0x41", "0xd07"},
                                     {"0x4e", "0x003"},
                                     {"0x4e", "0x003"},
                                     {"0x41", "0xd07"},
                                     {"0x41", "0xd07"},
                                     {"0x41", "0xd07"}},
                                    "quill");
        facts.cpus = range(0, 6);
        facts.max_freq_khz = max_khz(6, 2035200);
        const auto cpu = this_machine(facts).processing_elements.at(0);
        QCOMPARE(*cpu.peak_gflops.fp32, 4 * 2.035 * 8 + 2 * 2.035 * 16); // 130.24
        QVERIFY2(cpu.peak_gflops.source.find("4 cores x 2.035 GHz (cpuinfo_max_freq) x 8 FP32 "
                                             "FLOP per clock (Cortex-A57") != std::string::npos,
                 cpu.peak_gflops.source.c_str());
    }

    void withoutAClockThereIsNoPeakAndTheNoteSaysWhy() {
        MachineFacts facts;
        facts.machine = "aarch64";
        facts.cpuinfo = arm_cpuinfo({{"0x41", "0xd08"}}, "board");
        facts.cpus = {0};
        const auto cpu = this_machine(facts).processing_elements.at(0);
        QVERIFY(!cpu.peak_gflops.fp32);
        QVERIFY(!cpu.peak_gflops.derived);
        QVERIFY2(cpu.note.find("No fp32 peak: neither sysfs nor /proc/cpuinfo gives CPU 0's "
                               "clock") != std::string::npos,
                 cpu.note.c_str());
    }

    void memoryBandwidthIsAnAssumptionSaidAsSuch() {
        MachineFacts facts;
        facts.machine = "x86_64";
        facts.cpus = {0};
        facts.meminfo = "MemTotal:       16777216 kB\n";
        const auto d = this_machine(facts);
        QCOMPARE(*d.processing_elements[0].memory_bandwidth_gbs, 51.2);
        QVERIFY(d.processing_elements[0].note.find("Memory bandwidth 51.2 GB/s is assumed, not "
                                                   "detected") != std::string::npos);
        QVERIFY(!d.memory->bandwidth_gbs); // the device's memory holds only what was detected
        facts.machine = "aarch64";
        QCOMPARE(*this_machine(facts).processing_elements[0].memory_bandwidth_gbs, 25.6);
    }

    void aMeasuredBandwidthIsUsedAndSaysHow() {
        MachineFacts facts;
        facts.machine = "x86_64";
        facts.cpus = {0, 1};
        facts.memory = cleave::device::MemoryProbe{18.34, 2, std::size_t{256} << 20, 3};
        facts.memory_file = "/home/me/.local/share/cleave/this-machine.json";
        const auto& cpu = this_machine(facts).processing_elements[0];
        QCOMPARE(*cpu.memory_bandwidth_gbs, 18.3);
        QVERIFY2(cpu.note.find("Memory bandwidth 18.3 GB/s is measured: 2 threads each summing "
                               "their share of 256 MiB, the best of 3 passes (kept in "
                               "/home/me/.local/share/cleave/this-machine.json") !=
                     std::string::npos,
                 cpu.note.c_str());
        QVERIFY(cpu.source.find("memory bandwidth measured") != std::string::npos);
    }

    // A small buffer still gives a positive bandwidth, with what was measured recorded.
    void theProbeReadsItsBuffer() {
        for (const int threads : {1, 2}) {
            const auto probe = cleave::device::probe_memory_bandwidth(threads, 8 << 20, 2);
            QVERIFY2(probe.gbs > 0.1 && probe.gbs < 10000, qPrintable(QString::number(probe.gbs)));
            QCOMPARE(probe.threads, threads);
            QCOMPARE(probe.bytes, std::size_t{8} << 20);
            QCOMPARE(probe.passes, 2);
        }
    }

    // The curve reads working sets of 4 MiB to 512 MiB, each doubling, every one at a bandwidth.
    void theCurveDoublesItsWorkingSet() {
        const auto curve = cleave::device::probe_memory_curve(1);
        QCOMPARE(curve.size(), std::size_t{8});
        for (std::size_t i = 0; i < curve.size(); ++i) {
            QCOMPARE(curve[i].bytes, static_cast<double>(std::size_t{4} << 20 << i));
            QVERIFY2(curve[i].gbs > 0.1 && curve[i].gbs < 10000,
                     qPrintable(QString::number(curve[i].gbs)));
        }
    }

    // Detection measures once and keeps the figure in the user library; a kept figure is read
    // back, and a kept file that is not one is measured over.
    void detectionKeepsItsMeasurementInTheUserLibrary() {
        QTemporaryDir data;
        const QByteArray previous = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", data.path().toUtf8());
        const QString file = data.filePath("cleave/this-machine.json");
        const auto first = cleave::device::detect_this_machine();
        QVERIFY(QFile::exists(file));
        QVERIFY(first.processing_elements[0].note.find("is measured") != std::string::npos);

        QFile kept(file);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QJsonObject doc = QJsonDocument::fromJson(kept.readAll()).object();
        kept.close();
        doc["memory_bandwidth_gbs"] = 1234.5;
        QVERIFY(kept.open(QIODevice::WriteOnly | QIODevice::Truncate));
        kept.write(QJsonDocument(doc).toJson());
        kept.close();
        QCOMPARE(*cleave::device::detect_this_machine().processing_elements[0].memory_bandwidth_gbs,
                 1234.5);

        QVERIFY(kept.open(QIODevice::WriteOnly | QIODevice::Truncate));
        kept.write("{\"cpu\": 3");
        kept.close();
        const auto again = cleave::device::detect_this_machine();
        QVERIFY(*again.processing_elements[0].memory_bandwidth_gbs != 1234.5);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QVERIFY(
            QJsonDocument::fromJson(kept.readAll()).object()["memory_bandwidth_gbs"].toDouble() >
            0);
        qputenv("XDG_DATA_HOME", previous);
    }

    void writtenDeviceReadsBackWithItsDerivedPeak() {
        MachineFacts facts;
        facts.machine = "x86_64";
        facts.cpuinfo =
            x86_cpuinfo("Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", "800.000", 6, 2, "avx avx2 fma");
        facts.cpus = range(0, 12);
        const auto d = this_machine(facts);
        const std::string text = cleave::device::device_spec_json(d);
        const auto again = cleave::device::parse_device_spec(text, "me.json");
        QCOMPARE(cleave::device::device_spec_json(again), text);
        QVERIFY(again.processing_elements[0].peak_gflops.derived);
    }

    void unknownArchitectureIsRefused() {
        MachineFacts facts;
        facts.machine = "riscv64";
        facts.cpus = {0};
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, this_machine(facts));
    }

    void detectionFindsTheCpusThisProcessMayUse() {
        const auto d = cleave::device::detect_this_machine();
        cpu_set_t allowed;
        CPU_ZERO(&allowed);
        QCOMPARE(::sched_getaffinity(0, sizeof allowed, &allowed), 0);
        QCOMPARE(d.processing_elements[0].cores, CPU_COUNT(&allowed));
        QVERIFY(d.memory && *d.memory->capacity_gib > 0);
        // A peak wherever Linux gives a clock and SIMD flags; else the note says which is missing
        const auto& cpu = d.processing_elements[0];
        QVERIFY2((cpu.peak_gflops.fp32 && *cpu.peak_gflops.fp32 > 0 && cpu.peak_gflops.derived) ||
                     cpu.note.find("No fp32 peak: ") != std::string::npos,
                 cpu.note.c_str());
    }
};

QTEST_GUILESS_MAIN(ThisMachineTest)
#include "this_machine_test.moc"
