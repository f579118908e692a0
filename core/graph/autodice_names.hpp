// AutoDiCE's node naming: a node is called by its first output's name with '/' replaced by '_'
// (e.g. "/layer1/layer1.0/conv1/Conv_output_0" -> "_layer1_layer1.0_conv1_Conv_output_0").
#pragma once

#include "model.hpp"

#include <string>

namespace cleave::graph {

std::string autodice_name(const Model& model, const Node& node);

// Renames every node (all = true) or only those whose name is empty or repeated; a name that
// would collide gets a "_2", "_3"... suffix. Returns how many nodes were renamed.
int apply_autodice_names(Model& model, bool all);

} // namespace cleave::graph
