// What a runtime knows when it loads a model, before it runs: the nodes it computes once (and so
// runs in no kernel), and the tensors whose shapes it learns only when it runs.
#pragma once

#include "core/graph/model.hpp"

#include <vector>

namespace cleave::fusion {

// Nodes a runtime computes once at load time: Constant, nodes reading only initializers and
// such nodes, and Shape/Size of a tensor whose shape is fully known, unless it is computed from a
// graph input the file gives a symbolic dim (Tensor::symbolic_in_file): the runtime reads the
// file, not the dims Cleave bound.
std::vector<bool> load_time_constants(const graph::Model& model);

// By tensor: computed from a graph input the file gives a symbolic dim, so that a runtime reading
// the file learns its shape only when it runs.
std::vector<bool> run_time_shapes(const graph::Model& model);

} // namespace cleave::fusion
