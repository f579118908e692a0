// What one run of a language-model decoder is: a prefill (new tokens, nothing cached) or a
// decode step (new tokens after cached ones), at which context, and the bytes it holds: its
// weights as stored (a 4-bit weight is half a byte, plus its scales) and its KV cache at that
// context. Read from the roles the inputs' dims were bound by (input_dim_binding.hpp).
#pragma once

#include "model.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace cleave::graph {

struct DecoderPhase {
    std::string phase;              // "prefill" (nothing cached) or "decode"
    std::int64_t batch = 1;         // sequences run together
    std::int64_t tokens = 0;        // new tokens per sequence
    std::int64_t context = 0;       // cached + new tokens per sequence
    std::int64_t weights_bytes = 0; // every initializer as stored
    // Keys and values of every layer at `context`, for the whole batch: each past key/value
    // input's bytes with its cached-token dim at `context`.
    std::int64_t kv_cache_bytes = 0;

    // Tokens a decode step of `step_ms` gives per second: each sequence of the batch gets its
    // new tokens; 0 for a prefill (its figure is the time to first token) or no time.
    double tokens_per_s(double step_ms) const {
        return phase == "decode" && step_ms > 0
                   ? static_cast<double>(batch * tokens) / (step_ms / 1000.0)
                   : 0.0;
    }

    // "decode of 1 token at context 1025 (batch 1): weights 4.6 MB, KV cache 0.1 MB", and with a
    // step time ", 81.3 tokens/s" for a decode: what `cleave predict` and the studio say.
    std::string describe(double step_ms = 0) const;
};

// nullopt for a model with no past key/value input or no dim bound to new tokens.
std::optional<DecoderPhase> decoder_phase(const Model& model);

// The longest context the decoder takes (its config's max_position_embeddings), from the
// metadata property context_length as Cleave's generator writes it; 0 when not recorded or not
// a positive count.
std::int64_t max_context(const Model& model);

// The bytes a past key/value input holds with its cached-token dims at `context` (and its batch
// dims at `batch`, where given); nullopt for an input with no cached-token dim or an unknown shape.
std::optional<std::int64_t> cache_input_bytes(const Tensor& input, std::int64_t context,
                                              std::optional<std::int64_t> batch = std::nullopt);

} // namespace cleave::graph
