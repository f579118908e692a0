// The per-device feature vectors that balanced grouping evens out across groups: built from the
// device specs of a cluster (peak FP32 rate, or a datasheet configuration vector) or read from a
// file mapping each host to a vector (any features: Arch2End's HP, HE or HA vectors).
#pragma once

#include "core/device/cluster.hpp"

#include <string>
#include <vector>

namespace cleave::grouping {

// One row per host (cluster order), one column per feature, in the features' own units.
struct FeatureTable {
    std::string set;                   // "flops", "config", or the file the vectors came from
    std::vector<std::string> features; // "fp32_gflops", "memory_bandwidth_gbs"
    std::vector<std::string> hosts;
    std::vector<std::string> devices; // each host's device id
    std::vector<std::vector<double>> values;
    // Figures the datasheets do not give, counted as 0: "nx01 (jetson-xavier-nx): no cpu fp32".
    std::vector<std::string> notes;
};

// Sets built from device specs, by name.
inline const std::vector<std::string> kFeatureSets{"flops", "config"};

// "fp32_gflops": peak FP32 GFLOP/s summed over the device's PEs.
FeatureTable flops_features(const device::Cluster& cluster);
// cpu_cores, cpu_core_ghz (cores x clock summed over CPU PEs), gpu_sms, gpu_cuda_cores,
// memory_bandwidth_gbs, memory_capacity_gib.
FeatureTable config_features(const device::Cluster& cluster);
// `set` is one of kFeatureSets; anything else is an InputError naming `where` (a flag).
FeatureTable cluster_features(const device::Cluster& cluster, const std::string& set,
                              const std::string& where = "--features");
// A JSON object mapping every host of the cluster to an array of finite numbers, all of one
// length: {"nx01": [0.8, 1.2, 3.0], ...}. Optionally {"features": [names], "hosts": {...}}.
// Throws InputError(path, JSON pointer, expected).
FeatureTable features_from_file(const std::string& path, const device::Cluster& cluster);

// Each feature divided by its largest magnitude over the hosts, so every feature lies in [-1, 1]
// (in [0, 1] for non-negative features) and weighs alike; an all-zero feature stays zero.
std::vector<std::vector<double>> normalised(const std::vector<std::vector<double>>& values);
// The divisor normalised() uses for each feature (0 for an all-zero feature).
std::vector<double> feature_scales(const std::vector<std::vector<double>>& values);

} // namespace cleave::grouping
