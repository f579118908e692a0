// The power figures a PE's energy is computed from, with the figure each comes from: busy power
// is the PE's busy_w, else its tdp_w, else the device's highest power mode (both upper bounds);
// communication power is the device's communication_w, else its idle_w, else the busy figure.
#pragma once

#include "device_spec.hpp"

#include <string>

namespace cleave::device {

// NaN where the device gives none.
struct PePower {
    double busy_w = 0;          // while it computes
    double communication_w = 0; // while it sends or receives
    std::string busy_source;    // "busy_w", "tdp_w", "highest power mode"
    std::string communication_source;
};

PePower pe_power(const DeviceSpec& device, const ProcessingElement& pe);

} // namespace cleave::device
