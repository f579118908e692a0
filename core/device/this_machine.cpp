#include "this_machine.hpp"

#include "pe_key.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <stdexcept>
#include <sys/utsname.h>
#include <thread>

namespace cleave::device {

namespace {

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    const auto last = text.find_last_not_of(" \t\r");
    return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

// The value of the first "key : value" line with this key, or "".
std::string field(const std::string& text, const std::string& key) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const auto colon = line.find(':');
        if (colon != std::string::npos && trimmed(line.substr(0, colon)) == key)
            return trimmed(line.substr(colon + 1));
    }
    return {};
}

std::string read_text(const char* path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string cpu_arch(const std::string& machine) {
    if (machine == "x86_64" || machine == "amd64" || machine == "i686" || machine == "i386")
        return "x86_64";
    if (machine.starts_with("aarch64") || machine.starts_with("arm"))
        return "arm";
    throw std::runtime_error("this-machine: CPU architecture \"" + machine +
                             "\" is not modelled; expected x86_64 or an Arm CPU");
}

} // namespace

DeviceSpec this_machine(const MachineFacts& facts) {
    std::string model = field(facts.cpuinfo, "model name"); // x86
    if (model.empty())
        model = field(facts.cpuinfo, "Model"); // Raspberry Pi OS and other Arm boards
    if (model.empty())
        model = field(facts.cpuinfo, "Hardware");
    if (model.empty())
        model = "unknown CPU";

    ProcessingElement cpu;
    cpu.kind = PeKind::cpu;
    cpu.name = "CPU";
    cpu.arch = cpu_arch(facts.machine);
    cpu.core_type = model;
    cpu.core_ids = facts.cpus;
    if (cpu.core_ids.empty())
        cpu.core_ids.push_back(0);
    if (!core_ids_nameable(cpu.core_ids)) // scattered CPUs: numbered from 0 instead
        for (std::size_t i = 0; i < cpu.core_ids.size(); ++i)
            cpu.core_ids[i] = static_cast<int>(i);
    cpu.cores = static_cast<int>(cpu.core_ids.size());
    cpu.source = "detected";
    cpu.note = "logical CPUs this process may use; no peak rates are known for a detected CPU";

    DeviceSpec device;
    device.id = kThisMachine;
    device.name = "This machine (" + model + ")";
    device.kind = DeviceKind::cpu;
    device.source = "detected";
    device.file = "detected";
    device.processing_elements.push_back(std::move(cpu));
    const std::string total = field(facts.meminfo, "MemTotal"); // "24684084 kB"
    if (!total.empty()) {
        Memory memory;
        const double kib = std::strtod(total.c_str(), nullptr); // "kB" here means KiB
        memory.capacity_gib = std::round(kib / (1024.0 * 1024.0) * 100) / 100;
        memory.source = "detected";
        device.memory = memory;
    }
    return device;
}

DeviceSpec detect_this_machine() {
    MachineFacts facts;
    facts.cpuinfo = read_text("/proc/cpuinfo");
    facts.meminfo = read_text("/proc/meminfo");
    utsname names{};
    facts.machine = ::uname(&names) == 0 ? names.machine : "";
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0) {
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &set))
                facts.cpus.push_back(cpu);
    } else {
        const unsigned count = std::max(1u, std::thread::hardware_concurrency());
        for (unsigned cpu = 0; cpu < count; ++cpu)
            facts.cpus.push_back(static_cast<int>(cpu));
    }
    return this_machine(facts);
}

} // namespace cleave::device
