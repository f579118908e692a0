#include "cpu_threads.hpp"

#include "core/input_error.hpp"

#include <algorithm>

namespace cleave::device {

DeviceSpec spec_at_threads(DeviceSpec spec, int threads) {
    for (auto& pe : spec.processing_elements) {
        if (pe.kind != PeKind::cpu || pe.cores <= 0 || threads <= 0 || threads >= pe.cores)
            continue;
        const double share = static_cast<double>(threads) / pe.cores;
        for (auto* rate : {&pe.peak_gflops.fp32, &pe.peak_gflops.fp16, &pe.peak_gflops.int8})
            if (*rate)
                **rate *= share;
        pe.cores = threads;
    }
    return spec;
}

DeviceSpec device_at_threads(const DeviceSpec& spec, int threads, const std::string& file,
                             const std::string& place) {
    int most = 0; // the cores of the largest CPU PE; 0: none
    for (const auto& pe : spec.processing_elements)
        if (pe.kind == PeKind::cpu)
            most = std::max(most, pe.cores);
    if (most == 0)
        throw InputError(file, place,
                         "a thread count for a CPU; device " + spec.id + " has no CPU PE");
    if (spec.measurement && spec.measurement->threads) {
        const int own = *spec.measurement->threads;
        if (threads != own)
            throw InputError(file, place,
                             std::to_string(own) + (own == 1 ? " thread" : " threads") +
                                 ": device " + spec.id + " is measured at that count only, found " +
                                 std::to_string(threads) +
                                 " (a device measured at that count: cleave calibrate --threads " +
                                 std::to_string(threads) + ")");
        return spec;
    }
    if (threads < 1 || threads > most)
        throw InputError(file, place,
                         "a thread count from 1 to " + std::to_string(most) + ", the cores of " +
                             spec.id + "'s largest CPU PE; found " + std::to_string(threads));
    return spec_at_threads(spec, threads);
}

} // namespace cleave::device
