// Arch2End's device vectors, computed from measured end-to-end times in the shared data format:
// HP, a device's latencies on the benchmark runs every compared device has; HE, which model
// features its latency follows (Algorithm 1: greedy Pearson selection of key features, a linear
// fit, normalised weights); HA = [HP, HE]. Grouping balances them across groups
// (device_features.hpp); docs/grouping.md gives every formula.
#pragma once

#include "core/device/device_spec.hpp"
#include "core/profile/measured_dataset.hpp"
#include "core/profile/run_models.hpp"
#include "device_features.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace cleave::grouping {

// The runs of one data file that stand for one device.
struct DeviceRuns {
    std::string device; // library id, or the id given on the command line
    std::string file;
    std::vector<const profile::MeasuredRun*> runs;
};

// The library devices a data file's runs stand for: each device whose `measurement.data` names a
// file of the same name (".xz" aside), with the run's thread count and dtype where the device
// gives them. Runs no device claims are left out.
std::vector<DeviceRuns> measured_devices(const profile::MeasuredDataset& data,
                                         const std::vector<device::DeviceSpec>& library);

struct DeviceVectorOptions {
    std::size_t max_features = 4;          // HE features kept (the fixed part comes on top)
    double max_feature_correlation = 0.95; // a feature this correlated with a kept one is skipped
    std::string rules = "ort-cpu";         // fusion method behind the kernel features
};

struct DeviceVectors {
    std::vector<std::string> devices;
    std::vector<std::string> files;         // the data each device's runs came from
    std::vector<std::string> benchmarks;    // "resnet50@1x3x224x224": measured on every device
    std::vector<std::vector<double>> hp_ms; // [device][benchmark]: median end-to-end ms
    // HE: the selected model features ("fixed_ms" first: the part no feature explains), and per
    // device each one's share of its fitted latency at the mean benchmark (a row sums to 1).
    std::vector<std::string> he_features;
    std::vector<std::vector<double>> he;
    std::vector<double> he_fit_mape; // per device, over the benchmarks, in percent
    std::vector<std::string> notes;  // runs left out, and why
};

// Throws InputError when fewer than two devices are given, when they share fewer than 3
// benchmark runs, or when a benchmark's model is missing from the models folder.
DeviceVectors compute_device_vectors(const std::vector<DeviceRuns>& devices,
                                     profile::RunModels& models,
                                     const DeviceVectorOptions& options = {});

// The vectors file `cleave device-vector --out` writes ("format": "cleave-device-vectors").
std::string device_vectors_json(const DeviceVectors& vectors);
void save_device_vectors(const DeviceVectors& vectors, const std::string& path); // atomically
// Throws InputError(path, JSON pointer, expected).
DeviceVectors load_device_vectors(const std::string& path);

// The feature sets built from device vectors, for grouping.
inline const std::vector<std::string> kVectorFeatureSets{"hp", "he", "ha"};

// One row per host from its device's vector: "hp" as rates (1000 / ms per benchmark: what adds
// up across a group's devices), "he" as the shares, "ha" both. Throws InputError naming the host,
// its device and the vectors file when the file has no vector for it.
FeatureTable vector_features(const device::Cluster& cluster, const DeviceVectors& vectors,
                             const std::string& set, const std::string& file);

// A benchmark's median ms on every host's device, e.g. to serve tasks in a simulation. Throws
// InputError naming `where` for a benchmark the vectors lack.
std::vector<double> host_benchmark_ms(const device::Cluster& cluster, const DeviceVectors& vectors,
                                      const std::string& benchmark, const std::string& file,
                                      const std::string& where);

} // namespace cleave::grouping
