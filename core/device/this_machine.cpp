#include "this_machine.hpp"

#include "core/atomic_file.hpp"
#include "pe_key.hpp"
#include "user_library.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sched.h>
#include <set>
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

std::string read_text(const std::string& path) {
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

// 2.3, 45.76, 294.4: as short as the figure allows.
std::string shown(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

std::string cores_text(int count, const char* adjective = "") {
    return std::to_string(count) + " " + adjective + (count == 1 ? "core" : "cores");
}

// /proc/cpuinfo's fields per logical CPU: one block per "processor : N", blocks separated by
// blank lines (Arm kernels add machine-wide lines such as "Model" after the last block).
std::map<int, std::map<std::string, std::string>> cpu_entries(const std::string& cpuinfo) {
    std::map<int, std::map<std::string, std::string>> entries;
    std::map<std::string, std::string> block;
    const auto flush = [&] {
        const auto processor = block.find("processor");
        if (processor != block.end() && !processor->second.empty() &&
            std::all_of(processor->second.begin(), processor->second.end(),
                        [](char c) { return c >= '0' && c <= '9'; }))
            entries[std::atoi(processor->second.c_str())] = block;
        block.clear();
    };
    std::istringstream lines(cpuinfo);
    for (std::string line; std::getline(lines, line);) {
        const auto colon = line.find(':');
        if (trimmed(line).empty())
            flush();
        else if (colon != std::string::npos)
            block.emplace(trimmed(line.substr(0, colon)), trimmed(line.substr(colon + 1)));
    }
    flush();
    return entries;
}

using Entry = std::map<std::string, std::string>;

std::string value_of(const Entry* entry, const std::string& key) {
    if (!entry)
        return {};
    const auto it = entry->find(key);
    return it == entry->end() ? std::string() : it->second;
}

// The highest clock a CPU reaches: sysfs's cpuinfo_max_freq, else the nominal clock in the model
// name ("... @ 2.80GHz"), else "cpu MHz" (the current clock, or the nominal one in a virtual
// machine). Rounded to whole MHz.
struct Clock {
    double ghz = 0;
    std::string from;
};

std::optional<Clock> max_clock(int cpu, const Entry* entry, const MachineFacts& facts) {
    const auto mhz = [](double value) { return std::round(value) / 1000.0; };
    if (const auto it = facts.max_freq_khz.find(cpu);
        it != facts.max_freq_khz.end() && it->second > 0)
        return Clock{mhz(it->second / 1000.0), "cpuinfo_max_freq"};
    static const std::regex at_ghz(R"(@\s*([0-9]+(?:\.[0-9]+)?)\s*GHz)");
    std::smatch match;
    const std::string model = value_of(entry, "model name");
    if (std::regex_search(model, match, at_ghz))
        return Clock{mhz(std::strtod(match[1].str().c_str(), nullptr) * 1000.0), "the model name"};
    if (const double value = std::strtod(value_of(entry, "cpu MHz").c_str(), nullptr); value > 0)
        return Clock{mhz(value), "cpu MHz"};
    return std::nullopt;
}

// FP32 FLOP per clock per core from the SIMD flags, with the execution-unit count assumed.
struct SimdRate {
    int flop_per_clock = 0;
    std::string why;
};

std::optional<SimdRate> fp32_per_clock(const std::string& arch, const Entry* entry) {
    std::set<std::string> flags;
    std::istringstream words(value_of(entry, arch == "x86_64" ? "flags" : "Features"));
    for (std::string word; words >> word;)
        flags.insert(word);
    const auto has = [&](const char* flag) { return flags.count(flag) > 0; };
    if (arch == "x86_64") {
        // AMD's cores by family (AMD's Software Optimization Guides): Zen 4 (family 25, the one
        // with AVX-512) runs 512-bit work on two 256-bit FMA pipes; Zen and Zen+ (family 23
        // below model 0x30) run 256-bit work on two 128-bit ones.
        if (value_of(entry, "vendor_id") == "AuthenticAMD") {
            const long family = std::strtol(value_of(entry, "cpu family").c_str(), nullptr, 10);
            const long model = std::strtol(value_of(entry, "model").c_str(), nullptr, 10);
            if (family == 25 && has("avx512f"))
                return SimdRate{32, "AMD Zen 4 (cpu family 25 with avx512f): 512-bit work split "
                                    "in two 256-bit halves, 8 lanes x 2 (FMA) x 2 256-bit FMA "
                                    "pipes"};
            if (family == 23 && model < 0x30 && has("avx2") && has("fma"))
                return SimdRate{16, "AMD Zen or Zen+ (cpu family 23, model below 0x30): 256-bit "
                                    "work split in two 128-bit halves, 4 lanes x 2 (FMA) x 2 "
                                    "128-bit FMA pipes"};
        }
        if (has("avx512f"))
            return SimdRate{64, "avx512f: 16 lanes x 2 (FMA) x 2 FMA units, as in Xeon Scalable "
                                "cores and AMD Zen 5; cores with one 512-bit FMA unit (Ice Lake "
                                "and Tiger Lake clients) reach half"};
        if (has("avx2") && has("fma"))
            return SimdRate{32, "avx2 and fma: 8 lanes x 2 (FMA) x 2 FMA units, as in Intel cores "
                                "from Haswell on and AMD Zen 2 and Zen 3"};
        if (has("avx"))
            return SimdRate{16, "avx without fma: one 8-lane add and one 8-lane multiply per "
                                "clock, as in Sandy Bridge"};
        if (has("sse2"))
            return SimdRate{8, "sse2: one 4-lane add and one 4-lane multiply per clock"};
        return std::nullopt;
    }
    if (!has("asimd") && !has("neon"))
        return std::nullopt;
    // Arm's own cores whose 128-bit FMLA takes both 64-bit FP pipes (Cortex-A57 and Cortex-A72
    // Software Optimization Guides), as the library's Jetson TX2, Nano and Raspberry Pi 4 have.
    const std::string implementer = value_of(entry, "CPU implementer");
    const std::string part = value_of(entry, "CPU part");
    if (implementer == "0x41" && (part == "0xd07" || part == "0xd08"))
        return SimdRate{8, std::string(part == "0xd07" ? "Cortex-A57" : "Cortex-A72") +
                               " (CPU part " + part +
                               "): 4 lanes x 2 (FMA), one 128-bit FMLA per clock over its two "
                               "64-bit FP pipes"};
    return SimdRate{16, "asimd: 4 lanes x 2 (FMA) x 2 128-bit FMA pipes, as in Cortex-A76 and "
                        "later, Neoverse N1 and NVIDIA Carmel; smaller cores reach less"};
}

// Linux tells a process neither the memory's speed nor its channels, yet a roofline needs a
// bandwidth: a common configuration per architecture stands in, said as such.
struct AssumedBandwidth {
    double gbs = 0;
    std::string why;
};

AssumedBandwidth assumed_bandwidth(const std::string& arch) {
    if (arch == "x86_64")
        return {51.2, "dual-channel DDR4-3200 (2 channels x 8 bytes x 3200 MT/s), a common "
                      "desktop and laptop configuration; servers have several times more"};
    return {25.6, "64-bit LPDDR4-3200 (8 bytes x 3200 MT/s), a common single-board configuration "
                  "(a Raspberry Pi 4 has half, a Jetson Xavier NX twice)"};
}

// The fp32 peak over the physical cores this process may use: per core its clock times its FLOP
// per clock (cores of a big.LITTLE machine differ in both). Sets the PE's peak, clock and
// threads per core; returns the sentence on how cores were counted, and why a peak is missing.
std::string derive_peak(ProcessingElement& cpu, const MachineFacts& facts,
                        const std::vector<int>& allowed) {
    const auto entries = cpu_entries(facts.cpuinfo);
    const auto entry_of = [&](int id) -> const Entry* {
        const auto it = entries.find(id);
        return it == entries.end() ? nullptr : &it->second;
    };
    // One logical CPU stands for each physical core, where /proc/cpuinfo numbers cores.
    std::vector<int> representatives;
    std::set<std::pair<std::string, std::string>> seen;
    const bool numbered = std::all_of(allowed.begin(), allowed.end(), [&](int id) {
        return !value_of(entry_of(id), "physical id").empty() &&
               !value_of(entry_of(id), "core id").empty();
    });
    for (const int id : allowed)
        if (!numbered ||
            seen.insert({value_of(entry_of(id), "physical id"), value_of(entry_of(id), "core id")})
                .second)
            representatives.push_back(id);
    const int logical = static_cast<int>(allowed.size());
    const int physical = static_cast<int>(representatives.size());
    std::string counted =
        numbered ? cores_text(physical, "physical ") +
                       " (distinct physical id and core id in /proc/cpuinfo) of the " +
                       std::to_string(logical) +
                       " logical CPUs this process may use; the peak counts physical cores, "
                       "since SMT siblings share a core's FMA units"
                 : std::to_string(logical) +
                       " logical CPUs this process may use; /proc/cpuinfo numbers no cores, so "
                       "the peak counts each as a core";
    if (numbered && physical > 0 && logical % physical == 0)
        cpu.threads_per_core = std::clamp(logical / physical, 1, 16);

    // Cores alike in clock and SIMD width, summed as one term of the derivation.
    struct Term {
        int cores = 0;
        Clock clock;
        SimdRate rate;
    };
    std::vector<Term> terms;
    for (const int id : representatives) {
        const Entry* entry = entry_of(id);
        const auto clock = max_clock(id, entry, facts);
        if (!clock)
            return counted + ". No fp32 peak: neither sysfs nor /proc/cpuinfo gives CPU " +
                   std::to_string(id) + "'s clock";
        const auto rate = fp32_per_clock(cpu.arch, entry);
        if (!rate)
            return counted +
                   ". No fp32 peak: /proc/cpuinfo names no SIMD flags Cleave knows "
                   "for CPU " +
                   std::to_string(id);
        const auto same = std::find_if(terms.begin(), terms.end(), [&](const Term& t) {
            return t.clock.ghz == clock->ghz && t.rate.flop_per_clock == rate->flop_per_clock &&
                   t.rate.why == rate->why;
        });
        if (same != terms.end())
            ++same->cores;
        else
            terms.push_back({1, *clock, *rate});
    }
    if (terms.empty())
        return counted;
    double gflops = 0;
    std::string sum;
    for (const auto& t : terms) {
        gflops += t.cores * t.clock.ghz * t.rate.flop_per_clock;
        sum += (sum.empty() ? "" : " + ") + cores_text(t.cores) + " x " + shown(t.clock.ghz) +
               " GHz (" + t.clock.from + ") x " + std::to_string(t.rate.flop_per_clock) +
               " FP32 FLOP per clock (" + t.rate.why + ")";
    }
    gflops = std::round(gflops * 100) / 100;
    cpu.peak_gflops.fp32 = gflops;
    cpu.peak_gflops.derived = true;
    cpu.peak_gflops.source =
        "derived from /proc/cpuinfo and sysfs: " + sum + " = " + shown(gflops) + " GFLOP/s";
    cpu.clock_ghz = std::max_element(terms.begin(), terms.end(), [](const Term& a, const Term& b) {
                        return a.clock.ghz < b.clock.ghz;
                    })->clock.ghz;
    return counted;
}

// The bandwidth kept for this CPU model and CPU set, else measured with every CPU and kept
// (written atomically; a file that cannot be read or written is measured over, never an error:
// the bandwidth is then measured each time).
void measured_memory(MachineFacts& facts) {
    const std::string model = field(facts.cpuinfo, "model name") + field(facts.cpuinfo, "Model");
    const nlohmann::json key{{"cpu", model}, {"cpus", facts.cpus}};
    std::filesystem::path file;
    if (user_library_known()) {
        file = user_data_folder() / "this-machine.json";
        try {
            std::ifstream in(file);
            const auto kept = nlohmann::json::parse(in);
            if (kept.at("cpu") == key.at("cpu") && kept.at("cpus") == key.at("cpus")) {
                MemoryProbe probe;
                probe.gbs = kept.at("memory_bandwidth_gbs").get<double>();
                probe.threads = kept.at("threads").get<int>();
                probe.bytes = kept.at("bytes").get<std::size_t>();
                probe.passes = kept.at("passes").get<int>();
                if (probe.gbs > 0 && probe.threads > 0 && probe.passes > 0) {
                    facts.memory = probe;
                    facts.memory_file = file.string();
                    return;
                }
            }
        } catch (const std::exception&) {
            // none kept, or not ours to trust: measured again below
        }
    }
    facts.memory =
        probe_memory_bandwidth(static_cast<int>(std::max<std::size_t>(1, facts.cpus.size())));
    if (file.empty())
        return;
    nlohmann::json kept = key;
    kept["memory_bandwidth_gbs"] = facts.memory->gbs;
    kept["threads"] = facts.memory->threads;
    kept["bytes"] = facts.memory->bytes;
    kept["passes"] = facts.memory->passes;
    try {
        std::filesystem::create_directories(file.parent_path());
        write_file_atomically(file, kept.dump(1) + "\n");
        facts.memory_file = file.string();
    } catch (const std::exception&) {
        // a read-only home: measured each time
    }
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
    std::vector<int> allowed = facts.cpus;
    if (allowed.empty())
        allowed.push_back(0);
    cpu.core_ids = allowed;
    if (!core_ids_nameable(cpu.core_ids)) // scattered CPUs: numbered from 0 instead
        for (std::size_t i = 0; i < cpu.core_ids.size(); ++i)
            cpu.core_ids[i] = static_cast<int>(i);
    cpu.cores = static_cast<int>(cpu.core_ids.size());
    const std::string counted = derive_peak(cpu, facts, allowed);
    if (facts.memory && facts.memory->gbs > 0) {
        const auto& probe = *facts.memory;
        cpu.memory_bandwidth_gbs = std::round(probe.gbs * 10) / 10;
        cpu.source = "detected: /proc/cpuinfo, sysfs cpufreq and the CPUs this process may use; "
                     "memory bandwidth measured (note)";
        cpu.note = counted + ". Memory bandwidth " + shown(*cpu.memory_bandwidth_gbs) +
                   " GB/s is measured: " + std::to_string(probe.threads) + " thread" +
                   (probe.threads == 1 ? "" : "s") + " each summing their share of " +
                   std::to_string(probe.bytes >> 20) + " MiB, the best of " +
                   std::to_string(probe.passes) + " passes" +
                   (facts.memory_file.empty()
                        ? ""
                        : " (kept in " + facts.memory_file + "; delete it to measure again)") +
                   ".";
    } else {
        const auto bandwidth = assumed_bandwidth(cpu.arch);
        cpu.memory_bandwidth_gbs = bandwidth.gbs;
        cpu.source = "detected: /proc/cpuinfo, sysfs cpufreq and the CPUs this process may use; "
                     "memory bandwidth assumed (note)";
        cpu.note = counted + ". Memory bandwidth " + shown(bandwidth.gbs) +
                   " GB/s is assumed, not detected: Linux does not report the memory's speed or "
                   "channels to a process; " +
                   bandwidth.why +
                   ". A device file with this machine's own figures can stand for it.";
    }

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
    for (const int cpu : facts.cpus) {
        const std::string khz = read_text("/sys/devices/system/cpu/cpu" + std::to_string(cpu) +
                                          "/cpufreq/cpuinfo_max_freq");
        if (const double value = std::strtod(khz.c_str(), nullptr); value > 0)
            facts.max_freq_khz[cpu] = value;
    }
    measured_memory(facts);
    return this_machine(facts);
}

} // namespace cleave::device
