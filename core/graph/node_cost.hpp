// Per-node costs: MACs, FLOPs, weight parameters and bytes moved. The counting rules are those
// of docs/graph-features.md; keep the two in step.
#pragma once

#include "model.hpp"

namespace cleave::graph {

NodeCost node_cost(const Model& model, const Node& node);

// Fills every node's cost and the model's totals (weight_parameters, initializer_elements,
// macs, flops).
void compute_costs(Model& model);

} // namespace cleave::graph
