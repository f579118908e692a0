// How fast the runtime streams a matrix-vector product's weights from memory, against the probe
// (device/memory_probe.hpp) reading as much memory in the same minute: what the predictor's
// memory floor scales the probe's bandwidth by. A calibration's networks fit in the caches, so
// none of them shows it.
#pragma once

#include "core/profile/profiler.hpp"

#include <filesystem>

namespace cleave::calibration {

struct StreamingMeasurement {
    double weight_bytes = 0; // of the product measured
    double kernel_ms = 0;    // the runtime's time for it (its matrix product kernels)
    double runtime_gbs = 0;  // weight_bytes over that time
    double probe_gbs = 0;    // the probe reading as many bytes, right after
    double efficiency = 0;   // runtime_gbs / probe_gbs
};

// Writes a product of one token by a 4096 x 16384 float weight (256 MiB, pseudo-random) into
// `folder`, profiles it with `options` and removes it. About 10 s, 2 x 256 MiB of memory for a
// moment. Throws what the profiler throws, std::runtime_error where it timed no product.
StreamingMeasurement measure_streaming(profile::Profiler& profiler,
                                       const profile::ProfileOptions& options,
                                       const std::filesystem::path& folder);

} // namespace cleave::calibration
