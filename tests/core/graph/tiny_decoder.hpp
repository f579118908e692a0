// A 2-layer language-model decoder with a key/value cache, small enough to cost by hand, written
// with the input names and symbolic dims of the exporters Cleave reads: Hugging Face Optimum
// (batch_size, sequence_length, past_sequence_length, "past_sequence_length + 1") by default,
// torch.onnx's dynamo exporter (s0, s1, ...) with TinyDecoderNames::dynamo().
//
// Hidden size 8 (2 KV heads of 4), vocabulary 16. With B the batch, S the new tokens and
// T = past + S the tokens attended, MACs = 2 layers x (4 projections x 64 BS + 2 attention
// products x 8 BST) + 128 BS for the logits = 640 BS + 32 BST.
#pragma once

#include "onnx_builder.hpp"

#include <string>

namespace cleave::test {

struct TinyDecoderNames {
    std::string batch = "batch_size";
    std::string sequence = "sequence_length";
    std::string past = "past_sequence_length";
    std::string mask = "past_sequence_length + 1";  // the attention mask's second dim
    std::string past_key = "past_key_values.%.key"; // % is the layer
    std::string past_value = "past_key_values.%.value";

    static TinyDecoderNames dynamo() {
        return {
            "s0", "s1", "s2", "s3", "past_key_values_key_cache_%", "past_key_values_value_cache_%"};
    }
};

class TinyDecoder {
public:
    static constexpr int kLayers = 2;

    static std::string layer_name(std::string pattern, int layer) {
        return pattern.replace(pattern.find('%'), 1, std::to_string(layer));
    }

    static onnx::ModelProto build(const TinyDecoderNames& names = {}) {
        OnnxBuilder b;
        input(b, "input_ids", {names.batch, names.sequence}, onnx::TensorProto::INT64);
        input(b, "attention_mask", {names.batch, names.mask}, onnx::TensorProto::INT64);
        input(b, "position_ids", {names.batch, names.sequence}, onnx::TensorProto::INT64);
        for (int l = 0; l < kLayers; ++l) {
            input(b, layer_name(names.past_key, l), {names.batch, "2", names.past, "4"});
            input(b, layer_name(names.past_value, l), {names.batch, "2", names.past, "4"});
        }
        b.initializer("wte", {16, 8});
        b.initializer("wpe", {32, 8});
        b.initializer("lm_head", {8, 16});
        b.int64_initializer("heads_shape", {0, 0, 2, 4});
        b.int64_initializer("hidden_shape", {0, 0, 8});
        b.int64_initializer("mask_axes", {1, 2});
        b.node("Gather", {"wte", "input_ids"}, {"tokens"});
        b.node("Gather", {"wpe", "position_ids"}, {"positions"});
        b.node("Add", {"tokens", "positions"}, {"h0"});
        OnnxBuilder::set_int(b.node("Cast", {"attention_mask"}, {"mask_f"}), "to",
                             onnx::TensorProto::FLOAT);
        b.node("Unsqueeze", {"mask_f", "mask_axes"}, {"mask4"});
        for (int l = 0; l < kLayers; ++l)
            layer(b, names, l);
        b.node("MatMul", {"h" + std::to_string(kLayers), "lm_head"}, {"logits"});
        b.output("logits");
        for (int l = 0; l < kLayers; ++l) {
            b.output("present." + std::to_string(l) + ".key");
            b.output("present." + std::to_string(l) + ".value");
        }
        return b.model;
    }

private:
    // A dim of digits is fixed; anything else is its dim_param.
    static void input(OnnxBuilder& b, const std::string& name, const std::vector<std::string>& dims,
                      int type = onnx::TensorProto::FLOAT) {
        auto* v = b.graph().add_input();
        v->set_name(name);
        auto* t = v->mutable_type()->mutable_tensor_type();
        t->set_elem_type(type);
        for (const auto& d : dims) {
            auto* dim = t->mutable_shape()->add_dim();
            if (d.find_first_not_of("0123456789") == std::string::npos)
                dim->set_dim_value(std::stoll(d));
            else
                dim->set_dim_param(d);
        }
    }

    // [B,S,8] -> [B,2,S,4]
    static std::string heads(OnnxBuilder& b, const std::string& x, const std::string& name) {
        b.node("Reshape", {x, "heads_shape"}, {name + "_split"});
        OnnxBuilder::set_ints(b.node("Transpose", {name + "_split"}, {name + "_heads"}), "perm",
                              {0, 2, 1, 3});
        return name + "_heads";
    }

    static void layer(OnnxBuilder& b, const TinyDecoderNames& names, int l) {
        const std::string p = "l" + std::to_string(l) + "_";
        const std::string h = "h" + std::to_string(l);
        for (const char* w : {"wq", "wk", "wv", "wo"})
            b.initializer(p + w, {8, 8});
        b.node("MatMul", {h, p + "wq"}, {p + "q"});
        b.node("MatMul", {h, p + "wk"}, {p + "k"});
        b.node("MatMul", {h, p + "wv"}, {p + "v"});
        const std::string present = "present." + std::to_string(l);
        OnnxBuilder::set_int(b.node("Concat",
                                    {layer_name(names.past_key, l), heads(b, p + "k", p + "k")},
                                    {present + ".key"}),
                             "axis", 2);
        OnnxBuilder::set_int(b.node("Concat",
                                    {layer_name(names.past_value, l), heads(b, p + "v", p + "v")},
                                    {present + ".value"}),
                             "axis", 2);
        OnnxBuilder::set_ints(b.node("Transpose", {present + ".key"}, {p + "kt"}), "perm",
                              {0, 1, 3, 2});
        b.node("MatMul", {heads(b, p + "q", p + "q"), p + "kt"}, {p + "scores"});
        b.node("Add", {p + "scores", "mask4"}, {p + "masked"});
        OnnxBuilder::set_int(b.node("Softmax", {p + "masked"}, {p + "probs"}), "axis", -1);
        b.node("MatMul", {p + "probs", present + ".value"}, {p + "context"});
        OnnxBuilder::set_ints(b.node("Transpose", {p + "context"}, {p + "context_t"}), "perm",
                              {0, 2, 1, 3});
        b.node("Reshape", {p + "context_t", "hidden_shape"}, {p + "merged"});
        b.node("MatMul", {p + "merged", p + "wo"}, {p + "o"});
        b.node("Add", {h, p + "o"}, {"h" + std::to_string(l + 1)});
    }
};

} // namespace cleave::test
