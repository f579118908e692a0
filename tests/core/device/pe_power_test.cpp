// The power a PE's energy is computed from, each figure with the one it comes from: busy power
// from the PE's busy_w, else its tdp_w, else the device's highest power mode; communication power
// from the device's communication_w, else its idle_w, else the busy figure.
#include "core/device/device_library.hpp"
#include "core/device/pe_power.hpp"

#include <QtTest>
#include <cmath>

using namespace cleave;

namespace {

// A device of one CPU PE whose power section holds modes of 7, 25 and 12 W.
device::DeviceSpec board() {
    device::DeviceSpec spec;
    spec.id = "board";
    spec.processing_elements.push_back({});
    spec.power = device::Power{};
    spec.power->modes_w = {7, 25, 12};
    return spec;
}

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

class PePowerTest : public QObject {
    Q_OBJECT

private slots:
    void thePesOwnBusyPowerComesFirst() {
        auto spec = board();
        auto& pe = spec.processing_elements[0];
        pe.busy_w = 4.5;
        pe.tdp_w = 9;
        spec.power->communication_w = 1.25;
        spec.power->idle_w = 0.5;
        const auto power = device::pe_power(spec, pe);
        QCOMPARE(power.busy_w, 4.5);
        QCOMPARE(text(power.busy_source), QString("the PE's busy power"));
        QCOMPARE(power.communication_w, 1.25);
        QCOMPARE(text(power.communication_source), QString("the device's communication power"));
    }

    void thermalDesignPowerIsTheNextUpperBound() {
        auto spec = board();
        auto& pe = spec.processing_elements[0];
        pe.tdp_w = 9;
        spec.power->idle_w = 0.5;
        const auto power = device::pe_power(spec, pe);
        QCOMPARE(power.busy_w, 9.0);
        QCOMPARE(text(power.busy_source),
                 QString("the PE's thermal design power (an upper bound)"));
        // No communication power: the idle power stands in.
        QCOMPARE(power.communication_w, 0.5);
        QCOMPARE(text(power.communication_source),
                 QString("the device's idle power (no communication power given)"));
    }

    void theHighestPowerModeIsTheLastResort() {
        const auto spec = board();
        const auto power = device::pe_power(spec, spec.processing_elements[0]);
        QCOMPARE(power.busy_w, 25.0);
        QCOMPARE(text(power.busy_source),
                 QString("the device's highest power mode (an upper bound)"));
        // Neither communication nor idle power: communication draws the busy figure.
        QCOMPARE(power.communication_w, 25.0);
        QCOMPARE(text(power.communication_source),
                 QString("the device's highest power mode (an upper bound), as no communication "
                         "power is given"));
    }

    void powerFallsBackToTheHighestPowerMode() {
        // The Jetson Xavier NX's data sheet gives its 10 W and 15 W modes, nothing else.
        const auto nx = *device::library_device("jetson-xavier-nx");
        const auto power = device::pe_power(nx, nx.processing_elements[1]);
        QCOMPARE(power.busy_w, 15.0);
        QCOMPARE(power.communication_w, 15.0);
    }

    void aDeviceWithoutFiguresHasNone() {
        auto spec = board();
        spec.power.reset();
        const auto power = device::pe_power(spec, spec.processing_elements[0]);
        QVERIFY(std::isnan(power.busy_w));
        QVERIFY(std::isnan(power.communication_w));
        QVERIFY(power.busy_source.empty());
        QVERIFY(power.communication_source.empty());
        // A communication power alone still counts for communication.
        spec.power = device::Power{};
        spec.power->communication_w = 2;
        const auto talking = device::pe_power(spec, spec.processing_elements[0]);
        QVERIFY(std::isnan(talking.busy_w));
        QCOMPARE(talking.communication_w, 2.0);
    }
};

QTEST_APPLESS_MAIN(PePowerTest)
#include "pe_power_test.moc"
