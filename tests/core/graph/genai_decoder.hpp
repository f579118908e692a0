// A 2-layer Llama-style decoder in the form ONNX Runtime GenAI's model builder writes (int4
// MatMulNBits projections, RotaryEmbedding, GroupQueryAttention fed by the attention mask's
// ReduceSum and Shape, SimplifiedLayerNormalization then SkipSimplifiedLayerNormalization), small
// enough to cost by hand.
//
// Hidden size 32 (4 query heads and 2 key/value heads of 8), MLP 64, vocabulary 16, 4-bit
// weights in blocks of 16. With B the batch, S the new tokens and T = past + S the tokens
// attended, per layer: projections q 32x32, k and v 32x16, o 32x32, gate and up 32x64, down 64x32
// = 9216 MACs a token, attention 2 x 4 heads x 8 x T = 64 T a token; the lm_head 32x16 = 512.
// MACs = 2 x 9216 BS + 512 BS + 2 x 64 BST = 18944 BS + 128 BST. Parameters: the embedding
// 16x32 = 512, five norm weights of 32 = 160, the projections' logical weights 18944; the rotary
// caches are no parameters: 19616.
#pragma once

#include "onnx_builder.hpp"

#include <string>

namespace cleave::test {

class GenAiDecoder {
public:
    static constexpr int kLayers = 2;
    static constexpr std::int64_t kMacsPerToken = 18944;     // x B x S
    static constexpr std::int64_t kMacsPerAttended = 128;    // x B x S x T
    static constexpr std::int64_t kWeightParameters = 19616; // logical weights

    static onnx::NodeProto& microsoft(onnx::NodeProto& node) {
        node.set_domain("com.microsoft");
        return node;
    }

    // A builder whose model imports com.microsoft opset 1 beside the default domain.
    static OnnxBuilder microsoft_builder() {
        OnnxBuilder b;
        auto* ms = b.model.add_opset_import();
        ms->set_domain("com.microsoft");
        ms->set_version(1);
        return b;
    }

    static onnx::ModelProto build() {
        OnnxBuilder b = microsoft_builder();
        input(b, "input_ids", {"batch_size", "sequence_length"}, onnx::TensorProto::INT64);
        input(b, "attention_mask", {"batch_size", "total_sequence_length"},
              onnx::TensorProto::INT64);
        input(b, "position_ids", {"batch_size", "sequence_length"}, onnx::TensorProto::INT64);
        for (int l = 0; l < kLayers; ++l)
            for (const char* kind : {"key", "value"})
                input(b, "past_key_values." + std::to_string(l) + "." + kind,
                      {"batch_size", "2", "past_sequence_length", "8"});
        b.initializer("embed_tokens", {16, 32});
        b.initializer("cos_cache", {2048, 4});
        b.initializer("sin_cache", {2048, 4});
        b.int64_initializer("one", {1});
        b.initializer("one_scalar", {}, onnx::TensorProto::INT64, 8)
            .set_raw_data(std::string("\1\0\0\0\0\0\0\0", 8));
        b.node("Gather", {"embed_tokens", "input_ids"}, {"h0"}, "/model/embed_tokens/Gather");
        mask_reformatting(b);

        std::string residual = "h0";
        std::string x = "x0";
        norm_weight(b, "/model/layers.0/input_layernorm");
        b.node("SimplifiedLayerNormalization", {"h0", "/model/layers.0/input_layernorm.weight"},
               {"x0"}, "/model/layers.0/input_layernorm/LayerNorm");
        for (int l = 0; l < kLayers; ++l) {
            const std::string p = "/model/layers." + std::to_string(l);
            const std::string down = layer(b, p, l, x, residual);
            const bool last = l + 1 == kLayers;
            const std::string next =
                last ? "/model/norm"
                     : "/model/layers." + std::to_string(l + 1) + "/input_layernorm";
            norm_weight(b, next);
            x = next + "/output_0";
            residual = next + "/output_3";
            microsoft(b.node("SkipSimplifiedLayerNormalization",
                             {down, p + "/post_residual", next + ".weight"}, {x, "", "", residual},
                             next + "/SkipLayerNorm"));
        }
        matmul(b, "/lm_head", x, 32, 16, "logits");
        b.output("logits");
        for (int l = 0; l < kLayers; ++l) {
            b.output("present." + std::to_string(l) + ".key");
            b.output("present." + std::to_string(l) + ".value");
        }
        return b.model;
    }

    // A MatMulNBits of K x N 4-bit weights in blocks of 16: B [N, K / 16, 8] bytes, scales N x
    // K / 16 floats.
    static void matmul(OnnxBuilder& b, const std::string& name, const std::string& x,
                       std::int64_t k, std::int64_t n, const std::string& y) {
        b.initializer(name + ".weight_Q4", {n, k / 16, 8}, onnx::TensorProto::UINT8, 1);
        b.initializer(name + ".weight_scales", {n * (k / 16)});
        auto& node = b.node("MatMulNBits", {x, name + ".weight_Q4", name + ".weight_scales"}, {y},
                            name + "/MatMulNBits");
        node.set_domain("com.microsoft");
        OnnxBuilder::set_int(node, "K", k);
        OnnxBuilder::set_int(node, "N", n);
        OnnxBuilder::set_int(node, "bits", 4);
        OnnxBuilder::set_int(node, "block_size", 16);
        OnnxBuilder::set_int(node, "accuracy_level", 4);
    }

private:
    static void input(OnnxBuilder& b, const std::string& name, const std::vector<std::string>& dims,
                      int type = onnx::TensorProto::FLOAT) {
        auto* t = b.graph().add_input();
        t->set_name(name);
        auto* tensor = t->mutable_type()->mutable_tensor_type();
        tensor->set_elem_type(type);
        for (const auto& d : dims) {
            auto* dim = tensor->mutable_shape()->add_dim();
            if (d.find_first_not_of("0123456789") == std::string::npos)
                dim->set_dim_value(std::stoll(d));
            else
                dim->set_dim_param(d);
        }
    }

    static void norm_weight(OnnxBuilder& b, const std::string& name) {
        b.initializer(name + ".weight", {32});
    }

    // seqlens_k = ReduceSum(mask) - 1 and total_seq_len = Shape(mask)[1], both int32.
    static void mask_reformatting(OnnxBuilder& b) {
        const std::string p = "/model/attn_mask_reformat/attn_mask_subgraph";
        OnnxBuilder::set_int(b.node("ReduceSum", {"attention_mask", "one"},
                                    {p + "/ReduceSum/output_0"}, p + "/ReduceSum"),
                             "keepdims", 0);
        b.node("Sub", {p + "/ReduceSum/output_0", "one"}, {p + "/Sub/output_0"}, p + "/Sub");
        OnnxBuilder::set_int(b.node("Cast", {p + "/Sub/output_0"}, {"seqlens_k"}, p + "/Sub/Cast"),
                             "to", onnx::TensorProto::INT32);
        b.node("Shape", {"attention_mask"}, {p + "/Shape/output_0"}, p + "/Shape");
        OnnxBuilder::set_int(b.node("Gather", {p + "/Shape/output_0", "one_scalar"},
                                    {p + "/Gather/output_0"}, p + "/Gather"),
                             "axis", 0);
        OnnxBuilder::set_int(
            b.node("Cast", {p + "/Gather/output_0"}, {"total_seq_len"}, p + "/Gather/Cast"), "to",
            onnx::TensorProto::INT32);
    }

    // Attention and MLP of layer l; returns the MLP's output.
    static std::string layer(OnnxBuilder& b, const std::string& p, int l, const std::string& x,
                             const std::string& residual) {
        const std::string a = p + "/attn";
        matmul(b, a + "/q_proj", x, 32, 32, a + "/q");
        matmul(b, a + "/k_proj", x, 32, 16, a + "/k");
        matmul(b, a + "/v_proj", x, 32, 16, a + "/v");
        for (const auto& [name, heads] : {std::pair{"q", 4}, std::pair{"k", 2}})
            OnnxBuilder::set_int(
                microsoft(b.node("RotaryEmbedding",
                                 {a + "/" + name, "position_ids", "cos_cache", "sin_cache"},
                                 {a + "/" + name + "_rot"}, a + "/" + name + "_rotary")),
                "num_heads", heads);
        const std::string layer_index = std::to_string(l);
        auto& gqa = microsoft(
            b.node("GroupQueryAttention",
                   {a + "/q_rot", a + "/k_rot", a + "/v", "past_key_values." + layer_index + ".key",
                    "past_key_values." + layer_index + ".value", "seqlens_k", "total_seq_len"},
                   {a + "/context", "present." + layer_index + ".key",
                    "present." + layer_index + ".value"},
                   a + "/GroupQueryAttention"));
        OnnxBuilder::set_int(gqa, "num_heads", 4);
        OnnxBuilder::set_int(gqa, "kv_num_heads", 2);
        matmul(b, a + "/o_proj", a + "/context", 32, 32, a + "/o");
        const std::string norm = p + "/post_attention_layernorm";
        norm_weight(b, norm);
        microsoft(b.node("SkipSimplifiedLayerNormalization", {a + "/o", residual, norm + ".weight"},
                         {norm + "/output_0", "", "", p + "/post_residual"},
                         norm + "/SkipLayerNorm"));
        const std::string m = p + "/mlp";
        matmul(b, m + "/gate_proj", norm + "/output_0", 32, 64, m + "/gate");
        matmul(b, m + "/up_proj", norm + "/output_0", 32, 64, m + "/up");
        b.node("Sigmoid", {m + "/gate"}, {m + "/gate_sigmoid"}, m + "/act_fn/Sigmoid");
        b.node("Mul", {m + "/gate", m + "/gate_sigmoid"}, {m + "/act"}, m + "/act_fn/Mul");
        b.node("Mul", {m + "/act", m + "/up"}, {m + "/hidden"}, m + "/Mul");
        matmul(b, m + "/down_proj", m + "/hidden", 64, 32, m + "/down");
        return m + "/down";
    }
};

} // namespace cleave::test
