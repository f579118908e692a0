#include "llm_onnx_form.hpp"

#include <cmath>
#include <limits>
#include <map>

namespace cleave::modelgen {

namespace {

using onnx::TensorProto;

const std::string kBatch = "batch_size";
const std::string kSequence = "sequence_length";
const std::string kPast = "past_sequence_length";
const std::string kTotal = "past_sequence_length + sequence_length";

std::string layer_path(int layer) {
    return "/model/layers." + std::to_string(layer);
}

std::string weight_name(const std::string& path, const std::string& suffix) {
    std::string name = path.substr(1); // "/model/layers.0/mlp/up_proj" -> "model.layers.0..."
    for (char& c : name)
        if (c == '/')
            c = '.';
    return name + "." + suffix;
}

class OnnxDecoder {
public:
    OnnxDecoder(const LlmConfig& c, LlmGraph& g) : c_(c), g_(g) {}

    void build() {
        io();
        auto x = g_.add(
            "Gather", "/model/embed_tokens",
            {embed_ = g_.weight("model.embed_tokens.weight", {c_.vocab, c_.hidden}), "input_ids"});
        if (c_.gemma)
            x = g_.add("Mul", "/model/embed_tokens",
                       {x, constant(std::sqrt(static_cast<float>(c_.hidden)))});
        masks();
        rotary();
        for (int l = 0; l < c_.layers; ++l)
            x = layer(x, l);
        x = rms_norm(x, "/model/norm", "model.norm.weight");
        logits(x);
    }

private:
    void io() {
        const auto ft = g_.float_type();
        g_.input("input_ids", TensorProto::INT64, {kBatch, kSequence});
        g_.input("attention_mask", TensorProto::INT64, {kBatch, kTotal});
        g_.input("position_ids", TensorProto::INT64, {kBatch, kSequence});
        const auto kv = std::to_string(c_.kv_heads), hd = std::to_string(c_.head_dim);
        for (int l = 0; l < c_.layers; ++l)
            for (const char* part : {"key", "value"})
                g_.input("past_key_values." + std::to_string(l) + "." + part, ft,
                         {kBatch, kv, kPast, hd});
        g_.output("logits", ft, {kBatch, kSequence, std::to_string(c_.vocab)});
        for (int l = 0; l < c_.layers; ++l)
            for (const char* part : {"key", "value"})
                g_.output("present." + std::to_string(l) + "." + part, ft,
                          {kBatch, kv, kTotal, hd});
    }

    // A float scalar, one per value.
    std::string constant(float value) {
        const auto it = constants_.find(value);
        if (it != constants_.end())
            return it->second;
        return constants_[value] =
                   g_.scalar("/model/constants/" + std::to_string(constants_.size()), value);
    }

    std::string ints(const std::vector<std::int64_t>& values, bool scalar = false) {
        std::string key;
        for (const auto v : values)
            key += (key.empty() ? "" : ",") + std::to_string(v);
        if (!scalar)
            key = "[" + key + "]";
        const auto it = ints_.find(key);
        if (it != ints_.end())
            return it->second;
        return ints_[key] = g_.ints("/model/constants/INT64/" + key, values, scalar);
    }

    std::string unsqueeze(const std::string& x, const std::string& path,
                          const std::vector<std::int64_t>& axes) {
        return g_.add("Unsqueeze", path, {x, ints(axes)});
    }

    // The additive masks [batch, 1, sequence, total]: 0 where a token may attend, the lowest
    // float elsewhere: later tokens, padding (attention_mask 0) and, for sliding layers,
    // tokens more than the window back.
    void masks() {
        const std::string p = "/model/attn_mask";
        const auto total =
            g_.add("Gather", p + "/total",
                   {g_.add("Shape", p + "/total", {"attention_mask"}), ints({1}, true)});
        const auto sequence =
            g_.add("Gather", p + "/sequence",
                   {g_.add("Shape", p + "/sequence", {"input_ids"}), ints({1}, true)});
        const auto past = g_.add("Sub", p, {total, sequence});
        const auto rows = unsqueeze(g_.add("Range", p + "/rows", {past, total, ints({1}, true)}),
                                    p + "/rows", {1});
        const auto columns =
            g_.add("Range", p + "/columns", {ints({0}, true), total, ints({1}, true)});
        const auto causal = g_.add("LessOrEqual", p, {columns, rows});
        auto& cast = g_.node("Cast", p, {"attention_mask"});
        set_attribute(cast, "to", static_cast<std::int64_t>(TensorProto::BOOL));
        const auto kept = unsqueeze(cast.output(0), p, {1, 2});
        const auto allowed = g_.add("And", p, {causal, kept});
        const float lowest = g_.float_type() == TensorProto::FLOAT16
                                 ? -65504.0f
                                 : std::numeric_limits<float>::lowest();
        mask_ = g_.add("Where", p, {allowed, constant(0), constant(lowest)});
        if (c_.sliding_window <= 0)
            return;
        const std::string s = "/model/sliding_mask";
        const auto earliest = g_.add("Sub", s, {rows, ints({c_.sliding_window}, true)});
        const auto near = g_.add("And", s, {allowed, g_.add("Greater", s, {columns, earliest})});
        sliding_mask_ = g_.add("Where", s, {near, constant(0), constant(lowest)});
    }

    // cos and sin [batch, 1, sequence, head_dim] of the tokens' positions, from caches of
    // every position up to the context length.
    void rotary() {
        const std::string p = "/model/rotary_emb";
        for (const char* part : {"cos", "sin"}) {
            const auto cache = g_.weight(std::string("model.rotary_emb.") + part + "_cached",
                                         {c_.context, c_.head_dim});
            const auto gathered = g_.add("Gather", p + "/" + part, {cache, "position_ids"});
            (std::string(part) == "cos" ? cos_ : sin_) = unsqueeze(gathered, p + "/" + part, {1});
        }
    }

    std::string rms_norm(const std::string& x, const std::string& path, const std::string& weight) {
        const auto squared = g_.add("Pow", path, {x, constant(2)});
        auto& mean = g_.node("ReduceMean", path, {squared});
        set_attribute(mean, "axes", std::vector<std::int64_t>{-1});
        set_attribute(mean, "keepdims", std::int64_t{1});
        const auto shifted =
            g_.add("Add", path, {mean.output(0), constant(static_cast<float>(c_.norm_eps))});
        const auto divided = g_.add("Div", path, {x, g_.add("Sqrt", path, {shifted})});
        return g_.add("Mul", path, {divided, g_.weight(weight, {c_.hidden})});
    }

    std::string linear(const std::string& x, std::int64_t in, std::int64_t out,
                       const std::string& path, bool bias = false) {
        const auto y =
            g_.add("MatMul", path, {x, g_.weight(weight_name(path, "weight"), {in, out})});
        return bias ? g_.add("Add", path, {y, g_.weight(weight_name(path, "bias"), {out})}) : y;
    }

    std::vector<std::string> split(const std::string& x, const std::string& path,
                                   const std::vector<std::int64_t>& sizes) {
        auto& n = g_.node("Split", path, {x, ints(sizes)}, static_cast<int>(sizes.size()));
        set_attribute(n, "axis", std::int64_t{-1});
        return {n.output().begin(), n.output().end()};
    }

    // [batch, sequence, heads x head_dim] -> [batch, heads, sequence, head_dim]
    std::string heads(const std::string& x, std::int64_t count, const std::string& path) {
        const auto split_heads = g_.add("Reshape", path, {x, ints({0, 0, count, c_.head_dim})});
        auto& t = g_.node("Transpose", path, {split_heads});
        set_attribute(t, "perm", std::vector<std::int64_t>{0, 2, 1, 3});
        return t.output(0);
    }

    // x * cos + rotate_half(x) * sin, rotate_half(x) = [-x2, x1] of x's halves.
    std::string rotate(const std::string& x, const std::string& path) {
        const auto half = c_.head_dim / 2;
        const auto first = g_.add("Slice", path, {x, ints({0}), ints({half}), ints({-1})});
        const auto second =
            g_.add("Slice", path,
                   {x, ints({half}), ints({std::numeric_limits<std::int64_t>::max()}), ints({-1})});
        auto& turned = g_.node("Concat", path, {g_.add("Neg", path, {second}), first});
        set_attribute(turned, "axis", std::int64_t{-1});
        return g_.add(
            "Add", path,
            {g_.add("Mul", path, {x, cos_}), g_.add("Mul", path, {turned.output(0), sin_})});
    }

    // [batch, kv_heads, total, head_dim] -> [batch, heads, total, head_dim], each key/value
    // head repeated for its group of query heads.
    std::string repeat_kv(const std::string& x, const std::string& path) {
        if (c_.heads == c_.kv_heads)
            return x;
        const auto group = c_.heads / c_.kv_heads;
        const auto wide =
            g_.add("Expand", path, {unsqueeze(x, path, {2}), ints({1, 1, group, 1, 1})});
        return g_.add("Reshape", path, {wide, ints({0, c_.heads, -1, c_.head_dim})});
    }

    std::string softcap(const std::string& x, float cap, const std::string& path) {
        const auto t = g_.add("Tanh", path, {g_.add("Div", path, {x, constant(cap)})});
        return g_.add("Mul", path, {t, constant(cap)});
    }

    std::string attention(const std::string& x, int l) {
        const auto p = layer_path(l) + "/self_attn";
        const auto q_width = c_.heads * c_.head_dim, kv_width = c_.kv_heads * c_.head_dim;
        std::string q, k, v;
        if (c_.fused_projections) {
            const auto qkv = linear(x, c_.hidden, q_width + 2 * kv_width, p + "/qkv_proj");
            const auto parts = split(qkv, p, {q_width, kv_width, kv_width});
            q = parts[0], k = parts[1], v = parts[2];
        } else {
            q = linear(x, c_.hidden, q_width, p + "/q_proj", c_.qkv_bias);
            k = linear(x, c_.hidden, kv_width, p + "/k_proj", c_.qkv_bias);
            v = linear(x, c_.hidden, kv_width, p + "/v_proj", c_.qkv_bias);
        }
        q = rotate(heads(q, c_.heads, p + "/q"), p + "/q_rotary");
        k = rotate(heads(k, c_.kv_heads, p + "/k"), p + "/k_rotary");
        v = heads(v, c_.kv_heads, p + "/v");
        const auto present = "present." + std::to_string(l);
        const auto past = "past_key_values." + std::to_string(l);
        for (auto* part : {&k, &v}) {
            const std::string kind = part == &k ? "key" : "value";
            auto& cat = g_.node("Concat", p + "/" + kind + "_cache", {past + "." + kind, *part});
            set_attribute(cat, "axis", std::int64_t{2});
            cat.set_output(0, present + "." + kind); // a graph output: nothing reads it yet
            *part = repeat_kv(present + "." + kind, p + "/repeat_" + kind);
        }
        auto& kt = g_.node("Transpose", p, {k});
        set_attribute(kt, "perm", std::vector<std::int64_t>{0, 1, 3, 2});
        auto scores = g_.add("MatMul", p + "/scores", {q, kt.output(0)});
        scores =
            g_.add("Mul", p, {scores, constant(1.0f / std::sqrt(static_cast<float>(c_.head_dim)))});
        if (c_.attention_softcap > 0)
            scores = softcap(scores, c_.attention_softcap, p + "/softcap");
        const bool sliding = c_.sliding_window > 0 && l % 2 == 0;
        scores = g_.add("Add", p, {scores, sliding ? sliding_mask_ : mask_});
        auto& softmax = g_.node("Softmax", p, {scores});
        set_attribute(softmax, "axis", std::int64_t{-1});
        const auto context = g_.add("MatMul", p + "/context", {softmax.output(0), v});
        auto& merged = g_.node("Transpose", p + "/context", {context});
        set_attribute(merged, "perm", std::vector<std::int64_t>{0, 2, 1, 3});
        const auto flat =
            g_.add("Reshape", p + "/context", {merged.output(0), ints({0, 0, q_width})});
        return linear(flat, q_width, c_.hidden, p + "/o_proj");
    }

    std::string activation(const std::string& x, const std::string& path) {
        if (c_.activation == LlmActivation::Silu)
            return g_.add("Mul", path, {x, g_.add("Sigmoid", path, {x})});
        // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), as exporters write GELU (tanh)
        const auto cubed = g_.add("Pow", path, {x, constant(3)});
        const auto inner =
            g_.add("Add", path, {x, g_.add("Mul", path, {cubed, constant(0.044715f)})});
        const auto t =
            g_.add("Tanh", path, {g_.add("Mul", path, {inner, constant(0.7978845608f)})});
        return g_.add(
            "Mul", path,
            {g_.add("Mul", path, {x, constant(0.5f)}), g_.add("Add", path, {t, constant(1)})});
    }

    std::string mlp(const std::string& x, int l) {
        const auto p = layer_path(l) + "/mlp";
        std::string gate, up;
        if (c_.fused_projections) {
            const auto both = linear(x, c_.hidden, 2 * c_.intermediate, p + "/gate_up_proj");
            const auto parts = split(both, p, {c_.intermediate, c_.intermediate});
            gate = parts[0], up = parts[1];
        } else {
            gate = linear(x, c_.hidden, c_.intermediate, p + "/gate_proj");
            up = linear(x, c_.hidden, c_.intermediate, p + "/up_proj");
        }
        const auto h = g_.add("Mul", p, {activation(gate, p + "/act_fn"), up});
        return linear(h, c_.intermediate, c_.hidden, p + "/down_proj");
    }

    std::string norm(const std::string& x, int l, const std::string& which) {
        const auto name = which + "_layernorm";
        return rms_norm(x, layer_path(l) + "/" + name,
                        "model.layers." + std::to_string(l) + "." + name + ".weight");
    }

    std::string layer(const std::string& x, int l) {
        const auto p = layer_path(l);
        auto a = attention(norm(x, l, "input"), l);
        if (c_.gemma)
            a = norm(a, l, "post_attention");
        const auto h = g_.add("Add", p, {x, a});
        auto m = mlp(norm(h, l, c_.gemma ? "pre_feedforward" : "post_attention"), l);
        if (c_.gemma)
            m = norm(m, l, "post_feedforward");
        return g_.add("Add", p, {h, m});
    }

    void logits(const std::string& x) {
        std::string head;
        if (c_.tied_embeddings) { // the embedding table, transposed
            auto& t = g_.node("Transpose", "/lm_head", {embed_});
            set_attribute(t, "perm", std::vector<std::int64_t>{1, 0});
            head = t.output(0);
        } else {
            head = g_.weight("lm_head.weight", {c_.hidden, c_.vocab});
        }
        auto y = g_.add("MatMul", "/lm_head", {x, head});
        if (c_.final_softcap > 0)
            y = softcap(y, c_.final_softcap, "/lm_head/softcap");
        g_.rename(y, "logits");
    }

    const LlmConfig& c_;
    LlmGraph& g_;
    std::map<float, std::string> constants_;
    std::map<std::string, std::string> ints_;
    std::string embed_, mask_, sliding_mask_, cos_, sin_;
};

} // namespace

void build_llm_onnx_form(const LlmConfig& config, LlmGraph& graph) {
    OnnxDecoder(config, graph).build();
}

} // namespace cleave::modelgen
