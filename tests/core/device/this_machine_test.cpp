// `this-machine` is described from what Linux reports: the CPU model, the CPUs this process may
// use and the memory; it claims no datasheet figures.
#include "core/device/pe_key.hpp"
#include "core/device/this_machine.hpp"

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
    }
};

QTEST_GUILESS_MAIN(ThisMachineTest)
#include "this_machine_test.moc"
