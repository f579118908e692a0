// Splitting a language-model decoder at its layers, as the runtimes that serve one across
// devices do: each device takes a contiguous range of layers, the embedding going with the first
// and the head with the last. The layer of a kernel is read from its nodes' names, as exporters
// write them ("/model/layers.12/self_attn/...", Optimum and ONNX Runtime GenAI; "/h.12/", GPT-2).
// The rules: equal layer counts (distributed-llama's equal shares), layers in proportion to each
// host's memory (exo: largest remainders, at least one each) and llama.cpp's split in proportion
// to each device's memory (its own where it has one, else the board's), each layer going to the
// device whose cumulative share first passes layer / (layers + 1), the head taking the last slot.
#pragma once

#include "core/device/cluster.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/graph/model.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cleave::partition {

// Per kernel, the highest decoder layer among its nodes (a kernel that fuses one layer's
// residual add into the next layer's norm belongs to the next); -1 for a kernel in no layer. In
// a decoder with a KV cache, a number at or past its layers' count names none (ONNX Runtime
// GenAI names its final norm "/model/layers.N/final_norm_layernorm", N the layer count).
std::vector<int> kernel_layers(const graph::Model& model, const fusion::KernelGraph& kernels);

enum class LayerRule { Equal, Memory, LlamaCpp };
// "equal", "memory" or "llama.cpp"; throws InputError (place `--layers-by`) for anything else.
LayerRule parse_layer_rule(const std::string& text);

// What `rule` weighs cluster PE `pe` by: 1 (Equal), its host's memory capacity (Memory), its own
// memory where it has one, else its host's (LlamaCpp); nullopt where the device gives none.
std::optional<double> layer_rule_weight(const device::Cluster& cluster, int pe, LayerRule rule);

// Layers per segment for `layers` layers over segments weighted by `weights` (Memory: in
// proportion, largest remainders first; Equal: the weights are ignored, the first segments take
// one more where they do not divide; LlamaCpp: as llama.cpp assigns them, which can leave a
// segment none). Every segment but LlamaCpp's gets at least one layer. Throws
// InputError(`model_file`, "--pes", ...) for more segments than layers.
std::vector<int> layers_per_segment(int layers, LayerRule rule, const std::vector<double>& weights,
                                    const std::string& model_file);

// Split points (kernels before each cut) giving segment s `counts[s]` layers: each cut before
// the first kernel of a layer. Throws InputError(model file, "--layers-by", ...) for a model
// whose node names give no layers, or whose layers' kernels interleave.
std::vector<int> layer_split_points(const graph::Model& model, const std::vector<int>& layers,
                                    const std::vector<int>& counts);

} // namespace cleave::partition
