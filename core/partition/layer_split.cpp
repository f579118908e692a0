#include "layer_split.hpp"

#include "core/graph/decoder_phase.hpp"
#include "core/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <regex>

namespace cleave::partition {

namespace {

// The layer number a node name carries, or -1.
int layer_of(const std::string& name) {
    static const std::regex pattern(R"((?:^|[/.])(?:layers?|h|blocks?)[./_](\d+)(?:[/.]|$))");
    std::smatch match;
    if (!std::regex_search(name, match, pattern))
        return -1;
    return std::stoi(match[1].str());
}

} // namespace

std::vector<int> kernel_layers(const graph::Model& model, const fusion::KernelGraph& kernels) {
    // A decoder with a KV cache has a past key and value per layer: a number at or past their
    // count names no layer (ONNX Runtime GenAI's "/model/layers.N/final_norm_layernorm").
    int cached = 0;
    for (const int i : model.inputs)
        cached += graph::cache_input_bytes(model.tensors[static_cast<std::size_t>(i)], 1) ? 1 : 0;
    const int layers = cached / 2;
    std::vector<int> out;
    out.reserve(kernels.kernels.size());
    for (const auto& kernel : kernels.kernels) {
        int layer = -1;
        for (const int n : kernel.nodes)
            layer = std::max(layer, layer_of(model.nodes[static_cast<std::size_t>(n)].name));
        out.push_back(layers > 0 && layer >= layers ? -1 : layer);
    }
    return out;
}

LayerRule parse_layer_rule(const std::string& text) {
    if (text == "equal")
        return LayerRule::Equal;
    if (text == "memory")
        return LayerRule::Memory;
    if (text == "llama.cpp")
        return LayerRule::LlamaCpp;
    throw InputError("", "--layers-by", "equal, memory or llama.cpp, found '" + text + "'");
}

std::optional<double> layer_rule_weight(const device::Cluster& cluster, int pe, LayerRule rule) {
    if (rule == LayerRule::Equal)
        return 1.0;
    const auto& p = cluster.pes[static_cast<std::size_t>(pe)];
    if (rule == LayerRule::LlamaCpp)
        if (const auto own = device::own_memory_bytes(p.spec))
            return static_cast<double>(*own);
    if (const auto bytes = device::capacity_bytes(cluster.hosts[p.host_index].device))
        return static_cast<double>(*bytes);
    return std::nullopt;
}

std::vector<int> layers_per_segment(int layers, LayerRule rule, const std::vector<double>& weights,
                                    const std::string& model_file) {
    const int segments = static_cast<int>(weights.size());
    if (segments > layers)
        throw InputError(model_file, "--pes",
                         "at most one PE per layer: " + std::to_string(layers) + " layers, " +
                             std::to_string(segments) + " PEs");
    std::vector<int> counts(static_cast<std::size_t>(segments), 1);
    if (rule == LayerRule::LlamaCpp) {
        // llama.cpp's load_tensors: layers + 1 slots (the head the last), slot i on the first
        // device whose cumulative share exceeds i / (layers + 1).
        const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
        std::vector<double> cumulative;
        double sum = 0;
        for (const double w : weights)
            cumulative.push_back((sum += w) / total);
        std::vector<int> slots(static_cast<std::size_t>(segments), 0);
        for (int i = 0; i < layers; ++i) {
            const double x = static_cast<double>(i) / (layers + 1);
            const auto d =
                std::upper_bound(cumulative.begin(), cumulative.end() - 1, x) - cumulative.begin();
            ++slots[static_cast<std::size_t>(d)];
        }
        return slots;
    }
    int left = layers - segments; // each segment holds one; the rest by the rule
    if (rule == LayerRule::Equal) {
        for (int s = 0; s < segments; ++s)
            counts[static_cast<std::size_t>(s)] += left / segments + (s < left % segments ? 1 : 0);
        return counts;
    }
    // In proportion to the weights, of all the layers; the one each already holds counts.
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    std::vector<double> remainder(static_cast<std::size_t>(segments), 0.0);
    for (std::size_t s = 0; s < counts.size(); ++s) {
        const double share = total > 0 ? layers * weights[s] / total : 1.0 * layers / segments;
        const int whole = std::min(left, std::max(0, static_cast<int>(std::floor(share)) - 1));
        counts[s] += whole;
        left -= whole;
        remainder[s] = share - counts[s];
    }
    while (left > 0) {
        const auto s = static_cast<std::size_t>(
            std::max_element(remainder.begin(), remainder.end()) - remainder.begin());
        ++counts[s];
        remainder[s] -= 1;
        --left;
    }
    return counts;
}

std::vector<int> layer_split_points(const graph::Model& model, const std::vector<int>& layers,
                                    const std::vector<int>& counts) {
    const int highest = layers.empty() ? -1 : *std::max_element(layers.begin(), layers.end());
    if (highest < 0)
        throw InputError(model.file, "--layers-by",
                         "a decoder whose node names give their layer (\"/model/layers.N/...\"); "
                         "none do");
    // The first kernel of each layer, and the check that no kernel of an earlier layer runs
    // after it.
    std::vector<int> first(static_cast<std::size_t>(highest) + 1, -1);
    int seen = -1;
    for (std::size_t k = 0; k < layers.size(); ++k) {
        const int layer = layers[k];
        if (layer < 0)
            continue;
        if (layer < seen)
            throw InputError(model.file, "--layers-by",
                             "layers whose kernels run one after another; a kernel of layer " +
                                 std::to_string(layer) + " runs after layer " +
                                 std::to_string(seen) + "'s");
        if (first[static_cast<std::size_t>(layer)] < 0)
            first[static_cast<std::size_t>(layer)] = static_cast<int>(k);
        seen = layer;
    }
    std::vector<int> points;
    int layer = 0;
    for (std::size_t s = 0; s + 1 < counts.size(); ++s) {
        layer += counts[s];
        if (layer > highest || first[static_cast<std::size_t>(layer)] < 0)
            throw InputError(model.file, "--layers-by",
                             "layers 0 to " + std::to_string(highest) + " in the node names; " +
                                 "layer " + std::to_string(layer) + " is missing");
        points.push_back(first[static_cast<std::size_t>(layer)]);
    }
    return points;
}

} // namespace cleave::partition
