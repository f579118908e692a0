// Applies a fusion rule set to a model: nodes computable at load time fold into their consumer,
// then each rule merges the edges it matches, refusing merges that would make a cycle.
#pragma once

#include "kernel_graph.hpp"
#include "rule_set.hpp"

namespace cleave::fusion {

// Nodes a runtime computes once at load time: Constant, nodes reading only initializers and
// such nodes, and Shape/Size of a tensor whose shape is fully known, unless it is computed from a
// graph input the file gives a symbolic dim (Tensor::symbolic_in_file): the runtime reads the
// file, not the dims Cleave bound.
std::vector<bool> load_time_constants(const graph::Model& model);

// By tensor: computed from a graph input the file gives a symbolic dim, so that a runtime reading
// the file learns its shape only when it runs.
std::vector<bool> run_time_shapes(const graph::Model& model);

// `parts`: as NodeGroups takes them (no kernel joins two parts).
KernelGraph fuse_with_rules(const graph::Model& model, const RuleSet& rules,
                            std::span<const int> parts = {});

} // namespace cleave::fusion
