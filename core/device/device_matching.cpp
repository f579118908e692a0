#include "device_matching.hpp"

#include "../input_error.hpp"

namespace cleave::device {

namespace {

std::string cpu_arch_of(const DeviceSpec& device) {
    for (const auto& pe : device.processing_elements)
        if (pe.kind == PeKind::cpu)
            return pe.arch;
    return {};
}

bool fits(const DeviceSpec& device, const std::string& arch, int cores, const PlatformHost& line) {
    const ProcessingElement* gpu = gpu_of(device);
    if (cpu_arch_of(device) != arch || cpu_cores(device) != cores)
        return false;
    return line.gpu ? gpu && gpu->arch == line.gpu->arch : !gpu;
}

// "arm, 6 cores, gpu NVIDIAVolta"
std::string described(const std::string& arch, int cores, const ProcessingElement* gpu,
                      const std::optional<PlatformGpu>& line_gpu) {
    std::string text = arch + ", " + std::to_string(cores) + (cores == 1 ? " core" : " cores");
    if (gpu)
        return text + ", gpu " + gpu->arch;
    if (line_gpu)
        return text + ", gpu " + line_gpu->arch;
    return text + ", no gpu";
}

} // namespace

std::string cpu_arch_of_platform(const std::string& arch) {
    if (arch == "arm" || arch == "arm64" || arch == "aarch64")
        return "arm";
    if (arch == "x86" || arch == "x86_64" || arch == "amd64")
        return "x86_64";
    return {};
}

DeviceMatch match_device(const PlatformHost& line, const std::vector<DeviceSpec>& library,
                         const std::string& file) {
    const std::string place = line.line > 0 ? "line " + std::to_string(line.line) : line.host;
    if (line.bare())
        throw InputError(file, place,
                         line.host +
                             " is a bare host name, which says nothing of its device; "
                             "expected `" +
                             line.host +
                             ", ARCH, slots=FIRST-LAST[, gpu=ARCH (API)]`, or a cluster file "
                             "(*.cluster.json) naming its device");
    const std::string arch = cpu_arch_of_platform(line.arch);
    if (arch.empty())
        throw InputError(file, place,
                         "CPU architecture \"" + line.arch +
                             "\" is not known; expected arm or x86 (aarch64, x86_64)");
    const int cores = line.slot_range ? line.slot_range->count() : 0;

    std::vector<const DeviceSpec*> fitting;
    for (const auto& device : library)
        if (fits(device, arch, cores, line))
            fitting.push_back(&device);
    const std::string wanted = described(arch, cores, nullptr, line.gpu);
    if (fitting.empty()) {
        std::string candidates;
        for (const auto& device : library)
            if (cpu_arch_of(device) == arch)
                candidates += (candidates.empty() ? "" : "; ") + device.id + " (" +
                              described(arch, cpu_cores(device), gpu_of(device), std::nullopt) +
                              ")";
        throw InputError(file, place,
                         "no library device fits " + line.host + " (" + wanted +
                             "); expected one of " +
                             (candidates.empty() ? "none with an " + arch + " CPU" : candidates) +
                             ", or a cluster file (*.cluster.json) naming the device");
    }
    DeviceMatch match{*fitting.front(), line.host + ": " + wanted + " -> " + fitting.front()->id};
    if (fitting.size() > 1) {
        std::string others;
        for (std::size_t i = 1; i < fitting.size(); ++i)
            others += (others.empty() ? "" : ", ") + fitting[i]->id;
        match.message += " (also fits " + others + "; a cluster file can name another)";
    }
    return match;
}

} // namespace cleave::device
