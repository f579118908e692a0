// What a cross-device predictor knows of a device (cross_device.hpp): the figures its spec gives,
// where it gives them, and how fast it ran a few of its own kernels against the nominal roofline
// (baseline.hpp), overall and per kind of kernel: HELP's and Arch2End's idea that a device is
// described best by its measured speed on reference work. The measured part is computed the
// same way for the devices a model is trained on and for a new one from its few profiled kernels.
#pragma once

#include "core/device/device_spec.hpp"
#include "core/json_reader.hpp"
#include "predictor_training.hpp"

#include <string>
#include <vector>

namespace cleave::predict {

// From the spec; 0 where it gives no figure (measured devices such as xeon-ort-4t give none).
struct DeviceFigures {
    int threads = 0; // the threads the runtime ran with
    double fp32_gflops_per_core = 0;
    double memory_bandwidth_gbs = 0;
    double cache_kib_per_core = 0; // the largest cache level, per core
};

// The first CPU PE's figures (a CPU predictor's device), with `threads` from the runs.
DeviceFigures device_figures(const device::DeviceSpec& device, int threads);

// The kinds of kernel whose speed the descriptor measures, each relative to the overall speed:
// dense convolutions, grouped convolutions, matrix products, everything else (memory-bound).
enum class SpeedGroup { dense_convolution, grouped_convolution, matrix_product, other };
SpeedGroup speed_group(const std::vector<double>& kernel_features);

// The descriptor's columns, in order: the figures, then "device_speed" (nominal roofline time /
// measured time, geometric mean over the samples), then one relative speed per SpeedGroup.
const std::vector<std::string>& device_descriptor_names();
inline constexpr std::size_t kDeviceSpeedColumn = 4;

// A descriptor as a file keeps it: the array `key` of `object` (at `pointer`), one finite value
// >= 0 per device_descriptor_names() column, the speed above 0; InputError from `reader`.
std::vector<double> read_device_descriptor(const JsonReader& reader, const nlohmann::json& object,
                                           const std::string& pointer, const std::string& key);

// Throws std::invalid_argument without samples or for a sample whose time is not positive.
std::vector<double> device_descriptor(const DeviceFigures& figures,
                                      const std::vector<KernelSample>& samples);

} // namespace cleave::predict
