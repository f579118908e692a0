// Kernels: the groups of nodes a runtime executes as one launch. Fusion is decided per edge
// (is the edge u -> v inside one kernel?); kernels are the connected groups of fused edges,
// kept only where contracting them leaves the graph acyclic.
#pragma once

#include "core/graph/model.hpp"

#include <cstdint>
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
    std::int64_t bytes_in = 0;     // tensors entering the kernel from outside it, weights included
    std::int64_t bytes_out = 0;    // tensors leaving it (to other kernels or graph outputs)
    std::int64_t weight_bytes = 0; // initializers read by its nodes
};

struct KernelGraph {
    std::vector<Kernel> kernels;     // topological order
    std::vector<int> kernel_of_node; // node index -> kernel index
    std::vector<Edge> edges;         // node_edges(model)
    std::vector<bool> fused;         // per edge: both ends in one kernel
};

// Groups nodes by fused edges (union-find, in edge order); a merge that would make the
// contracted graph cyclic is refused and that edge stays unfused. Kernel types are left empty.
KernelGraph group_kernels(const graph::Model& model, const std::vector<Edge>& edges,
                          const std::vector<bool>& fuse);

} // namespace cleave::fusion
