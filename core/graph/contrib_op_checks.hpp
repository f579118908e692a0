// The contrib ops' attributes checked against their weights and inputs (contrib_ops.hpp): a
// MatMulNBits whose K, N, bits or block_size disagree with its packed weight or its input, and
// an attention whose head counts do not divide its hidden sizes, would give wrong shapes and
// costs, so they are refused with an InputError naming the node, the attribute and what was
// expected.
#pragma once

#include "model.hpp"

namespace cleave::graph {

// Throws InputError (file: model.file) for the first node that fails its op's check.
void check_contrib_nodes(const Model& model);

} // namespace cleave::graph
