// `this-machine`: the computer Cleave runs on, described from what Linux reports (the CPU model,
// flags and clocks in /proc/cpuinfo and sysfs, the CPUs this process may use, the memory in
// /proc/meminfo). Its fp32 peak is derived from those (cores x clock x FLOP per clock, the SIMD
// width read from the flags); the memory bandwidth, which Linux does not report, is assumed.
#pragma once

#include "device_spec.hpp"

#include <map>
#include <string>
#include <vector>

namespace cleave::device {

inline constexpr const char* kThisMachine = "this-machine";

// What the operating system says, gathered by detect_this_machine.
struct MachineFacts {
    std::string cpuinfo;   // the text of /proc/cpuinfo
    std::string meminfo;   // the text of /proc/meminfo
    std::string machine;   // uname's machine: "x86_64", "aarch64"
    std::vector<int> cpus; // the CPUs this process may run on
    // CPU number -> /sys/devices/system/cpu/cpuN/cpufreq/cpuinfo_max_freq (kHz), where present
    std::map<int, double> max_freq_khz;
};

DeviceSpec this_machine(const MachineFacts& facts);
DeviceSpec detect_this_machine();

} // namespace cleave::device
