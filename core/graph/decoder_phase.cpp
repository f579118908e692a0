#include "decoder_phase.hpp"

#include "input_dim_binding.hpp"

#include <cstdio>

namespace cleave::graph {

std::string DecoderPhase::describe(double step_ms) const {
    char text[256];
    std::snprintf(text, sizeof text,
                  "%s of %lld token%s at context %lld (batch %lld): weights %.1f MB, KV cache "
                  "%.1f MB",
                  phase.c_str(), static_cast<long long>(tokens), tokens == 1 ? "" : "s",
                  static_cast<long long>(context), static_cast<long long>(batch),
                  static_cast<double>(weights_bytes) / 1e6,
                  static_cast<double>(kv_cache_bytes) / 1e6);
    std::string out = text;
    if (const double rate = tokens_per_s(step_ms); rate > 0) {
        std::snprintf(text, sizeof text, ", %.1f tokens/s", rate);
        out += text;
    }
    return out;
}

std::optional<DecoderPhase> decoder_phase(const Model& model) {
    const auto tokens = bound_role(model, DimRole::NewTokens);
    if (!tokens)
        return std::nullopt;
    const std::int64_t cached = bound_role(model, DimRole::CachedTokens).value_or(0);
    DecoderPhase out;
    out.batch = bound_role(model, DimRole::Batch).value_or(1);
    out.tokens = *tokens;
    out.context = cached + *tokens;
    out.phase = cached == 0 ? "prefill" : "decode";
    bool has_cache = false;
    for (const int i : model.inputs) {
        const auto& t = model.tensors[static_cast<std::size_t>(i)];
        if (!t.shape)
            continue;
        const auto roles = input_dim_roles(t.name, t.shape->size());
        Tensor at_context = t;
        bool cache = false;
        for (std::size_t d = 0; d < roles.size() && d < at_context.shape->size(); ++d)
            if (roles[d] == DimRole::CachedTokens) {
                (*at_context.shape)[d] = out.context;
                cache = true;
            }
        if (!cache || at_context.bytes() < 0)
            continue;
        has_cache = true;
        out.kv_cache_bytes += at_context.bytes();
    }
    if (!has_cache)
        return std::nullopt;
    for (const auto& t : model.tensors)
        if (t.kind == Tensor::Kind::Initializer && t.bytes() > 0)
            out.weights_bytes += t.bytes();
    return out;
}

} // namespace cleave::graph
