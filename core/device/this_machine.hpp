// `this-machine`: the computer Cleave runs on, described from what Linux reports (the CPU model
// in /proc/cpuinfo, the CPUs this process may use, the memory in /proc/meminfo). It has no
// datasheet figures: no peak rates, no bandwidth, no power.
#pragma once

#include "device_spec.hpp"

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
};

DeviceSpec this_machine(const MachineFacts& facts);
DeviceSpec detect_this_machine();

} // namespace cleave::device
