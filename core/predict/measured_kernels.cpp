#include "measured_kernels.hpp"

#include "core/fusion/fusion_score.hpp"
#include "core/fusion/rule_engine.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace cleave::predict {

namespace {

// ONNX Runtime names a kernel its graph optimiser made after the node it grew from, with the
// fusions applied as path components: "<node>/MatMulAddFusion",
// "<node>/MatMulScaleFusion//MatmulTransposeFusion/". The node, or the name as is.
std::string grown_from(std::string name) {
    for (;;) {
        while (!name.empty() && name.back() == '/')
            name.pop_back();
        const auto slash = name.rfind('/');
        if (slash == std::string::npos || !name.ends_with("Fusion"))
            return name;
        name.erase(slash);
    }
}

// The run with the covers of fused kernels whose covers leave out the node they grew from (seen
// in transformer runs: empty, or naming unrelated constants) replaced by that node.
using NodeIndex = std::unordered_map<std::string, int>; // node name -> node

NodeIndex node_index(const graph::Model& model) {
    NodeIndex node_of;
    for (std::size_t n = 0; n < model.nodes.size(); ++n)
        node_of.emplace(model.nodes[n].name, static_cast<int>(n));
    return node_of;
}

profile::MeasuredRun with_covers_from_names(const NodeIndex& node_of,
                                            const profile::MeasuredRun& run) {
    profile::MeasuredRun out = run;
    for (auto& kernel : out.kernels) {
        const std::string node = grown_from(kernel.name);
        if (node == kernel.name || !node_of.count(node) ||
            std::find(kernel.covers.begin(), kernel.covers.end(), node) != kernel.covers.end())
            continue;
        kernel.covers = {node};
    }
    return out;
}

// ONNX Runtime runs an ONNX function op without a kernel of its own as the ops of its body
// (HardSwish: HardSigmoid, then Mul), names the last one after itself, covering the node, and
// leaves the ones before it covering nothing. They are one kernel of the node's op here, timed as
// their sum, as the fusion rules count it (their `launches`) and as a prediction sees it.
// `launches`: per kernel of the run returned, the runtime kernels it stands for.
profile::MeasuredRun with_expansions_joined(const graph::Model& model, const NodeIndex& node_of,
                                            const profile::MeasuredRun& run,
                                            std::vector<int>& launches) {
    profile::MeasuredRun out = run;
    out.kernels.clear();
    launches.clear();
    std::size_t body_start = 0; // where the kernels covering nothing since the last one start
    for (std::size_t k = 0; k < run.kernels.size(); ++k) {
        auto kernel = run.kernels[k];
        if (kernel.covers.empty()) {
            out.kernels.push_back(std::move(kernel));
            launches.push_back(1);
            continue;
        }
        const auto node =
            kernel.covers.size() == 1 ? node_of.find(kernel.covers.front()) : node_of.end();
        const std::size_t body = out.kernels.size() - body_start;
        int launched = 1;
        if (node != node_of.end() && body > 0 && !node_of.count(grown_from(kernel.name)) &&
            kernel.op != model.nodes[static_cast<std::size_t>(node->second)].op) {
            kernel.op = model.nodes[static_cast<std::size_t>(node->second)].op;
            kernel.domain = model.nodes[static_cast<std::size_t>(node->second)].domain;
            for (std::size_t b = 0; b < body; ++b) {
                const auto& part = out.kernels.back().us;
                if (kernel.us && part)
                    *kernel.us += *part;
                else
                    kernel.us.reset();
                out.kernels.pop_back();
                launches.pop_back();
            }
            launched = static_cast<int>(body) + 1;
        }
        out.kernels.push_back(std::move(kernel));
        launches.push_back(launched);
        body_start = out.kernels.size();
    }
    return out;
}

} // namespace

MeasuredKernels measured_kernels(const graph::Model& model, const profile::MeasuredRun& given) {
    const auto count = model.nodes.size();
    std::vector<int> launches; // per kernel of `run`
    const auto node_of = node_index(model);
    const profile::MeasuredRun run =
        with_expansions_joined(model, node_of, with_covers_from_names(node_of, given), launches);
    const auto measured = fusion::measured_kernel_of_node(model, run);
    const auto constant = fusion::load_time_constants(model);
    fusion::NodeGroups groups(model);
    auto edges = fusion::node_edges(model);
    for (const auto& e : edges) {
        const int a = measured[static_cast<std::size_t>(e.from)];
        if (a >= 0 && a == measured[static_cast<std::size_t>(e.to)])
            groups.merge(e.from, e.to);
    }
    for (std::size_t i = count; i-- > 0;) {
        if (!constant[i] || measured[i] >= 0)
            continue;
        int consumer = -1;
        for (const int t : model.nodes[i].outputs)
            if (t >= 0 && !model.tensors[static_cast<std::size_t>(t)].consumers.empty()) {
                const int c = model.tensors[static_cast<std::size_t>(t)].consumers.front();
                consumer = consumer < 0 ? c : std::min(consumer, c);
            }
        if (consumer >= 0)
            groups.merge(static_cast<int>(i), consumer);
    }

    // The runtime kernel of a group: the one its timed members name, when they name only one.
    const auto runtime_kernel = [&](int root) {
        int found = -1;
        for (const int n : groups.members(root)) {
            const int k = measured[static_cast<std::size_t>(n)];
            if (k < 0)
                continue;
            if (found >= 0 && found != k)
                return -2;
            found = k;
        }
        return found;
    };
    MeasuredKernels out;
    out.kernels = fusion::make_kernel_graph(model, std::move(edges), groups, [&](int root) {
        const int k = runtime_kernel(root);
        return k >= 0 ? run.kernels[static_cast<std::size_t>(k)].op
                      : model.nodes[static_cast<std::size_t>(root)].op;
    });

    std::vector<int> runtime_of(out.kernels.kernels.size(), -1);
    std::map<int, int> groups_per_runtime_kernel;
    for (std::size_t k = 0; k < out.kernels.kernels.size(); ++k) {
        runtime_of[k] = runtime_kernel(groups.find(out.kernels.kernels[k].nodes.front()));
        if (runtime_of[k] >= 0)
            ++groups_per_runtime_kernel[runtime_of[k]];
    }
    out.us.resize(out.kernels.kernels.size());
    for (std::size_t k = 0; k < out.kernels.kernels.size(); ++k) {
        const int r = runtime_of[k];
        if (r >= 0 && groups_per_runtime_kernel[r] == 1)
            out.us[k] = run.kernels[static_cast<std::size_t>(r)].us;
        if (r >= 0)
            out.kernels.kernels[k].launches = launches[static_cast<std::size_t>(r)];
    }
    for (std::size_t r = 0; r < run.kernels.size(); ++r) {
        const auto& us = run.kernels[r].us;
        if (!us)
            continue;
        out.total_us += *us;
        if (!groups_per_runtime_kernel.count(static_cast<int>(r)))
            out.unattributed_us += *us;
    }
    return out;
}

} // namespace cleave::predict
