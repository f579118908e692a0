// The work of ONNX Runtime's contrib ops (contrib_ops.hpp) and the logical weights of quantized
// ops (a 4-bit weight is one parameter, not half a byte; its scales and zero points are none),
// by the rules of docs/graph-features.md; node_cost.cpp asks here before its own rules.
#pragma once

#include "model.hpp"

#include <optional>

namespace cleave::graph {

struct ContribWork {
    std::int64_t macs = 0;
    std::int64_t flops = 0;
    bool complete = true; // false when a shape the rule needs is unknown
};

// The MACs and FLOPs of a com.microsoft op or SimplifiedLayerNormalization; nullopt for any
// other node.
std::optional<ContribWork> contrib_op_work(const Model& model, const Node& node);

// The logical weights that input `input` of `node`, an initializer, holds where the node is a
// quantized op: MatMulNBits' packed B K x N, GatherBlockQuantized's data its unpacked elements,
// the integer weights of MatMulInteger, QLinearMatMul, ConvInteger and QLinearConv their
// elements, scales and zero points 0; and the rotary cos and sin caches of RotaryEmbedding and
// GroupQueryAttention 0 (tables computed from positions, as BN's statistics are buffers).
// nullopt where the ordinary rule (floating initializers count) applies.
std::optional<std::int64_t> logical_weight_parameters(const Model& model, const Node& node,
                                                      std::size_t input);

// The bytes `node` reads of its input `input` where it reads less than the whole tensor: of the
// cos and sin caches of RotaryEmbedding and GroupQueryAttention, tables over every position up to
// the longest context, only the rows of the positions it rotates (batch x new tokens). nullopt
// where the node reads the whole input.
std::optional<std::int64_t> contrib_input_bytes_read(const Model& model, const Node& node,
                                                     std::size_t input);

// The same for an initializer across the nodes reading it: the first quantized reading's count.
std::optional<std::int64_t> logical_initializer_parameters(const Model& model, int tensor);

} // namespace cleave::graph
