// The model behind tests/data/ort-profile-small.json and the optimised model ONNX Runtime 1.30
// would save for it at the EXTENDED level: Conv + BatchNormalization + Relu as one FusedConv,
// x * Sigmoid(x) as QuickGelu, HardSwish inlined as an unnamed HardSigmoid and Mul, Gemm + Relu
// as FusedGemm, and the Reshape's constant target folded away.
#pragma once

#include "../graph/onnx_builder.hpp"

#include <string>

namespace cleave::test {

inline void write_ort_small_model(const std::string& path) {
    OnnxBuilder b;
    b.input("x", {1, 3, 8, 8});
    b.initializer("w", {4, 3, 3, 3});
    b.initializer("w_b", {4, 4, 1, 1});
    for (const char* p : {"scale", "bias", "mean", "var"})
        b.initializer(p, {4});
    b.initializer("w_fc", {10, 4});
    b.initializer("b_fc", {10});
    OnnxBuilder::set_ints(b.node("Conv", {"x", "w"}, {"c"}, "conv"), "pads", {1, 1, 1, 1});
    b.node("BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"n"}, "bn");
    b.node("Relu", {"n"}, {"r"}, "relu");
    b.node("Conv", {"r", "w_b"}, {"d"}, "conv_b");
    b.node("Sigmoid", {"d"}, {"g"}, "sig");
    b.node("Mul", {"d", "g"}, {"e"}, "mul");
    b.node("HardSwish", {"e"}, {"h"}, "hs");
    b.node("Add", {"h", "r"}, {"a"}, "add");
    b.node("GlobalAveragePool", {"a"}, {"p"}, "pool");
    auto& target = b.node("Constant", {}, {"target"}, "target_shape");
    auto* value = target.add_attribute();
    value->set_name("value");
    value->set_type(onnx::AttributeProto::TENSOR);
    value->mutable_t()->set_data_type(onnx::TensorProto::INT64);
    value->mutable_t()->add_dims(2);
    value->mutable_t()->add_int64_data(1);
    value->mutable_t()->add_int64_data(4);
    b.node("Reshape", {"p", "target"}, {"f"}, "reshape");
    OnnxBuilder::set_int(b.node("Gemm", {"f", "w_fc", "b_fc"}, {"q"}, "fc"), "transB", 1);
    b.node("Relu", {"q"}, {"y"}, "fc_relu");
    b.output("y");
    b.save(path);
}

inline void write_ort_small_optimized_model(const std::string& path) {
    OnnxBuilder b;
    auto* ms = b.model.add_opset_import();
    ms->set_domain("com.microsoft");
    ms->set_version(1);
    b.input("x", {1, 3, 8, 8});
    b.initializer("w", {4, 3, 3, 3});
    b.initializer("conv_bias_folded", {4});
    b.initializer("w_b", {4, 4, 1, 1});
    b.initializer("w_fc", {10, 4});
    b.initializer("b_fc", {10});
    b.int64_initializer("target", {1, 4});
    b.node("FusedConv", {"x", "w", "conv_bias_folded"}, {"r"}, "conv").set_domain("com.microsoft");
    b.node("Conv", {"r", "w_b"}, {"d"}, "conv_b");
    b.node("QuickGelu", {"d"}, {"e"}, "mul/QuickGeluFusion/").set_domain("com.microsoft");
    b.node("HardSigmoid", {"e"}, {"_inlfunc_HardSwish_HS_X"}, "x").set_name("");
    b.node("Mul", {"e", "_inlfunc_HardSwish_HS_X"}, {"h"}, "x").set_name("");
    b.node("Add", {"h", "r"}, {"a"}, "add");
    b.node("GlobalAveragePool", {"a"}, {"p"}, "pool");
    b.node("Reshape", {"p", "target"}, {"f"}, "reshape");
    b.node("FusedGemm", {"f", "w_fc", "b_fc"}, {"y"}, "fused fc").set_domain("com.microsoft");
    b.output("y");
    b.save(path);
}

} // namespace cleave::test
