#include "decoder_space.hpp"

#include "random_choice.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>

namespace cleave::modelgen {

namespace {

enum class Style { Llama, Qwen, Phi, Gemma };

// Each style, as the decoder's name and its config.json's model_type say it.
struct StyleNames {
    Style style;
    const char* name;
    const char* model_type;
};
constexpr std::array<StyleNames, 4> kStyles{{{Style::Llama, "llama", "llama"},
                                             {Style::Qwen, "qwen", "qwen2"},
                                             {Style::Phi, "phi", "phi3"},
                                             {Style::Gemma, "gemma", "gemma2"}}};

// The multiply-accumulates of one new token: the layers' projections and the vocabulary head.
double macs_per_token(const LlmConfig& c) {
    const double q = static_cast<double>(c.heads * c.head_dim);
    const double kv = static_cast<double>(c.kv_heads * c.head_dim);
    const double d = static_cast<double>(c.hidden);
    const double layer = d * (q + 2 * kv) + q * d + 3 * d * static_cast<double>(c.intermediate);
    return static_cast<double>(c.layers) * layer + d * static_cast<double>(c.vocab);
}

// Log-uniform in [low, high], rounded.
std::int64_t log_uniform(std::mt19937_64& random, double low, double high) {
    std::uniform_real_distribution<double> u(std::log(low), std::log(high));
    return static_cast<std::int64_t>(std::lround(std::exp(u(random))));
}

constexpr double kPrefillMacs = 40e9; // the most one prefill may take
constexpr std::int64_t kContext = 16384;

DecoderSample draw(std::mt19937_64& random, int number) {
    RandomChoice choose(random);
    const StyleNames names = choose.one_of(kStyles);
    const Style style = names.style;
    LlmConfig c;
    c.model_type = names.model_type;
    do {
        c.head_dim = style == Style::Gemma
                         ? choose.one_of(std::array<std::int64_t, 2>{64, 128})
                         : choose.one_of(std::array<std::int64_t, 4>{32, 64, 64, 128});
        c.heads = choose.one_of(std::array<std::int64_t, 6>{4, 6, 8, 10, 12, 16});
        c.hidden = c.heads * c.head_dim;
    } while (c.hidden < 256 || c.hidden > 1024);
    std::vector<std::int64_t> kv;
    for (const std::int64_t k : {std::int64_t{1}, std::int64_t{2}, std::int64_t{4}, c.heads})
        if (c.heads % k == 0 && std::find(kv.begin(), kv.end(), k) == kv.end())
            kv.push_back(k);
    // Phi-3 keeps every head's keys and values.
    c.kv_heads = style == Style::Phi ? c.heads : choose.one_of(kv);
    c.layers = 2 + choose.pick(5);
    const double ratio = choose.one_of(std::array<double, 5>{2, 2.5, 3, 3.5, 4});
    c.intermediate =
        std::max<std::int64_t>(64, 64 * std::llround(ratio * static_cast<double>(c.hidden) / 64));
    c.vocab = choose.one_of(std::array<std::int64_t, 4>{8192, 16000, 32000, 50304});
    c.context = kContext;
    c.rope_theta = 10000;
    c.norm_eps = 1e-5;
    c.tied_embeddings = style == Style::Qwen || style == Style::Gemma || choose.pick(2) == 0;
    c.qkv_bias = style == Style::Qwen;
    c.fused_projections = style == Style::Phi;
    if (style == Style::Gemma) {
        c.gemma = true;
        c.activation = LlmActivation::GeluTanh;
        c.sliding_window = 1024;
        c.attention_softcap = 50;
        c.final_softcap = 30;
    }

    DecoderSample s;
    s.precision = choose.pick(5) < 2 ? LlmPrecision::Int4 : LlmPrecision::Fp32;
    // int4 weights are MatMulNBits, which only the genai form writes.
    s.form =
        s.precision == LlmPrecision::Int4 || choose.pick(2) == 0 ? LlmForm::Genai : LlmForm::Onnx;
    char name[160];
    std::snprintf(name, sizeof name, "%s_d%lld_l%lld_h%lldkv%lld_%s_%s_%04d", names.name,
                  static_cast<long long>(c.hidden), static_cast<long long>(c.layers),
                  static_cast<long long>(c.heads), static_cast<long long>(c.kv_heads),
                  std::string(to_string(s.precision)).c_str(),
                  std::string(to_string(s.form)).c_str(), number);
    c.name = name;
    s.config = c;

    const double longest = std::clamp(kPrefillMacs / macs_per_token(c), 64.0, 1024.0);
    for (int i = 0; i < 2; ++i)
        s.prefill_lengths.push_back(log_uniform(random, 16, longest));
    for (int i = 0; i < 4; ++i)
        s.decode_contexts.push_back(log_uniform(random, 64, 8192));
    return s;
}

} // namespace

std::vector<DecoderSample> decoder_models(int first, int count, std::uint64_t seed) {
    std::mt19937_64 random(seed * 0x9E3779B97F4A7C15ull + 0xDEC0DE);
    std::vector<DecoderSample> out;
    for (int n = 0; n < first + count; ++n) {
        auto sample = draw(random, n);
        if (n >= first)
            out.push_back(std::move(sample));
    }
    return out;
}

} // namespace cleave::modelgen
