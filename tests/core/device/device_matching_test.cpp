// A platform.txt line is matched to the library device whose CPU architecture, core count and
// GPU architecture fit; the message names the match and anything else that fits.
#include "core/device/device_library.hpp"
#include "core/device/device_matching.hpp"
#include "core/input_error.hpp"

#include <QtTest>

using cleave::device::match_device;
using cleave::device::parse_platform_file;

namespace {

cleave::device::DeviceMatch matched(const std::string& line) {
    const auto platform = parse_platform_file(line + "\n", "platform.txt");
    return match_device(platform.hosts.at(0), cleave::device::library_devices(), "platform.txt");
}

std::string id_of(const std::string& line) {
    return matched(line).device.id;
}

QString error_of(const std::string& text) {
    try {
        const auto platform = parse_platform_file(text, "platform.txt");
        for (const auto& host : platform.hosts)
            match_device(host, cleave::device::library_devices(), "platform.txt");
    } catch (const cleave::InputError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class DeviceMatchingTest : public QObject {
    Q_OBJECT

private slots:
    void sixArmCoresAndVoltaIsXavierNx() {
        const auto match = matched("nx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)");
        QCOMPARE(match.device.id, std::string("jetson-xavier-nx"));
        QCOMPARE(match.message, std::string("nx01: arm, 6 cores, gpu NVIDIAVolta -> "
                                            "jetson-xavier-nx"));
    }

    void jetsonsAreToldApartByCoresAndGpu() {
        QCOMPARE(id_of("agx, arm, slots=0-7, gpu=NVIDIAVolta (CUDA)"),
                 std::string("jetson-agx-xavier"));
        QCOMPARE(id_of("tx2, arm, slots=0-5, gpu=NVIDIAPascal (CUDA)"), std::string("jetson-tx2"));
        QCOMPARE(id_of("orin, arm, slots=0-5, gpu=NVIDIAAmpere (CUDA)"),
                 std::string("jetson-orin-nano"));
        QCOMPARE(id_of("nano, arm, slots=0-3, gpu=NVIDIAMaxwell (CUDA)"),
                 std::string("jetson-nano"));
    }

    void architectureSpellingsAreAccepted() {
        QCOMPARE(id_of("nx01, aarch64, slots=0-5, gpu=NVIDIAVolta"),
                 std::string("jetson-xavier-nx"));
        QCOMPARE(cleave::device::cpu_arch_of_platform("amd64"), std::string("x86_64"));
        QCOMPARE(cleave::device::cpu_arch_of_platform("arm64"), std::string("arm"));
        QCOMPARE(cleave::device::cpu_arch_of_platform("mips"), std::string());
    }

    void theEarlierLibraryDeviceWinsAndTheOthersAreNamed() {
        const auto pi = matched("pi, arm, slots=0-3");
        QCOMPARE(pi.device.id, std::string("raspberry-pi-4"));
        QCOMPARE(pi.message, std::string("pi: arm, 4 cores, no gpu -> raspberry-pi-4 (also fits "
                                         "raspberry-pi-5, raspberry-pi-5-16gb; a cluster file can "
                                         "name another)"));
        const auto nuc = matched("nuc, x86, slots=0-3");
        QCOMPARE(nuc.device.id, std::string("intel-nuc"));
        QVERIFY(nuc.message.find("also fits intel-n100-mini-pc, xeon-ort-4t") != std::string::npos);
    }

    void measuredXeonsFitByThreadCount() {
        QCOMPARE(id_of("xeon, x86, slots=0-15"), std::string("xeon-ort-16t"));
        QCOMPARE(id_of("xeon, x86, slots=0"), std::string("xeon-ort-1t"));
    }

    void aGpuOnTheLineNeedsAGpuOnTheDevice() {
        QCOMPARE(error_of("pi, arm, slots=0-3, gpu=NVIDIAVolta (CUDA)\n"),
                 QString("platform.txt: line 1: no library device fits pi (arm, 4 cores, gpu "
                         "NVIDIAVolta); expected one of jetson-xavier-nx (arm, 6 cores, gpu "
                         "NVIDIAVolta); jetson-agx-xavier (arm, 8 cores, gpu NVIDIAVolta); "
                         "jetson-tx2 (arm, 6 cores, gpu NVIDIAPascal); jetson-orin-nano (arm, 6 "
                         "cores, gpu NVIDIAAmpere); jetson-orin-nano-super (arm, 6 cores, gpu "
                         "NVIDIAAmpere); jetson-orin-nx-16gb (arm, 8 cores, gpu NVIDIAAmpere); "
                         "jetson-agx-orin-32gb (arm, 8 cores, gpu NVIDIAAmpere); "
                         "jetson-agx-orin-64gb (arm, 12 cores, gpu NVIDIAAmpere); jetson-nano "
                         "(arm, 4 cores, gpu NVIDIAMaxwell); raspberry-pi-4 (arm, 4 cores, no "
                         "gpu); raspberry-pi-5 (arm, 4 cores, no gpu); raspberry-pi-5-16gb (arm, "
                         "4 cores, no gpu), or a cluster file (*.cluster.json) naming the "
                         "device"));
    }

    void aBareHostNameNeedsAClusterFile() {
        QCOMPARE(error_of("# hosts\nnx01\n"),
                 QString("platform.txt: line 2: nx01 is a bare host name, which says nothing of "
                         "its device; expected `nx01, ARCH, slots=FIRST-LAST[, gpu=ARCH (API)]`, "
                         "or a cluster file (*.cluster.json) naming its device"));
    }

    void unknownArchitectureNamesTheLine() {
        QCOMPARE(error_of("nx01, arm, slots=0-5\nbox, sparc, slots=0-3\n").left(52),
                 QString("platform.txt: line 1: no library device fits nx01 (a"));
        QCOMPARE(error_of("box, sparc, slots=0-3\n"),
                 QString("platform.txt: line 1: CPU architecture \"sparc\" is not known; "
                         "expected arm or x86 (aarch64, x86_64)"));
    }
};

QTEST_GUILESS_MAIN(DeviceMatchingTest)
#include "device_matching_test.moc"
