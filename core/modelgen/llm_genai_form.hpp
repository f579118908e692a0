// A language-model decoder in the form ONNX Runtime GenAI's model builder writes
// (src/python/py/models/builder.py): com.microsoft ops (SimplifiedLayerNormalization,
// SkipSimplifiedLayerNormalization, GroupQueryAttention with the rotary embedding inside, and
// MatMulNBits for int4 weights), the builder's node names and its inputs and outputs, and the
// genai_config.json that describes it.
#pragma once

#include "llm_configs.hpp"
#include "llm_graph.hpp"

#include <nlohmann/json.hpp>

namespace cleave::modelgen {

// Adds the decoder to `graph` (made with `contrib`). `int4`: every projection and the LM head
// as MatMulNBits (4 bits, blocks of 32, symmetric: no zero points); else MatMul.
// Inputs input_ids [batch_size, sequence_length], attention_mask [batch_size,
// total_sequence_length], past_key_values.N.key / .value [batch_size, kv_heads,
// past_sequence_length, head_dim]; outputs logits and present.N.key / .value.
void build_llm_genai_form(const LlmConfig& config, bool int4, LlmGraph& graph);

// genai_config.json for the model written as `file`: model.context_length, model.decoder's
// head_size, hidden_size, num_attention_heads, num_hidden_layers, num_key_value_heads, inputs
// and outputs, model.vocab_size.
nlohmann::ordered_json genai_config(const LlmConfig& config, const std::string& file);

} // namespace cleave::modelgen
