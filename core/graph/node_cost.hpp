// Per-node costs: MACs, FLOPs, weight parameters and bytes moved. The counting rules are those
// of docs/graph-features.md; keep the two in step.
#pragma once

#include "model.hpp"

namespace cleave::graph {

// The bytes `node` reads of its input `input`: the tensor's size, or less where the node only
// looks rows up in it (a Gather's data, contrib_input_bytes_read); -1 when the size is unknown.
std::int64_t input_bytes_read(const Model& model, const Node& node, std::size_t input);

NodeCost node_cost(const Model& model, const Node& node);

// Fills every node's cost and the model's totals (weight_parameters, initializer_elements,
// macs, flops).
void compute_costs(Model& model);

} // namespace cleave::graph
