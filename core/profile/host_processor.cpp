#include "host_processor.hpp"

#include <fstream>
#include <sys/utsname.h>
#include <thread>

namespace cleave::profile {

std::string host_processor() {
    std::string name;
    std::ifstream cpuinfo("/proc/cpuinfo");
    // x86 names the part in "model name"; many ARM kernels only in "Hardware" or "Model".
    for (std::string line; std::getline(cpuinfo, line) && name.empty();)
        for (const char* key : {"model name", "Hardware", "Model"})
            if (line.rfind(key, 0) == 0 && line.find(':') != std::string::npos) {
                name = line.substr(line.find(':') + 1);
                name.erase(0, name.find_first_not_of(" \t"));
                break;
            }
    if (name.empty()) {
        struct utsname system {};
        if (::uname(&system) == 0)
            name = system.machine;
    }
    const unsigned cpus = std::thread::hardware_concurrency();
    if (cpus > 0)
        name += ", " + std::to_string(cpus) + " logical CPU" + (cpus == 1 ? "" : "s");
    return name;
}

} // namespace cleave::profile
