#include "pe_latencies.hpp"

#include "core/input_error.hpp"
#include "core/predict/predictor_library.hpp"
#include "core/predict/roofline.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace cleave::partition {

predict::Predictor load_cluster_predictor(const std::string& file, const device::Cluster& cluster) {
    auto predictor = predict::load_predictor(file);
    if (std::none_of(cluster.hosts.begin(), cluster.hosts.end(),
                     [&](const auto& h) { return h.device.id == predictor.device; }))
        throw InputError(file, "--predictor",
                         "the predictor is for device '" + predictor.device +
                             "', which no host of " + cluster.file + " runs");
    return predictor;
}

std::vector<std::vector<double>>
pe_kernel_latencies_ms(const graph::Model& model, const fusion::KernelGraph& kernels,
                       const device::Cluster& cluster, const std::string& rules,
                       const std::vector<int>& needed, const predict::Predictor* given) {
    std::vector<std::vector<double>> rows(cluster.pes.size());
    std::map<std::pair<std::string, std::string>, std::vector<double>> predicted;
    for (const int index : needed) {
        const auto& pe = cluster.pes.at(static_cast<std::size_t>(index));
        const auto& device = cluster.hosts[pe.host_index].device;
        auto& row = predicted[{device.id, pe.spec.name}];
        if (row.empty()) {
            predict::Predictor predictor;
            try {
                predictor = given && given->device == device.id ? *given
                            : predict::shipped_predictor(device.id)
                                ? predict::predictor_for(device, "", rules)
                                : predict::roofline_predictor(device, rules, pe.spec.name);
            } catch (const InputError& e) {
                throw InputError(e.file(), e.place(),
                                 "PE " + pe.key + " (" + pe.spec.name + " of " + device.id +
                                     ") has no shipped predictor and no roofline: " + e.problem());
            }
            const auto latency = predict::predict_model(predictor, model, kernels);
            row.reserve(latency.kernels.size());
            for (const auto& kernel : latency.kernels)
                row.push_back(kernel.us / 1e3);
        }
        rows[static_cast<std::size_t>(index)] = row;
    }
    return rows;
}

} // namespace cleave::partition
