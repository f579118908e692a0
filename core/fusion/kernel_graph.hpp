// Kernels: the groups of nodes a runtime executes as one launch. Fusion is decided per edge
// (is the edge u -> v inside one kernel?); kernels are the connected groups of fused edges,
// kept only where contracting them leaves the graph acyclic.
#pragma once

#include "core/graph/model.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace cleave::fusion {

// A node-to-node tensor edge of the original graph (one per producer/consumer pair).
struct Edge {
    int from = -1;   // producer node index
    int to = -1;     // consumer node index
    int tensor = -1; // the first tensor that links them
};

// Edges in (to, from) order: every consumer's inputs in input order.
std::vector<Edge> node_edges(const graph::Model& model);

struct Kernel {
    std::string name;       // the name of its first (anchor) node
    std::string type;       // runtime kernel type: "FusedConv", "Conv2D", "Winograd", ...
    std::vector<int> nodes; // node indices, ascending (topological)
    std::int64_t macs = 0;
    std::int64_t flops = 0;
    // Bytes of the tensors entering the kernel from outside it, weights included, as read
    // (graph::input_bytes_read: a rotary op reads only some rows of its position tables).
    std::int64_t bytes_in = 0;
    std::int64_t bytes_out = 0;    // tensors leaving it (to other kernels or graph outputs)
    std::int64_t weight_bytes = 0; // initializers read by its nodes, as stored
    int launches = 1;              // kernels the runtime actually runs for it (HardSwish: 2 on ORT)
};

struct KernelGraph {
    std::vector<Kernel> kernels;     // topological order
    std::vector<int> kernel_of_node; // node index -> kernel index
    std::vector<Edge> edges;         // node_edges(model)
    std::vector<bool> fused;         // per edge: both ends in one kernel
};

// Union-find over nodes that refuses any merge after which the contracted graph would have a
// cycle (a path leaving one group through a third group and entering the other), and, given
// `parts` (a label per node, such as the PE a mapping puts it on), any merge across two parts:
// each part is then fused as if it were a model of its own.
class NodeGroups {
public:
    explicit NodeGroups(const graph::Model& model, std::span<const int> parts = {});

    int find(int node);
    // Merges the groups of u and v; returns false (and changes nothing) when it would make a cycle
    // or join two parts.
    bool merge(int u, int v);
    const std::vector<int>& members(int root) const {
        return members_[static_cast<std::size_t>(root)];
    }

private:
    std::vector<int> parent_;
    std::vector<int> parts_; // empty: one part
    std::vector<std::vector<int>> members_;
    std::vector<std::vector<int>> successors_;
};

// Kernels from node groups, in a topological order of the contracted graph (ties by first
// node), with costs summed; `type_of` names each kernel's type from its root node.
KernelGraph make_kernel_graph(const graph::Model& model, std::vector<Edge> edges,
                              NodeGroups& groups,
                              const std::function<std::string(int root)>& type_of);

// Groups nodes by fused edges (in edge order); an edge whose merge would make a cycle stays
// unfused. Kernel types are the op of each kernel's first node.
KernelGraph group_kernels(const graph::Model& model, const std::vector<Edge>& edges,
                          const std::vector<bool>& fuse);

} // namespace cleave::fusion
