// A model's blocks: its nodes grouped by name scope ("/transformer/h.3/attn/..." ->
// transformer/h.3) into blocks of a bounded size, and whether blocks repeat as a transformer's
// layers do. The stacked layout lays a model out a block at a time; the Partition tab labels its
// kernel strip with them; a language model's decoder layers are its repeated blocks.
#pragma once

#include "core/fusion/kernel_graph.hpp"
#include "core/graph/model.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cleave::layout {

struct ModelBlocks {
    std::vector<int> of_node;       // per node, its block
    std::vector<std::string> names; // per block: its scope, empty for a run of unscoped nodes
};

// "/transformer/h.3/attn/c_attn/MatMul" -> transformer, h.3, attn, c_attn (the last part is the
// node's own name).
std::vector<std::string_view> name_scopes(const std::string& node_name);

// Per node, its block; blocks of at most about max_nodes, the members of a group (a kernel) in
// one. A scope too big for one block splits by its sub-scopes; a node without a scope joins a
// consumer's block, else a producer's, else a run of the node order.
ModelBlocks scope_blocks(const graph::Model& model, const std::vector<fusion::Edge>& edges,
                         const std::vector<std::vector<int>>& groups, std::size_t max_nodes);

// Blocks alike: the same scope but for its numbers, the same ops in the same order, each of at
// least kMinRepeatedBlockNodes, as a transformer's layers are and a ResNet's units (7 to 10
// nodes) are not.
inline constexpr std::size_t kMinRepeatedBlockNodes = 20;

// The model's blocks when at least `repeats` of them are alike (none when `repeats` is 0), each
// at most a quarter of the model, so that an encoder splits into its layers.
std::optional<ModelBlocks> repeated_blocks(const graph::Model& model,
                                           const std::vector<fusion::Edge>& edges,
                                           const std::vector<std::vector<int>>& groups,
                                           std::size_t repeats);

// A run of kernels, in the kernel graph's order, that lie in one block, named by the block's
// scope (empty for a run of nodes without one).
struct KernelRun {
    std::string name;
    int begin = 0; // first kernel
    int end = 0;   // one past the last
};
std::vector<KernelRun> kernel_runs(const fusion::KernelGraph& kernels, const ModelBlocks& blocks);

} // namespace cleave::layout
