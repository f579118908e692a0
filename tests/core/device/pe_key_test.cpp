// AutoDiCE's PE keys, `<host>_<resource>`: CPU cores as digits (`nx01_arm012345`), the GPU as
// `gpu`, and cores numbered 10 or more as a range (`cpu0-11`).
#include "core/device/pe_key.hpp"

#include <QtTest>
#include <stdexcept>

using cleave::device::pe_key;
using cleave::device::PeKind;
using cleave::device::ProcessingElement;

namespace {
ProcessingElement cpu(const std::string& arch, std::vector<int> ids) {
    ProcessingElement pe;
    pe.kind = PeKind::cpu;
    pe.name = "cpu";
    pe.arch = arch;
    pe.cores = static_cast<int>(ids.size());
    pe.core_ids = std::move(ids);
    return pe;
}
} // namespace

class PeKeyTest : public QObject {
    Q_OBJECT

private slots:
    void armCoresAreListedDigitByDigit() {
        QCOMPARE(pe_key("nx01", cpu("arm", {0, 1, 2, 3, 4, 5})), std::string("nx01_arm012345"));
    }

    // Read back: how many cores a key names, for a rank's thread count.
    void keysGiveTheirCoreCount() {
        using cleave::device::key_core_count;
        QCOMPARE(key_core_count("nx01_arm012345"), std::optional<int>(6));
        QCOMPARE(key_core_count("h1_cpu0"), std::optional<int>(1));
        QCOMPARE(key_core_count("pc_cpu0-15"), std::optional<int>(16));
        QCOMPARE(key_core_count("my_host_cpu4-7"), std::optional<int>(4));
        QCOMPARE(key_core_count("nx01_gpu"), std::nullopt);
        QCOMPARE(key_core_count("h1_cpu"), std::nullopt);
        QCOMPARE(key_core_count("h1_cpu7-3"), std::nullopt);
        QCOMPARE(key_core_count("h1_cpu99999999999-1"), std::nullopt);
        QCOMPARE(key_core_count("h1_cpu0-"), std::nullopt);
    }

    void gpuIsNamedGpu() {
        ProcessingElement gpu;
        gpu.kind = PeKind::gpu;
        gpu.arch = "NVIDIAVolta";
        QCOMPARE(pe_key("nx01", gpu), std::string("nx01_gpu"));
    }

    void x86CoresAreCpu() {
        QCOMPARE(pe_key("lenovo", cpu("x86_64", {0})), std::string("lenovo_cpu0"));
        QCOMPARE(pe_key("lenovo", cpu("x86_64", {0, 1, 2, 3})), std::string("lenovo_cpu0123"));
    }

    void coresAreListedInOrder() {
        QCOMPARE(pe_key("tx2", cpu("arm", {5, 0, 4, 3})), std::string("tx2_arm0345"));
    }

    void tenCoresOrMoreAreARange() {
        QCOMPARE(pe_key("xeon", cpu("x86_64", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})),
                 std::string("xeon_cpu0-11"));
        QCOMPARE(pe_key("big", cpu("arm", {10, 11})), std::string("big_arm10-11"));
    }

    void scatteredNumbersFromTenUpHaveNoName() {
        QVERIFY(!cleave::device::core_ids_nameable({2, 3, 11, 12}));
        QVERIFY(cleave::device::core_ids_nameable({1, 2, 5, 9}));
        QVERIFY(!cleave::device::core_ids_nameable({}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pe_key("host", cpu("arm", {2, 3, 11, 12})));
    }
};

QTEST_GUILESS_MAIN(PeKeyTest)
#include "pe_key_test.moc"
