// The published shapes of language models that `cleave generate-models --llm NAME` writes as
// decoders with a key/value cache (docs/model-generation.md): each row is the model's Hugging
// Face config.json, the source named beside it in llm_configs.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cleave::modelgen {

enum class LlmActivation { Silu, GeluTanh }; // the gated MLP's activation

struct LlmConfig {
    std::string name;              // the --llm key: "llama-3.1-8b"
    std::string hf_id;             // "meta-llama/Llama-3.1-8B"; empty for a generated shape
    std::string model_type;        // config.json's model_type: "llama", "qwen2", "gemma2", ...
    std::int64_t hidden = 0;       // hidden_size
    std::int64_t layers = 0;       // num_hidden_layers
    std::int64_t heads = 0;        // num_attention_heads
    std::int64_t kv_heads = 0;     // num_key_value_heads
    std::int64_t head_dim = 0;     // head_dim, or hidden_size / heads where the config has none
    std::int64_t intermediate = 0; // intermediate_size
    std::int64_t vocab = 0;        // vocab_size
    std::int64_t context = 0;      // max_position_embeddings
    double rope_theta = 10000;
    bool tied_embeddings = false; // tie_word_embeddings
    double norm_eps = 1e-5;       // rms_norm_eps
    bool qkv_bias = false;        // attention_bias (Qwen2)
    // Gemma 2: every other layer (the even ones) attends only the last `sliding_window` tokens.
    std::int64_t sliding_window = 0;
    LlmActivation activation = LlmActivation::Silu;
    bool fused_projections = false; // Phi-3: one qkv_proj and one gate_up_proj
    bool gemma = false; // embeddings times sqrt(hidden), norms after attention and the MLP too
    float attention_softcap = 0; // attn_logit_softcapping: cap * tanh(scores / cap)
    float final_softcap = 0;     // final_logit_softcapping
};

// The table, in the order listed.
const std::vector<LlmConfig>& llm_configs();

// The row named `name` (case-insensitive), or null.
const LlmConfig* find_llm_config(std::string_view name);

// "smollm2-135m, qwen2.5-0.5b, ..." for messages.
std::string llm_config_names();

} // namespace cleave::modelgen
