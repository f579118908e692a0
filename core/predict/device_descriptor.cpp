#include "device_descriptor.hpp"

#include "baseline.hpp"
#include "core/json_reader.hpp"
#include "kernel_features.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace cleave::predict {

namespace {

constexpr std::size_t kGroups = 4;

std::size_t column(const char* name) {
    const auto& names = kernel_feature_names();
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

} // namespace

DeviceFigures device_figures(const device::DeviceSpec& device, int threads) {
    DeviceFigures f;
    f.threads = threads;
    for (const auto& pe : device.processing_elements) {
        if (pe.kind != device::PeKind::cpu)
            continue;
        const int cores = std::max(1, pe.cores);
        if (pe.peak_gflops.fp32)
            f.fp32_gflops_per_core = *pe.peak_gflops.fp32 / cores;
        f.memory_bandwidth_gbs = device::memory_bandwidth_gbs(device, pe).value_or(0);
        int level = 0;
        for (const auto& c : pe.caches)
            if (c.level >= level && c.kind != "instruction") {
                level = c.level;
                f.cache_kib_per_core = c.size_kib / std::max(1, c.shared_by > 0 ? c.shared_by : cores);
            }
        break;
    }
    return f;
}

SpeedGroup speed_group(const std::vector<double>& features) {
    static const std::size_t convolutions = column("nodes_convolutions"),
                             groups = column("groups"),
                             matrix_products = column("nodes_matrix_products");
    if (features.at(convolutions) > 0)
        return features.at(groups) > 1 ? SpeedGroup::grouped_convolution
                                       : SpeedGroup::dense_convolution;
    if (features.at(matrix_products) > 0)
        return SpeedGroup::matrix_product;
    return SpeedGroup::other;
}

const std::vector<std::string>& device_descriptor_names() {
    static const std::vector<std::string> names{
        "device_threads",          "device_fp32_gflops_per_core",   "device_memory_bandwidth_gbs",
        "device_cache_kib_per_core", "device_speed",                "device_speed_dense_conv",
        "device_speed_grouped_conv", "device_speed_matrix_product", "device_speed_other"};
    return names;
}

std::vector<double> device_descriptor(const DeviceFigures& figures,
                                      const std::vector<KernelSample>& samples) {
    if (samples.empty())
        throw std::invalid_argument("a device descriptor needs measured kernels");
    const auto roofline = NominalRoofline::of(kernel_feature_names());
    // log(nominal / measured): positive where the device beats the nominal roofline.
    std::vector<double> log_speed;
    for (const auto& s : samples) {
        if (!(s.us > 0))
            throw std::invalid_argument("a device descriptor needs positive kernel times");
        log_speed.push_back(std::log(roofline.us(s.features.data()) / s.us));
    }
    double overall = 0;
    for (const double l : log_speed)
        overall += l / static_cast<double>(log_speed.size());
    // Per group, the mean log speed relative to the overall one, with one pseudo-sample at the
    // overall speed: a group seen in one or two kernels stays near it, and an unseen group is it.
    std::array<double, kGroups> sum{}, count{};
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const auto g = static_cast<std::size_t>(speed_group(samples[i].features));
        sum[g] += log_speed[i] - overall;
        count[g] += 1;
    }
    std::vector<double> out{static_cast<double>(figures.threads), figures.fp32_gflops_per_core,
                            figures.memory_bandwidth_gbs, figures.cache_kib_per_core,
                            std::exp(overall)};
    for (std::size_t g = 0; g < kGroups; ++g)
        out.push_back(std::exp(sum[g] / (count[g] + 1)));
    return out;
}

std::vector<double> read_device_descriptor(const JsonReader& reader, const nlohmann::json& object,
                                           const std::string& pointer, const std::string& key) {
    const auto values = reader.finite_numbers(object, pointer, key, device_descriptor_names().size(),
                                              "one per device descriptor column");
    const std::string at = child_pointer(pointer, key);
    for (std::size_t j = 0; j < values.size(); ++j)
        if (values[j] < 0 || (j == kDeviceSpeedColumn && !(values[j] > 0)))
            reader.fail(child_pointer(at, j),
                        j == kDeviceSpeedColumn ? "expected a positive speed"
                                                : "expected a finite non-negative number");
    return values;
}

} // namespace cleave::predict
