#include "llm_genai_form.hpp"

#include <cmath>

namespace cleave::modelgen {

namespace {

using onnx::TensorProto;

constexpr std::int64_t kBlock = 32; // MatMulNBits' block size: 32 weights share a scale
const std::string kMs = "com.microsoft";

std::string layer_path(int layer) {
    return "/model/layers." + std::to_string(layer);
}

// "/model/layers.0/attn/q_proj/MatMulNBits" -> "model.layers.0.attn.q_proj.MatMulNBits"
std::string dotted(const std::string& path) {
    std::string name = path.substr(1);
    for (char& c : name)
        if (c == '/')
            c = '.';
    return name;
}

class GenaiDecoder {
public:
    GenaiDecoder(const LlmConfig& c, bool int4, LlmGraph& g) : c_(c), int4_(int4), g_(g) {}

    void build() {
        io();
        std::string x =
            g_.add("Gather", "/model/embed_tokens",
                   {g_.weight("model.embed_tokens.weight", {c_.vocab, c_.hidden}), "input_ids"});
        if (c_.gemma)
            x = g_.add("Mul", "/model/embed_tokens",
                       {x, g_.scalar("/model/constants/embed_scale",
                                     std::sqrt(static_cast<float>(c_.hidden)))});
        mask_reformat();
        for (const char* part : {"cos", "sin"})
            (std::string(part) == "cos" ? cos_ : sin_) =
                g_.weight(std::string(part) + "_cache", {c_.context, c_.head_dim / 2});
        root_ = x;
        for (int l = 0; l < c_.layers; ++l)
            layer(l);
        const auto final_path = layer_path(static_cast<int>(c_.layers)) + "/final_norm_layernorm";
        auto& norm = g_.named(
            "SkipSimplifiedLayerNormalization", final_path + "/SkipLayerNorm",
            {root_, skip_, g_.weight(dotted(final_path) + ".weight", {c_.hidden})}, 1, kMs);
        set_attribute(norm, "epsilon", static_cast<float>(c_.norm_eps));
        auto y = matmul(norm.output(0), c_.hidden, c_.vocab, "/lm_head");
        if (c_.final_softcap > 0) {
            const auto cap = g_.scalar("/lm_head/softcap/cap", c_.final_softcap);
            y = g_.add("Tanh", "/lm_head/softcap", {g_.add("Div", "/lm_head/softcap", {y, cap})});
            y = g_.add("Mul", "/lm_head/softcap", {y, cap});
        }
        g_.rename(y, "logits");
    }

private:
    void io() {
        const auto ft = g_.float_type();
        g_.input("input_ids", TensorProto::INT64, {"batch_size", "sequence_length"});
        g_.input("attention_mask", TensorProto::INT64, {"batch_size", "total_sequence_length"});
        const auto kv = std::to_string(c_.kv_heads), hd = std::to_string(c_.head_dim);
        for (int l = 0; l < c_.layers; ++l)
            for (const char* part : {"key", "value"})
                g_.input("past_key_values." + std::to_string(l) + "." + part, ft,
                         {"batch_size", kv, "past_sequence_length", hd});
        g_.output("logits", ft, {"batch_size", "sequence_length", std::to_string(c_.vocab)});
        for (int l = 0; l < c_.layers; ++l)
            for (const char* part : {"key", "value"})
                g_.output("present." + std::to_string(l) + "." + part, ft,
                          {"batch_size", kv, "total_sequence_length", hd});
    }

    // seqlens_k = ReduceSum(attention_mask, 1) - 1 and total_sequence_length, both int32, as
    // GroupQueryAttention takes them.
    void mask_reformat() {
        const std::string p = "/model/attn_mask_reformat/attn_mask_subgraph";
        const auto one = g_.ints("/model/constants/INT64/[1]", {1});
        auto& sum = g_.node("ReduceSum", p, {"attention_mask", one});
        set_attribute(sum, "keepdims", std::int64_t{0});
        const auto less = g_.add("Sub", p, {sum.output(0), one});
        auto& seqlens = g_.named("Cast", p + "/Sub/Cast", {less});
        set_attribute(seqlens, "to", static_cast<std::int64_t>(TensorProto::INT32));
        seqlens_k_ = seqlens.output(0);
        const auto total = g_.add("Gather", p,
                                  {g_.add("Shape", p, {"attention_mask"}),
                                   g_.ints("/model/constants/INT64/1", {1}, true)});
        auto& total32 = g_.named("Cast", p + "/Gather/Cast", {total});
        set_attribute(total32, "to", static_cast<std::int64_t>(TensorProto::INT32));
        total_ = total32.output(0);
    }

    // x [.., k] times a [k, n] weight at `path`: MatMul, or MatMulNBits with the weight packed
    // two to a byte in blocks [n, k / 32, 16] and a scale per block.
    std::string matmul(const std::string& x, std::int64_t k, std::int64_t n,
                       const std::string& path, bool bias = false) {
        std::string y;
        if (int4_) {
            const auto blocks = (k + kBlock - 1) / kBlock;
            const auto name = dotted(path) + ".MatMulNBits";
            auto& node = g_.named(
                "MatMulNBits", path + "/MatMulNBits",
                {x, g_.weight(name + ".qweight", {n, blocks, kBlock / 2}, TensorProto::UINT8),
                 g_.weight(name + ".scales", {n * blocks})},
                1, kMs);
            set_attribute(node, "K", k);
            set_attribute(node, "N", n);
            set_attribute(node, "bits", std::int64_t{4});
            set_attribute(node, "block_size", kBlock);
            set_attribute(node, "accuracy_level", std::int64_t{4});
            y = node.output(0);
        } else {
            y = g_.named("MatMul", path + "/MatMul",
                         {x, g_.weight(dotted(path) + ".MatMul.weight", {k, n})})
                    .output(0);
        }
        return bias ? g_.add("Add", path, {y, g_.weight(dotted(path) + ".Add.bias", {n})}) : y;
    }

    // The normalised input of a sub-block: SimplifiedLayerNormalization of the first layer's
    // input, else SkipSimplifiedLayerNormalization of root + skip, whose sum (output 3) is the
    // next residual root.
    std::string norm(int l, const std::string& location) {
        const auto path = layer_path(l) + "/" + location + "_layernorm";
        const auto weight = g_.weight(dotted(path) + ".weight", {c_.hidden});
        if (skip_.empty()) {
            auto& n =
                g_.named("SimplifiedLayerNormalization", path + "/LayerNorm", {root_, weight});
            set_attribute(n, "axis", std::int64_t{-1});
            set_attribute(n, "epsilon", static_cast<float>(c_.norm_eps));
            set_attribute(n, "stash_type", std::int64_t{1});
            return n.output(0);
        }
        auto& n = g_.named("SkipSimplifiedLayerNormalization", path + "/SkipLayerNorm",
                           {root_, skip_, weight}, 4, kMs);
        set_attribute(n, "epsilon", static_cast<float>(c_.norm_eps));
        n.set_output(1, "");
        n.set_output(2, "");
        root_ = n.output(3);
        return n.output(0);
    }

    // Gemma 2's norm of a sub-block's output before it joins the residual.
    std::string post_norm(const std::string& x, int l, const std::string& location) {
        const auto path = layer_path(l) + "/" + location + "_layernorm";
        auto& n = g_.named("SimplifiedLayerNormalization", path + "/LayerNorm",
                           {x, g_.weight(dotted(path) + ".weight", {c_.hidden})});
        set_attribute(n, "axis", std::int64_t{-1});
        set_attribute(n, "epsilon", static_cast<float>(c_.norm_eps));
        set_attribute(n, "stash_type", std::int64_t{1});
        return n.output(0);
    }

    std::string attention(const std::string& x, int l) {
        const auto p = layer_path(l) + "/attn";
        const auto q_width = c_.heads * c_.head_dim, kv_width = c_.kv_heads * c_.head_dim;
        std::string q, k, v;
        if (c_.fused_projections) { // one packed qkv input, key and value omitted
            q = matmul(x, c_.hidden, q_width + 2 * kv_width, p + "/qkv_proj");
        } else {
            q = matmul(x, c_.hidden, q_width, p + "/q_proj", c_.qkv_bias);
            k = matmul(x, c_.hidden, kv_width, p + "/k_proj", c_.qkv_bias);
            v = matmul(x, c_.hidden, kv_width, p + "/v_proj", c_.qkv_bias);
        }
        const auto layer = std::to_string(l);
        auto& gqa = g_.node("GroupQueryAttention", p,
                            {q, k, v, "past_key_values." + layer + ".key",
                             "past_key_values." + layer + ".value", seqlens_k_, total_, cos_, sin_},
                            3, kMs);
        gqa.set_output(1, "present." + layer + ".key");
        gqa.set_output(2, "present." + layer + ".value");
        set_attribute(gqa, "num_heads", c_.heads);
        set_attribute(gqa, "kv_num_heads", c_.kv_heads);
        set_attribute(gqa, "scale", 1.0f / std::sqrt(static_cast<float>(c_.head_dim)));
        const bool sliding = c_.sliding_window > 0 && l % 2 == 0;
        set_attribute(gqa, "local_window_size", sliding ? c_.sliding_window : std::int64_t{-1});
        set_attribute(gqa, "softcap", c_.attention_softcap);
        set_attribute(gqa, "do_rotary", std::int64_t{1});
        set_attribute(gqa, "rotary_interleaved", std::int64_t{0});
        return matmul(gqa.output(0), q_width, c_.hidden, p + "/o_proj");
    }

    std::string mlp(const std::string& x, int l) {
        const auto p = layer_path(l) + "/mlp";
        const auto gate = matmul(x, c_.hidden, c_.intermediate, p + "/gate_proj");
        const auto up = matmul(x, c_.hidden, c_.intermediate, p + "/up_proj");
        std::string act;
        if (c_.activation == LlmActivation::Silu)
            act = g_.add("Mul", p + "/act_fn", {gate, g_.add("Sigmoid", p + "/act_fn", {gate})});
        else
            act = g_.add("FastGelu", p + "/act_fn", {gate}, kMs);
        return matmul(g_.add("Mul", p, {act, up}), c_.intermediate, c_.hidden, p + "/down_proj");
    }

    void layer(int l) {
        auto a = attention(norm(l, "input"), l);
        if (c_.gemma)
            a = post_norm(a, l, "post_attention");
        skip_ = a;
        auto m = mlp(norm(l, c_.gemma ? "pre_feedforward" : "post_attention"), l);
        if (c_.gemma)
            m = post_norm(m, l, "post_feedforward");
        skip_ = m;
    }

    const LlmConfig& c_;
    bool int4_;
    LlmGraph& g_;
    std::string root_, skip_, seqlens_k_, total_, cos_, sin_;
};

} // namespace

void build_llm_genai_form(const LlmConfig& config, bool int4, LlmGraph& graph) {
    GenaiDecoder(config, int4, graph).build();
}

nlohmann::ordered_json genai_config(const LlmConfig& c, const std::string& file) {
    using json = nlohmann::ordered_json;
    const json decoder = {
        {"session_options", {{"log_id", "onnxruntime-genai"}, {"provider_options", json::array()}}},
        {"filename", file},
        {"head_size", c.head_dim},
        {"hidden_size", c.hidden},
        {"inputs",
         {{"input_ids", "input_ids"},
          {"attention_mask", "attention_mask"},
          {"past_key_names", "past_key_values.%d.key"},
          {"past_value_names", "past_key_values.%d.value"}}},
        {"outputs",
         {{"logits", "logits"},
          {"present_key_names", "present.%d.key"},
          {"present_value_names", "present.%d.value"}}},
        {"num_attention_heads", c.heads},
        {"num_hidden_layers", c.layers},
        {"num_key_value_heads", c.kv_heads}};
    return {{"model",
             {{"context_length", c.context},
              {"decoder", decoder},
              {"type", c.model_type},
              {"vocab_size", c.vocab}}},
            {"search", {{"max_length", c.context}}}};
}

} // namespace cleave::modelgen
