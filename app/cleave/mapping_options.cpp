#include "mapping_options.hpp"

#include "core/autodice/mapping_file.hpp"
#include "core/input_error.hpp"
#include "core/partition/layer_split.hpp"
#include "progress.hpp"

#include <algorithm>

namespace cleave::cli {

void MappingOptions::add_to(CLI::App& command) {
    command.add_option("--mapping", mapping, "AutoDiCE mapping.json");
    command.add_option("--points", points, "Split points: kernels before each cut, e.g. 12,40");
    command.add_option("--pes", pes, "PE key per segment, e.g. nx01_gpu,nx02_gpu,nx03_gpu");
    command.add_option("--layers-by", layers_by,
                       "Split a decoder's layers over --pes by a runtime's rule: equal "
                       "(distributed-llama), memory (in proportion to each host's memory: exo) or "
                       "llama.cpp (its split by each device's memory: a GPU's own, else the "
                       "host's)");
}

void MappingOptions::check() const {
    if (mapping.empty() == pes.empty())
        throw InputError("", "--mapping",
                         "give either --mapping FILE (an AutoDiCE mapping.json) or --pes with "
                         "--points (split points, one PE per segment)");
    if (!points.empty() && pes.empty())
        throw InputError("", "--points", "split points need --pes, one PE key per segment");
    if (!layers_by.empty()) {
        partition::parse_layer_rule(layers_by);
        if (pes.empty() || !points.empty())
            throw InputError("", "--layers-by",
                             "--pes alone beside it (the rule places the split points)");
    }
}

namespace {

// The split points of a decoder's layers over the PEs of `pes` by `rule`; their layer counts in
// `layers`.
std::string layer_rule_points(const graph::Model& model, const fusion::KernelGraph& kernels,
                              const device::Cluster& cluster, const std::string& pes,
                              partition::LayerRule rule, std::vector<int>& layers) {
    std::vector<double> weights;
    std::vector<std::string> keys;
    std::size_t start = 0;
    while (start <= pes.size()) {
        const auto end = std::min(pes.find(',', start), pes.size());
        const std::string key = pes.substr(start, end - start);
        const auto* pe = cluster.find_pe(key);
        if (!pe)
            throw InputError(cluster.file, "--pes", "PE keys of the cluster, found '" + key + "'");
        const auto weight =
            partition::layer_rule_weight(cluster, static_cast<int>(pe - cluster.pes.data()), rule);
        if (!weight)
            throw InputError(cluster.file, "--layers-by",
                             "a memory capacity for host " + pe->host +
                                 "'s device, which gives none");
        weights.push_back(*weight);
        keys.push_back(key);
        start = end + 1;
    }
    const auto of_kernels = partition::kernel_layers(model, kernels);
    const int count = 1 + *std::max_element(of_kernels.begin(), of_kernels.end());
    layers = partition::layers_per_segment(count, rule, weights, model.file);
    for (std::size_t s = 0; s < layers.size(); ++s)
        if (layers[s] == 0)
            throw InputError(cluster.file, "--pes",
                             "PEs that each get a layer; by llama.cpp's split " + keys[s] +
                                 " gets none (its share of the memory is under one layer): "
                                 "leave it out");
    std::string points;
    for (const int point : partition::layer_split_points(model, of_kernels, layers))
        points += (points.empty() ? "" : ",") + std::to_string(point);
    return points;
}

} // namespace

ChosenMapping MappingOptions::resolve(const graph::Model& model, fusion::KernelGraph kernels,
                                      const fusion::FusionMethod& method,
                                      const device::Cluster& cluster) const {
    ChosenMapping chosen;
    const int kernel_count = static_cast<int>(kernels.kernels.size());
    if (!mapping.empty()) {
        auto mapped = autodice::mapped_kernels(autodice::read_mapping_file(mapping, model, cluster),
                                               model, kernels, method, cluster);
        for (const auto& cut : mapped.cut)
            warn(mapping + ": " + cut);
        chosen.cut_kernels = std::move(mapped.cut);
        chosen.kernels = std::move(mapped.kernels);
        chosen.assignment = std::move(mapped.assignment);
        chosen.source = mapping;
    } else {
        chosen.kernels = std::move(kernels);
        std::string cuts = points;
        chosen.source = "--points/--pes";
        if (!layers_by.empty()) {
            cuts = layer_rule_points(model, chosen.kernels, cluster, pes,
                                     partition::parse_layer_rule(layers_by), chosen.layers);
            chosen.source = "--layers-by " + layers_by;
        }
        chosen.split = partition::parse_mapping(cuts, pes, cluster, kernel_count);
        chosen.assignment = partition::assignment_of(*chosen.split, kernel_count);
    }
    return chosen;
}

} // namespace cleave::cli
