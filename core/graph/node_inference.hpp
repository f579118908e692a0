// Shape inference node by node with libonnx's per-op inference functions. libonnx's whole-graph
// driver hands a node to its op's function even when an input has no type (after a custom op,
// say), and some functions then dereference null; here such a node is skipped and its outputs
// stay unknown. Internal to core/graph.
#pragma once

#include <onnx/onnx_pb.h>

#include <functional>
#include <string>

namespace cleave::graph {

// Infers types and shapes of the top-level graph in node order (nodes must be sorted), merging
// them into value_info and the graph outputs; propagates small integer data as libonnx does.
// `warn` receives conflicts between inferred and declared shapes.
void infer_node_by_node(onnx::ModelProto& model, const std::function<void(std::string)>& warn);

} // namespace cleave::graph
