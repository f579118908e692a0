// A language-model decoder with a key/value cache in the plain form exporters write (Hugging
// Face Optimum, torch.onnx): default-domain opset-17 ops only, RMSNorm, rotary embedding,
// grouped key/value heads, the causal and padding mask and the gated MLP decomposed into
// elementary ops. Optimum's inputs and outputs and symbolic dims.
#pragma once

#include "llm_configs.hpp"
#include "llm_graph.hpp"

namespace cleave::modelgen {

// Adds the whole decoder of `config` to `graph` (its float type: FLOAT or FLOAT16).
// Inputs input_ids and position_ids [batch_size, sequence_length], attention_mask
// [batch_size, past_sequence_length + sequence_length], past_key_values.N.key / .value
// [batch_size, kv_heads, past_sequence_length, head_dim]; outputs logits [batch_size,
// sequence_length, vocab] and present.N.key / .value.
void build_llm_onnx_form(const LlmConfig& config, LlmGraph& graph);

} // namespace cleave::modelgen
