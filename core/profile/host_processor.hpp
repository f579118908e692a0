// The processor of the machine Cleave runs on, as a measured dataset names its device.
#pragma once

#include <string>

namespace cleave::profile {

// "AMD EPYC, 2 logical CPUs": the model name from /proc/cpuinfo (the machine type where it has
// none) and the number of logical CPUs.
std::string host_processor();

} // namespace cleave::profile
