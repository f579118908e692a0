#include "layer_kernels.hpp"

#include "core/fusion/rule_engine.hpp"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>

namespace cleave::opencv_profiler {

namespace {

constexpr std::string_view kNodePrefix = "onnx_node!";
constexpr std::string_view kOutputPrefix = "onnx_node_output_"; // then "<i>!<output name>"

struct NodeMatch {
    int node = -1;
    bool exact = false; // the layer is the node's own, not a helper layer added for it
};

class LayerGroups {
public:
    explicit LayerGroups(std::size_t count) : parent_(count) {
        std::iota(parent_.begin(), parent_.end(), 0);
    }
    int find(int x) {
        while (parent_[static_cast<std::size_t>(x)] != x)
            x = parent_[static_cast<std::size_t>(x)] =
                parent_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(x)])];
        return x;
    }
    void merge(int a, int b) { parent_[static_cast<std::size_t>(find(a))] = find(b); }

private:
    std::vector<int> parent_;
};

class NodeNames {
public:
    explicit NodeNames(const graph::Model& model) {
        for (std::size_t n = 0; n < model.nodes.size(); ++n)
            nodes_.emplace(model.nodes[n].name, static_cast<int>(n));
        for (const auto& t : model.tensors)
            if (t.producer >= 0)
                producers_.emplace(t.name, t.producer);
    }

    NodeMatch match(std::string_view layer) const {
        if (layer.starts_with(kNodePrefix))
            return strip_suffixes(layer.substr(kNodePrefix.size()), nodes_);
        if (layer.starts_with(kOutputPrefix)) {
            const auto bang = layer.find('!');
            return bang == std::string_view::npos
                       ? NodeMatch{}
                       : strip_suffixes(layer.substr(bang + 1), producers_);
        }
        // OPENCV_DNN_ONNX_USE_LEGACY_NAMES: bare node or output names; without it, the Identity
        // OpenCV adds under a graph output's name.
        const NodeMatch by_node = strip_suffixes(layer, nodes_);
        return by_node.node >= 0 ? by_node : strip_suffixes(layer, producers_);
    }

private:
    // "/fc/Gemm/flatten" -> "/fc/Gemm": helper layers extend the node's name with "/<what>".
    static NodeMatch strip_suffixes(std::string_view name,
                                    const std::unordered_map<std::string, int>& index) {
        for (bool exact = true; !name.empty(); exact = false) {
            if (const auto it = index.find(std::string(name)); it != index.end())
                return {it->second, exact};
            const auto slash = name.rfind('/');
            if (slash == std::string_view::npos || slash == 0)
                break;
            name = name.substr(0, slash);
        }
        return {};
    }

    std::unordered_map<std::string, int> nodes_;
    std::unordered_map<std::string, int> producers_; // by output tensor name
};

// The running layer a skipped one was fused into: of the running layers it reads from
// (through other skipped layers), the last to run; OpenCV fuses into the later input.
int host_layer(const std::vector<Layer>& layers, int skipped) {
    std::vector<bool> seen(layers.size(), false);
    std::vector<int> stack{skipped};
    int host = -1;
    while (!stack.empty()) {
        const int l = stack.back();
        stack.pop_back();
        for (const int in : layers[static_cast<std::size_t>(l)].inputs) {
            if (in < 0 || seen[static_cast<std::size_t>(in)])
                continue;
            seen[static_cast<std::size_t>(in)] = true;
            if (layers[static_cast<std::size_t>(in)].skipped)
                stack.push_back(in);
            else
                host = std::max(host, in);
        }
    }
    return host;
}

} // namespace

std::vector<LayerKernel> group_layers(const graph::Model& model, const std::vector<Layer>& layers) {
    const NodeNames names(model);
    const std::size_t count = layers.size();
    std::vector<NodeMatch> matches;
    for (const auto& layer : layers)
        matches.push_back(names.match(layer.name));

    LayerGroups groups(count);
    std::unordered_map<int, int> layer_of_node; // the first layer of each node
    for (std::size_t l = 0; l < count; ++l) {
        const int node = matches[l].node;
        if (node >= 0) {
            const auto [it, added] = layer_of_node.emplace(node, static_cast<int>(l));
            if (!added)
                groups.merge(static_cast<int>(l), it->second);
        }
        if (layers[l].skipped)
            if (const int host = host_layer(layers, static_cast<int>(l)); host >= 0)
                groups.merge(static_cast<int>(l), host);
    }

    // Kernels in the order their first running layer runs.
    std::vector<int> first_layer(count, -1); // by group root
    for (std::size_t l = 0; l < count; ++l) {
        int& first = first_layer[static_cast<std::size_t>(groups.find(static_cast<int>(l)))];
        const bool runs = !layers[l].skipped;
        if (first < 0 || (runs && layers[static_cast<std::size_t>(first)].skipped))
            first = static_cast<int>(l);
    }
    std::vector<int> roots;
    for (std::size_t r = 0; r < count; ++r)
        if (first_layer[r] >= 0)
            roots.push_back(static_cast<int>(r));
    std::sort(roots.begin(), roots.end(), [&](int a, int b) {
        return first_layer[static_cast<std::size_t>(a)] < first_layer[static_cast<std::size_t>(b)];
    });
    std::vector<int> kernel_of_root(count, -1);
    std::vector<LayerKernel> kernels(roots.size());
    for (std::size_t k = 0; k < roots.size(); ++k)
        kernel_of_root[static_cast<std::size_t>(roots[k])] = static_cast<int>(k);

    std::vector<int> kernel_of_node(model.nodes.size(), -1);
    for (std::size_t l = 0; l < count; ++l) {
        const int k = kernel_of_root[static_cast<std::size_t>(groups.find(static_cast<int>(l)))];
        kernels[static_cast<std::size_t>(k)].layers.push_back(static_cast<int>(l));
        if (matches[l].node >= 0)
            kernel_of_node[static_cast<std::size_t>(matches[l].node)] = k;
    }

    // Nodes without a layer that run: the simplifier fused them into the last node of their
    // pattern, downstream; failing that, they join the kernel they read from.
    const std::vector<bool> constant = fusion::load_time_constants(model);
    for (std::size_t n = model.nodes.size(); n-- > 0;) {
        if (constant[n] || kernel_of_node[n] >= 0)
            continue;
        int first = -1; // the first consumer that has a kernel
        for (const int c : model.consumers_of(model.nodes[n]))
            if (kernel_of_node[static_cast<std::size_t>(c)] >= 0 && (first < 0 || c < first))
                first = c;
        if (first >= 0)
            kernel_of_node[n] = kernel_of_node[static_cast<std::size_t>(first)];
    }
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
        if (constant[n] || kernel_of_node[n] >= 0)
            continue;
        for (const int t : model.nodes[n].inputs)
            if (t >= 0)
                if (const int p = model.tensors[static_cast<std::size_t>(t)].producer;
                    p >= 0 && kernel_of_node[static_cast<std::size_t>(p)] >= 0)
                    kernel_of_node[n] = kernel_of_node[static_cast<std::size_t>(p)];
    }
    for (std::size_t n = 0; n < model.nodes.size(); ++n)
        if (kernel_of_node[n] >= 0)
            kernels[static_cast<std::size_t>(kernel_of_node[n])].covers.push_back(
                model.nodes[n].name);

    for (auto& kernel : kernels) {
        // Anchor: the node's own running layer first, then any running layer, then any.
        int anchor = kernel.layers.front();
        int rank = 3;
        for (const int l : kernel.layers) {
            const auto& match = matches[static_cast<std::size_t>(l)];
            const bool runs = !layers[static_cast<std::size_t>(l)].skipped;
            const int r = runs && match.exact ? 0 : runs && match.node >= 0 ? 1 : runs ? 2 : 3;
            if (r < rank) {
                rank = r;
                anchor = l;
            }
        }
        const auto& layer = layers[static_cast<std::size_t>(anchor)];
        const int node = matches[static_cast<std::size_t>(anchor)].node;
        kernel.op = layer.type;
        kernel.name = node >= 0 ? model.nodes[static_cast<std::size_t>(node)].name
                      : layer.name.starts_with(kNodePrefix) ? layer.name.substr(kNodePrefix.size())
                                                            : layer.name;
    }
    return kernels;
}

} // namespace cleave::opencv_profiler
