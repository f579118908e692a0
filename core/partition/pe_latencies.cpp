#include "pe_latencies.hpp"

#include "core/input_error.hpp"
#include "core/predict/predictor_library.hpp"
#include "core/predict/roofline.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>
#include <utility>

namespace cleave::partition {

namespace {

std::string pe_label(const device::Cluster& cluster, int index) {
    const auto& pe = cluster.pes[static_cast<std::size_t>(index)];
    return pe.key + " (" + pe.spec.name + " of " + cluster.hosts[pe.host_index].device.id + ")";
}

} // namespace

predict::Predictor load_cluster_predictor(const std::string& file, const device::Cluster& cluster) {
    auto predictor = predict::load_predictor(file);
    if (std::none_of(cluster.hosts.begin(), cluster.hosts.end(),
                     [&](const auto& h) { return h.device.id == predictor.device; }))
        throw InputError(file, "--predictor",
                         "the predictor is for device '" + predictor.device +
                             "', which no host of " + cluster.file + " runs");
    return predictor;
}

std::vector<std::string> PeLatencies::left_out_notes(const device::Cluster& cluster) const {
    std::vector<std::string> notes;
    for (std::size_t pe = 0; pe < missing.size(); ++pe)
        if (!missing[pe].empty())
            notes.push_back("left out " + pe_label(cluster, static_cast<int>(pe)) +
                            ": its kernel latencies cannot be predicted: " + missing[pe]);
    return notes;
}

std::vector<int> PeLatencies::usable() const {
    std::vector<int> pes;
    for (std::size_t pe = 0; pe < kernel_ms.size(); ++pe)
        if (missing[pe].empty() && !kernel_ms[pe].empty())
            pes.push_back(static_cast<int>(pe));
    return pes;
}

PeLatencies predict_pe_latencies(const graph::Model& model, const fusion::KernelGraph& kernels,
                                 const device::Cluster& cluster, const std::string& rules,
                                 const std::vector<int>& needed, const predict::Predictor* given) {
    std::vector<int> pes = needed;
    if (pes.empty()) {
        pes.resize(cluster.pes.size());
        std::iota(pes.begin(), pes.end(), 0);
    }
    PeLatencies result;
    result.kernel_ms.resize(cluster.pes.size());
    result.missing.resize(cluster.pes.size());
    // A row, or why there is none, per device and PE name.
    struct Row {
        std::vector<double> ms;
        std::string missing;
    };
    std::map<std::tuple<std::string, std::string, int>, Row> predicted;
    for (const int index : pes) {
        const auto& pe = cluster.pes.at(static_cast<std::size_t>(index));
        const auto& device = cluster.hosts[pe.host_index].device;
        // a CPU's cores are the threads it runs at (cluster hosts of one device may differ)
        const auto key = std::make_tuple(device.id, pe.spec.name, pe.spec.cores);
        auto found = predicted.find(key);
        if (found == predicted.end()) {
            Row row;
            try {
                const predict::Predictor predictor =
                    given && given->device == device.id ? *given
                    : predict::shipped_predictor(device.id)
                        ? predict::predictor_for(device, "", rules)
                        : predict::roofline_predictor(device, rules, pe.spec.name);
                const auto latency = predict::predict_model(predictor, model, kernels);
                row.ms.reserve(latency.kernels.size());
                for (const auto& kernel : latency.kernels)
                    row.ms.push_back(kernel.us / 1e3);
            } catch (const std::exception& e) { // this PE left out, the others still usable
                row.missing = e.what();
            }
            found = predicted.emplace(key, std::move(row)).first;
        }
        result.kernel_ms[static_cast<std::size_t>(index)] = found->second.ms;
        result.missing[static_cast<std::size_t>(index)] = found->second.missing;
    }
    return result;
}

std::vector<std::vector<double>>
pe_kernel_latencies_ms(const graph::Model& model, const fusion::KernelGraph& kernels,
                       const device::Cluster& cluster, const std::string& rules,
                       const std::vector<int>& needed, const predict::Predictor* given) {
    auto latencies = predict_pe_latencies(model, kernels, cluster, rules, needed, given);
    for (const int pe : needed)
        if (!latencies.has(pe))
            throw InputError("", "", "PE " + pe_label(cluster, pe) +
                                         " has no shipped predictor and no roofline: " +
                                         latencies.missing[static_cast<std::size_t>(pe)]);
    return std::move(latencies.kernel_ms);
}

} // namespace cleave::partition
