#include "device_features.hpp"

#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

namespace cleave::grouping {

namespace {

FeatureTable table_for(const device::Cluster& cluster, std::string set,
                       std::vector<std::string> features) {
    FeatureTable table;
    table.set = std::move(set);
    table.features = std::move(features);
    for (const auto& host : cluster.hosts) {
        table.hosts.push_back(host.host);
        table.devices.push_back(host.device.id);
    }
    return table;
}

std::string who(const device::ClusterHost& host) {
    return host.host + " (" + host.device.id + ")";
}

std::string join(const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items)
        text += (text.empty() ? "" : ", ") + item;
    return text;
}

} // namespace

FeatureTable flops_features(const device::Cluster& cluster) {
    auto table = table_for(cluster, "flops", {"fp32_gflops"});
    for (const auto& host : cluster.hosts) {
        double gflops = 0;
        std::vector<std::string> missing;
        for (const auto& pe : host.device.processing_elements) {
            if (pe.peak_gflops.fp32)
                gflops += *pe.peak_gflops.fp32;
            else
                missing.push_back(pe.name.empty() ? device::to_string(pe.kind) : pe.name);
        }
        if (!missing.empty())
            table.notes.push_back(who(host) + ": no fp32 peak for " + join(missing) +
                                  ", counted as 0");
        table.values.push_back({gflops});
    }
    return table;
}

FeatureTable config_features(const device::Cluster& cluster) {
    auto table = table_for(cluster, "config",
                           {"cpu_cores", "cpu_core_ghz", "gpu_sms", "gpu_cuda_cores",
                            "memory_bandwidth_gbs", "memory_capacity_gib"});
    for (const auto& host : cluster.hosts) {
        const auto& device = host.device;
        std::vector<std::string> missing;
        double cores = 0, core_ghz = 0;
        for (const auto& pe : device.processing_elements) {
            if (pe.kind != device::PeKind::cpu)
                continue;
            cores += pe.cores;
            if (pe.clock_ghz)
                core_ghz += pe.cores * *pe.clock_ghz;
            else
                missing.push_back((pe.name.empty() ? std::string("cpu") : pe.name) + " clock");
        }
        double sms = 0, cuda_cores = 0;
        if (const auto* gpu = device::gpu_of(device)) {
            sms = gpu->sms;
            cuda_cores = gpu->cuda_cores;
        }
        std::optional<double> bandwidth, capacity;
        if (device.memory) {
            bandwidth = device.memory->bandwidth_gbs;
            capacity = device.memory->capacity_gib;
        }
        if (!bandwidth)
            missing.push_back("memory bandwidth");
        if (!capacity)
            missing.push_back("memory capacity");
        if (!missing.empty())
            table.notes.push_back(who(host) + ": no " + join(missing) + ", counted as 0");
        table.values.push_back(
            {cores, core_ghz, sms, cuda_cores, bandwidth.value_or(0), capacity.value_or(0)});
    }
    return table;
}

FeatureTable cluster_features(const device::Cluster& cluster, const std::string& set,
                              const std::string& where) {
    if (set == "flops")
        return flops_features(cluster);
    if (set == "config")
        return config_features(cluster);
    throw InputError("", where,
                     "unknown feature set \"" + set + "\"; expected one of " + join(kFeatureSets) +
                         " (device specs), hp, he, ha (device vectors, with --vectors) or "
                         "per-host vectors through --features-file");
}

FeatureTable features_from_file(const std::string& path, const device::Cluster& cluster) {
    const auto root = read_json_file(path, "a JSON object mapping each host to its feature vector");
    const JsonReader reader(path);
    const std::string each = "an object mapping each host to an array of numbers";
    reader.expect_object(root, "", each);
    FeatureTable table = table_for(cluster, path, {});
    const nlohmann::json* vectors = &root;
    std::string base;
    if (root.contains("hosts")) {
        vectors = reader.object(root, "", "hosts", true, each);
        base = "/hosts";
        reader.only_known(root, "", {"features", "hosts"});
        if (const auto* names = reader.array(root, "", "features", false, "an array of feature names"))
            for (std::size_t i = 0; i < names->size(); ++i)
                table.features.push_back(
                    reader.string_at((*names)[i], child_pointer("/features", i), "a feature name"));
    }
    for (const auto& [key, value] : vectors->items())
        if (!cluster.find_host(key))
            reader.fail(child_pointer(base, key), "not a host of the cluster " + cluster.file +
                                                      "; expected one of " + join(table.hosts));
    std::optional<std::size_t> length;
    if (!table.features.empty())
        length = table.features.size();
    for (const auto& host : table.hosts) {
        const std::string pointer = child_pointer(base, host);
        if (!vectors->contains(host))
            reader.fail(pointer, "missing; expected a feature vector for every host of the cluster");
        const auto& vector = (*vectors)[host];
        if (!vector.is_array() || vector.empty())
            reader.fail(pointer, "expected a non-empty array of numbers");
        if (length && vector.size() != *length)
            reader.fail(pointer, "has " + std::to_string(vector.size()) + " numbers; expected " +
                                     std::to_string(*length) + " like the " +
                                     (table.features.empty() ? "first host" : "feature names"));
        length = vector.size();
        table.values.push_back(
            reader.finite_numbers_at(vector, pointer, vector.size(), "the host's features"));
    }
    if (table.features.empty())
        for (std::size_t f = 0; f < *length; ++f)
            table.features.push_back("f" + std::to_string(f));
    return table;
}

std::vector<double> feature_scales(const std::vector<std::vector<double>>& values) {
    std::vector<double> scales(values.empty() ? 0 : values.front().size(), 0.0);
    for (const auto& row : values)
        for (std::size_t f = 0; f < row.size(); ++f)
            scales[f] = std::max(scales[f], std::abs(row[f]));
    return scales;
}

std::vector<std::vector<double>> normalised(const std::vector<std::vector<double>>& values) {
    const auto scales = feature_scales(values);
    auto result = values;
    for (auto& row : result)
        for (std::size_t f = 0; f < row.size(); ++f)
            row[f] = scales[f] > 0 ? row[f] / scales[f] : 0.0;
    return result;
}

} // namespace cleave::grouping
