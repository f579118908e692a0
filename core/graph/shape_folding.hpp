// Exporters compute many shapes at run time (Shape -> Gather -> Div -> Concat -> Reshape) and
// libonnx's data propagation stops at the first op it does not know. Folding those small integer
// computations into constants lets shape inference reach the rest of the graph. Internal to
// core/graph; the model's own nodes are never changed.
#pragma once

#include <functional>
#include <onnx/onnx_pb.h>

namespace cleave::graph {

// Runs libonnx shape inference on `model`, then repeatedly folds integer shape computations
// and infers again on a copy whose folded nodes are constants, bringing every newly inferred
// shape back into `model`. `warn` receives what stopped inference.
void infer_shapes_with_folding(onnx::ModelProto& model,
                               const std::function<void(std::string)>& warn);

} // namespace cleave::graph
