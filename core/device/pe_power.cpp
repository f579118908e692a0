#include "pe_power.hpp"

#include <algorithm>
#include <limits>

namespace cleave::device {

PePower pe_power(const DeviceSpec& device, const ProcessingElement& pe) {
    PePower power;
    power.busy_w = std::numeric_limits<double>::quiet_NaN();
    if (pe.busy_w) {
        power.busy_w = *pe.busy_w;
        power.busy_source = "the PE's busy power";
    } else if (pe.tdp_w) {
        power.busy_w = *pe.tdp_w;
        power.busy_source = "the PE's thermal design power (an upper bound)";
    } else if (device.power && !device.power->modes_w.empty()) {
        power.busy_w =
            *std::max_element(device.power->modes_w.begin(), device.power->modes_w.end());
        power.busy_source = "the device's highest power mode (an upper bound)";
    }
    if (device.power && device.power->communication_w) {
        power.communication_w = *device.power->communication_w;
        power.communication_source = "the device's communication power";
    } else if (device.power && device.power->idle_w) {
        power.communication_w = *device.power->idle_w;
        power.communication_source = "the device's idle power (no communication power given)";
    } else {
        power.communication_w = power.busy_w;
        power.communication_source =
            power.busy_source.empty() ? ""
                                      : power.busy_source + ", as no communication power is given";
    }
    return power;
}

} // namespace cleave::device
