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
    const auto cpu =
        std::find_if(spec.processing_elements.begin(), spec.processing_elements.end(),
                     [](const ProcessingElement& pe) { return pe.kind == PeKind::cpu; });
    if (cpu == spec.processing_elements.end())
        throw InputError(file, place,
                         "a thread count for a CPU; device " + spec.id + " has no CPU PE");
    if (spec.measurement && spec.measurement->threads) {
        if (threads != *spec.measurement->threads)
            throw InputError(file, place,
                             std::to_string(*spec.measurement->threads) + " thread" +
                                 (*spec.measurement->threads == 1 ? "" : "s") + ": device " +
                                 spec.id + " is measured at that count only, found " +
                                 std::to_string(threads) +
                                 " (a device measured at that count: cleave calibrate --threads " +
                                 std::to_string(threads) + ")");
        return spec;
    }
    const int most = std::max_element(spec.processing_elements.begin(),
                                       spec.processing_elements.end(),
                                       [](const ProcessingElement& a, const ProcessingElement& b) {
                                           return (a.kind == PeKind::cpu ? a.cores : 0) <
                                                  (b.kind == PeKind::cpu ? b.cores : 0);
                                       })
                         ->cores;
    if (threads < 1 || threads > most)
        throw InputError(file, place,
                         "a thread count from 1 to " + std::to_string(most) + ", the cores of " +
                             spec.id + "'s largest CPU PE; found " + std::to_string(threads));
    return spec_at_threads(spec, threads);
}

} // namespace cleave::device
