// Exporters compute many shapes at run time (Shape -> Gather -> Div -> Concat -> Reshape) and
// libonnx's data propagation stops at the first op it does not know. Folding those small integer
// computations into constants lets shape inference reach the rest of the graph. Internal to
// core/graph; the model's own nodes are never changed.
#pragma once

#include <functional>
#include <onnx/onnx_pb.h>

namespace cleave::graph {

// Runs shape inference on `model` node by node, folding integer shape computations as it goes:
// each folded value is data for the inference of the nodes after it, so one pass reaches a
// Reshape whose target follows from shapes inferred just before (Swin's padding and windows,
// block after block). `warn` receives what stopped inference.
void infer_shapes_with_folding(onnx::ModelProto& model,
                               const std::function<void(std::string)>& warn);

} // namespace cleave::graph
