// Shape inference node by node with libonnx's per-op inference functions. libonnx's whole-graph
// driver hands a node to its op's function even when an input has no type (after a custom op,
// say), and some functions then dereference null; here such a node is skipped and its outputs
// stay unknown. Internal to core/graph.
#pragma once

#include <cstdint>
#include <functional>
#include <onnx/onnx_pb.h>
#include <optional>
#include <string>
#include <vector>

namespace cleave::graph {

// Every dim of a value, where inference has found them all.
using KnownDims = std::function<std::optional<std::vector<std::int64_t>>(const std::string&)>;

// Called after each node is inferred: the node's first output as a constant where it can be
// computed (small integer shape arithmetic). Later nodes' inference reads it as data, so a
// Reshape whose target is computed from Shape gets its output shape in the same pass.
using NodeFolder =
    std::function<std::optional<onnx::TensorProto>(const onnx::NodeProto&, const KnownDims&)>;

// Infers types and shapes of the top-level graph in node order (nodes must be sorted), merging
// them into value_info and the graph outputs; propagates small integer data as libonnx does and
// what `fold` computes. `warn` receives conflicts between inferred and declared shapes.
void infer_node_by_node(onnx::ModelProto& model, const std::function<void(std::string)>& warn,
                        const NodeFolder& fold = {});

} // namespace cleave::graph
