// Splitting a language-model decoder at its layers, as the runtimes that serve one across
// devices do: each device takes a contiguous range of layers, the embedding going with the first
// and the head with the last. The layer of a kernel is read from its nodes' names, as exporters
// write them ("/model/layers.12/self_attn/...", Optimum and ONNX Runtime GenAI; "/h.12/", GPT-2).
// The rules: equal layer counts (distributed-llama) and layers in proportion to each device's
// memory (exo; llama.cpp's default split by memory on a board whose GPU shares it).
#pragma once

#include "core/fusion/kernel_graph.hpp"
#include "core/graph/model.hpp"

#include <string>
#include <vector>

namespace cleave::partition {

// Per kernel, the highest decoder layer among its nodes (a kernel that fuses one layer's
// residual add into the next layer's norm belongs to the next); -1 for a kernel in no layer. In
// a decoder with a KV cache, a number at or past its layers' count names none (ONNX Runtime
// GenAI names its final norm "/model/layers.N/final_norm_layernorm", N the layer count).
std::vector<int> kernel_layers(const graph::Model& model, const fusion::KernelGraph& kernels);

enum class LayerRule { Equal, Memory };
// "equal" or "memory"; throws InputError (place `--layers-by`) for anything else.
LayerRule parse_layer_rule(const std::string& text);

// Layers per segment for `layers` layers over segments weighted by `weights` (Memory: in
// proportion, largest remainders first; Equal: the weights are ignored, the first segments take
// one more where they do not divide). Every segment gets at least one layer. Throws
// InputError(`model_file`, "--pes", ...) for more segments than layers.
std::vector<int> layers_per_segment(int layers, LayerRule rule, const std::vector<double>& weights,
                                    const std::string& model_file);

// Split points (kernels before each cut) giving segment s `counts[s]` layers: each cut before
// the first kernel of a layer. Throws InputError(model file, "--layers-by", ...) for a model
// whose node names give no layers, or whose layers' kernels interleave.
std::vector<int> layer_split_points(const graph::Model& model, const std::vector<int>& layers,
                                    const std::vector<int>& counts);

} // namespace cleave::partition
