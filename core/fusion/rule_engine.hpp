// Applies a fusion rule set to a model: nodes computable at load time fold into their consumer,
// then each rule merges the edges it matches, refusing merges that would make a cycle.
#pragma once

#include "kernel_graph.hpp"
#include "load_time.hpp"
#include "rule_set.hpp"

namespace cleave::fusion {

// `parts`: as NodeGroups takes them (no kernel joins two parts).
KernelGraph fuse_with_rules(const graph::Model& model, const RuleSet& rules,
                            std::span<const int> parts = {});

} // namespace cleave::fusion
