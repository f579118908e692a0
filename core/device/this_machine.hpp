// `this-machine`: the computer Cleave runs on, described from what Linux reports (the CPU model,
// flags and clocks in /proc/cpuinfo and sysfs, the CPUs this process may use, the memory in
// /proc/meminfo). Its fp32 peak is derived from those (cores x clock x FLOP per clock, the SIMD
// width read from the flags); the memory bandwidth, which Linux does not report, is measured
// (memory_probe.hpp) once per CPU model and CPU set, and kept in the user library.
#pragma once

#include "device_spec.hpp"
#include "memory_probe.hpp"

#include <map>
#include <optional>
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
    // The memory bandwidth measured with every CPU above, and the file it is kept in ("" when it
    // was measured now and could not be kept); none: assumed per architecture.
    std::optional<MemoryProbe> memory;
    std::string memory_file;
};

DeviceSpec this_machine(const MachineFacts& facts);
// Reads the facts; the bandwidth from ${XDG_DATA_HOME:-~/.local/share}/cleave/this-machine.json
// when it was measured for this CPU model and CPU set, else measured now and written there.
DeviceSpec detect_this_machine();

} // namespace cleave::device
