#include "llm_configs.hpp"

#include "../ascii_case.hpp"

#include <algorithm>
#include <cctype>

namespace cleave::modelgen {

namespace {

// The rows, each from the config.json named above it.
const std::vector<LlmConfig> kRows{
    // https://huggingface.co/HuggingFaceTB/SmolLM2-135M/blob/main/config.json
    // Llama layout. Values as copies of that file quote them; one copy (an older revision) gives
    // max_position_embeddings 2048 where the others give 8192, the trained context.
    LlmConfig{.name = "smollm2-135m",
              .hf_id = "HuggingFaceTB/SmolLM2-135M",
              .model_type = "llama",
              .hidden = 576,
              .layers = 30,
              .heads = 9,
              .kv_heads = 3,
              .head_dim = 64,
              .intermediate = 1536,
              .vocab = 49152,
              .context = 8192,
              .rope_theta = 100000,
              .tied_embeddings = true,
              .norm_eps = 1e-5},

    // https://huggingface.co/Qwen/Qwen2.5-0.5B/blob/main/config.json
    // Qwen2: biases on the q, k and v projections. Every value cross-checked against copies of
    // the file quoted in public code.
    LlmConfig{.name = "qwen2.5-0.5b",
              .hf_id = "Qwen/Qwen2.5-0.5B",
              .model_type = "qwen2",
              .hidden = 896,
              .layers = 24,
              .heads = 14,
              .kv_heads = 2,
              .head_dim = 64,
              .intermediate = 4864,
              .vocab = 151936,
              .context = 32768,
              .rope_theta = 1000000,
              .tied_embeddings = true,
              .norm_eps = 1e-6,
              .qkv_bias = true},

    // https://huggingface.co/Qwen/Qwen2.5-1.5B/blob/main/config.json
    // Shape values cross-checked against copies of the file quoted in public code; the base
    // model's max_position_embeddings (131072; the Instruct model's file says 32768) is not
    // confirmed from a source here.
    LlmConfig{.name = "qwen2.5-1.5b",
              .hf_id = "Qwen/Qwen2.5-1.5B",
              .model_type = "qwen2",
              .hidden = 1536,
              .layers = 28,
              .heads = 12,
              .kv_heads = 2,
              .head_dim = 128,
              .intermediate = 8960,
              .vocab = 151936,
              .context = 131072,
              .rope_theta = 1000000,
              .tied_embeddings = true,
              .norm_eps = 1e-6,
              .qkv_bias = true},

    // https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json
    // Shape values cross-checked against copies of the file quoted in public code, 131072
    // positions in one of them.
    LlmConfig{.name = "qwen2.5-7b",
              .hf_id = "Qwen/Qwen2.5-7B",
              .model_type = "qwen2",
              .hidden = 3584,
              .layers = 28,
              .heads = 28,
              .kv_heads = 4,
              .head_dim = 128,
              .intermediate = 18944,
              .vocab = 152064,
              .context = 131072,
              .rope_theta = 1000000,
              .tied_embeddings = false,
              .norm_eps = 1e-6,
              .qkv_bias = true},

    // https://huggingface.co/meta-llama/Llama-3.2-1B/blob/main/config.json
    // Not confirmed from a source here (the repository is gated): values as Meta publishes
    // them. rope_scaling "llama3" (factor 32) changes the rotary frequencies, not the shapes.
    LlmConfig{.name = "llama-3.2-1b",
              .hf_id = "meta-llama/Llama-3.2-1B",
              .model_type = "llama",
              .hidden = 2048,
              .layers = 16,
              .heads = 32,
              .kv_heads = 8,
              .head_dim = 64,
              .intermediate = 8192,
              .vocab = 128256,
              .context = 131072,
              .rope_theta = 500000,
              .tied_embeddings = true,
              .norm_eps = 1e-5},

    // https://huggingface.co/meta-llama/Llama-3.2-3B/blob/main/config.json
    // Gated; every value cross-checked against a copy of the file quoted in public code.
    LlmConfig{.name = "llama-3.2-3b",
              .hf_id = "meta-llama/Llama-3.2-3B",
              .model_type = "llama",
              .hidden = 3072,
              .layers = 28,
              .heads = 24,
              .kv_heads = 8,
              .head_dim = 128,
              .intermediate = 8192,
              .vocab = 128256,
              .context = 131072,
              .rope_theta = 500000,
              .tied_embeddings = true,
              .norm_eps = 1e-5},

    // https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json
    // Gated; values cross-checked against copies of the file quoted in public code.
    LlmConfig{.name = "llama-3.1-8b",
              .hf_id = "meta-llama/Llama-3.1-8B",
              .model_type = "llama",
              .hidden = 4096,
              .layers = 32,
              .heads = 32,
              .kv_heads = 8,
              .head_dim = 128,
              .intermediate = 14336,
              .vocab = 128256,
              .context = 131072,
              .rope_theta = 500000,
              .tied_embeddings = false,
              .norm_eps = 1e-5},

    // https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json
    // Gated; the 8B's architecture at 80 layers, hidden 8192, 64 heads (8 KV heads) and an
    // intermediate size of 28672, as the Llama 3.1 model card's table gives them.
    LlmConfig{.name = "llama-3.1-70b",
              .hf_id = "meta-llama/Llama-3.1-70B",
              .model_type = "llama",
              .hidden = 8192,
              .layers = 80,
              .heads = 64,
              .kv_heads = 8,
              .head_dim = 128,
              .intermediate = 28672,
              .vocab = 128256,
              .context = 131072,
              .rope_theta = 500000,
              .tied_embeddings = false,
              .norm_eps = 1e-5},

    // https://huggingface.co/microsoft/Phi-3-mini-4k-instruct/blob/main/config.json
    // Every value cross-checked against a copy of the file quoted in public code. Fused
    // qkv_proj and gate_up_proj; no grouped heads.
    // The file's sliding_window (2047) only limits its flash-attention path: not modelled.
    LlmConfig{.name = "phi-3-mini-4k-instruct",
              .hf_id = "microsoft/Phi-3-mini-4k-instruct",
              .model_type = "phi3",
              .hidden = 3072,
              .layers = 32,
              .heads = 32,
              .kv_heads = 32,
              .head_dim = 96,
              .intermediate = 8192,
              .vocab = 32064,
              .context = 4096,
              .rope_theta = 10000,
              .tied_embeddings = false,
              .norm_eps = 1e-5,
              .fused_projections = true},

    // https://huggingface.co/google/gemma-2-2b/blob/main/config.json
    // Gated; the shapes, soft caps and sliding window cross-checked against a copy of the file
    // quoted in public code; max_position_embeddings, rope_theta and rms_norm_eps not confirmed
    // from a source here. head_dim 256 (heads x head_dim = 2048, not the hidden size),
    // sliding_window 4096 on every other layer (the even ones), GELU (tanh), soft-capped
    // attention scores (50) and logits (30), query_pre_attn_scalar 256 (the same scale as
    // head_dim's).
    LlmConfig{.name = "gemma-2-2b",
              .hf_id = "google/gemma-2-2b",
              .model_type = "gemma2",
              .hidden = 2304,
              .layers = 26,
              .heads = 8,
              .kv_heads = 4,
              .head_dim = 256,
              .intermediate = 9216,
              .vocab = 256000,
              .context = 8192,
              .rope_theta = 10000,
              .tied_embeddings = true,
              .norm_eps = 1e-6,
              .sliding_window = 4096,
              .activation = LlmActivation::GeluTanh,
              .gemma = true,
              .attention_softcap = 50,
              .final_softcap = 30},

    // https://huggingface.co/mistralai/Mistral-7B-v0.3/blob/main/config.json
    // vocab_size 32768 and sliding_window null (v0.3 attends the whole context) seen in a copy
    // of the file; the other values not confirmed from a source here.
    LlmConfig{.name = "mistral-7b-v0.3",
              .hf_id = "mistralai/Mistral-7B-v0.3",
              .model_type = "mistral",
              .hidden = 4096,
              .layers = 32,
              .heads = 32,
              .kv_heads = 8,
              .head_dim = 128,
              .intermediate = 14336,
              .vocab = 32768,
              .context = 32768,
              .rope_theta = 1000000,
              .tied_embeddings = false,
              .norm_eps = 1e-5},
};

} // namespace

const std::vector<LlmConfig>& llm_configs() {
    return kRows;
}

const LlmConfig* find_llm_config(std::string_view name) {
    const auto wanted = ascii_lower(name);
    const auto& rows = llm_configs();
    const auto it = std::find_if(rows.begin(), rows.end(),
                                 [&](const LlmConfig& c) { return c.name == wanted; });
    return it == rows.end() ? nullptr : &*it;
}

std::string llm_config_names() {
    std::string out;
    for (const auto& c : llm_configs())
        out += (out.empty() ? "" : ", ") + c.name;
    return out;
}

} // namespace cleave::modelgen
