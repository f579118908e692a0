#include "decoder_phase.hpp"

#include "input_dim_binding.hpp"
#include "onnx_source.hpp"

#include <charconv>
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

std::int64_t max_context(const Model& model) {
    if (!model.source)
        return 0;
    for (const auto& property : model.source->proto.metadata_props()) {
        if (property.key() != "context_length")
            continue;
        const auto& text = property.value();
        std::int64_t value = 0;
        const auto* end = text.data() + text.size();
        const auto [at, error] = std::from_chars(text.data(), end, value);
        return error == std::errc() && at == end && value > 0 ? value : 0;
    }
    return 0;
}

std::optional<std::int64_t> cache_input_bytes(const Tensor& input, std::int64_t context,
                                              std::optional<std::int64_t> batch) {
    if (!input.shape)
        return std::nullopt;
    const auto roles = input_dim_roles(input.name, input.shape->size());
    Tensor at_context = input;
    bool cache = false;
    for (std::size_t d = 0; d < roles.size() && d < at_context.shape->size(); ++d) {
        if (roles[d] == DimRole::CachedTokens) {
            (*at_context.shape)[d] = context;
            cache = true;
        } else if (roles[d] == DimRole::Batch && batch) {
            (*at_context.shape)[d] = *batch;
        }
    }
    if (!cache || at_context.bytes() < 0)
        return std::nullopt;
    return at_context.bytes();
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
    for (const int i : model.inputs)
        if (const auto bytes =
                cache_input_bytes(model.tensors[static_cast<std::size_t>(i)], out.context)) {
            has_cache = true;
            out.kv_cache_bytes += *bytes;
        }
    if (!has_cache)
        return std::nullopt;
    for (const auto& t : model.tensors)
        if (t.kind == Tensor::Kind::Initializer && t.bytes() > 0)
            out.weights_bytes += t.bytes();
    return out;
}

} // namespace cleave::graph
