// Which library device a platform.txt line describes: the one whose CPU architecture, total
// core count and GPU architecture fit (`arm, slots=0-5, gpu=NVIDIAVolta` -> jetson-xavier-nx).
#pragma once

#include "device_spec.hpp"
#include "platform_file.hpp"

#include <string>
#include <vector>

namespace cleave::device {

struct DeviceMatch {
    DeviceSpec device;
    std::string message; // "nx01: arm, 6 cores, gpu NVIDIAVolta -> jetson-xavier-nx"
};

// "arm", "aarch64", "arm64" -> "arm"; "x86", "x86_64", "amd64" -> "x86_64"; else "".
std::string cpu_arch_of_platform(const std::string& arch);

// The first device in `library` that fits; the message names it and any other that fits.
// Throws InputError(file, "line N", ...) for a bare host name or a line nothing fits.
DeviceMatch match_device(const PlatformHost& line, const std::vector<DeviceSpec>& library,
                         const std::string& file);

} // namespace cleave::device
