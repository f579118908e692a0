// GPT-2 decoder stacks of any depth, as exporters write them below opset 17: models of 10k to
// 100k nodes for the large-model benchmarks and tests, and the layers a language model repeats.
#pragma once

#include "model_spec.hpp"

#include <cstdint>

namespace cleave::modelgen {

// A GPT-2 decoder stack in the decomposed form exporters write below opset 17 (LayerNorm as
// ReduceMean, Sub, Pow, Sqrt, Div; GELU with Erf; attention by Reshape, Transpose, MatMul and
// Softmax under a causal mask): `layers` blocks of 47 nodes and 10 more, input the embeddings
// [1, tokens, dim], output the logits [1, tokens, vocab]. For models of 10k to 100k nodes.
ModelSpec decoder_stack(int layers, std::int64_t dim, std::int64_t heads, std::int64_t tokens,
                        std::int64_t vocab = 1000);

} // namespace cleave::modelgen
