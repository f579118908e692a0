// OpenCV's DNN layers mapped back to the model's nodes. OpenCV names a layer
// "onnx_node!<node name>", or "onnx_node_output_<i>!<output>" for a node without a name; helper
// layers the importer adds for a node append "/<what>" to its name. Layers fused into another
// one (batch norm and activations into a convolution, an in-place concat into its inputs)
// never run, and join the running layer they feed from.
#pragma once

#include "core/graph/model.hpp"

#include <string>
#include <vector>

namespace cleave::opencv_profiler {

struct Layer {
    std::string name;        // OpenCV's layer name
    std::string type;        // OpenCV's layer type ("Convolution", "Eltwise", ...)
    std::vector<int> inputs; // the layers it reads, as indices into the same list; -1: an input
    bool skipped = false;    // fused into another layer: it takes no time of its own
};

struct LayerKernel {
    std::string name;                // its anchor layer's node name (the layer's where none)
    std::string op;                  // its anchor layer's type
    std::vector<int> layers;         // indices into the layer list, ascending
    std::vector<std::string> covers; // node names in topological order
};

// Groups the layers into kernels in execution order: each running layer with the skipped
// layers fused into it and the other layers of the same nodes. Nodes with no layer of their own
// that OpenCV's graph simplifier merged into a fused layer join the kernel of the node they
// feed; nodes computed at load time are in no kernel. Layers of no node (the Identity OpenCV
// adds for each graph output) are kernels with empty covers.
std::vector<LayerKernel> group_layers(const graph::Model& model, const std::vector<Layer>& layers);

} // namespace cleave::opencv_profiler
