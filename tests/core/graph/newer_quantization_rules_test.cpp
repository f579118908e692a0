// QuantizeLinear and DequantizeLinear 19 and 21 (core/graph/newer_quantization_rules.cpp): their
// output types, opset 21's blocked scales, and what a blocked int4 weight costs.
#include "core/input_error.hpp"
#include "newer_opset_models.hpp"

#include <QtTest>

using cleave::graph::DataType;
using cleave::graph::Model;
using cleave::graph::Shape;
using cleave::test::OnnxBuilder;
using namespace cleave::test;

namespace {

// A 4-bit weight [8, 64] in blocks of 32 along axis 1: scales [8, scale_columns] of float16.
OnnxBuilder blocked_weight_model(std::int64_t scale_columns, bool zero_point) {
    OnnxBuilder b = newer_opset_builder(21);
    b.input("x", {3, 64});
    int4_initializer(b, "w", {8, 64}, kInt4);
    b.initializer("w_scale", {8, scale_columns}, onnx::TensorProto::FLOAT16, 2);
    std::vector<std::string> inputs{"w", "w_scale"};
    if (zero_point) {
        int4_initializer(b, "w_zero", {8, scale_columns}, kInt4, 0);
        inputs.push_back("w_zero");
    }
    auto& dq = b.node("DequantizeLinear", inputs, {"w_float"}, "dq");
    OnnxBuilder::set_int(dq, "axis", 1);
    OnnxBuilder::set_int(dq, "block_size", 32);
    OnnxBuilder::set_int(b.node("Cast", {"x"}, {"x_half"}), "to", onnx::TensorProto::FLOAT16);
    OnnxBuilder::set_ints(b.node("Transpose", {"w_float"}, {"w_t"}), "perm", {1, 0});
    b.node("MatMul", {"x_half", "w_t"}, {"y"}, "matmul");
    b.output("y", onnx::TensorProto::FLOAT16);
    return b;
}

std::string load_error(const OnnxBuilder& b) {
    try {
        load_built(b);
    } catch (const cleave::InputError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

class NewerQuantizationRulesTest : public QObject {
    Q_OBJECT

private slots:
    // From 19 the scale's type is the output's (libonnx 1.12's rule says float32 always).
    void dequantize19TakesTheScalesType() {
        OnnxBuilder b = newer_opset_builder(19);
        b.input("q", {4, 8}, onnx::TensorProto::INT8);
        b.initializer("scale", {}, onnx::TensorProto::FLOAT16, 2);
        b.node("DequantizeLinear", {"q", "scale"}, {"y"});
        b.output("y", onnx::TensorProto::FLOAT16);
        const Model m = load_built(b);
        QCOMPARE(dtype_of(m, "y"), DataType::Float16);
        QCOMPARE(shape_of(m, "y"), std::optional(Shape{4, 8}));
    }

    // An int4 weight [8, 64] in blocks of 32: scales [8, 2]. The weight's 512 elements are 512
    // parameters in 256 bytes; its scales and zero points are no parameters. MACs: 3 x 8 x 64.
    void dequantize21BlockedWeightCountsLogicalWeightsAtStoredPrecision() {
        const Model m = load_built(blocked_weight_model(2, true));
        QCOMPARE(dtype_of(m, "w_float"), DataType::Float16);
        QCOMPARE(shape_of(m, "w_float"), std::optional(Shape{8, 64}));
        QCOMPARE(shape_of(m, "y"), std::optional(Shape{3, 8}));
        const auto& dq = m.nodes[static_cast<std::size_t>(m.find_node("dq"))];
        QCOMPARE(dq.cost.weight_parameters, std::int64_t(512));
        // weight 512 / 2, scales 16 x 2 bytes, zero points 16 / 2
        QCOMPARE(dq.cost.bytes_in, std::int64_t(256 + 32 + 8));
        QCOMPARE(dq.cost.bytes_out, std::int64_t(512 * 2));
        QCOMPARE(m.weight_parameters, std::int64_t(512));
        QCOMPARE(m.macs, std::int64_t(3 * 8 * 64));
    }

    void blockedScaleOfTheWrongShapeIsRefusedNamingTheNode() {
        QCOMPARE(load_error(blocked_weight_model(3, false)),
                 std::string("model.onnx: node 'dq': DequantizeLinear: x_scale's shape 8x3 does "
                             "not fit block_size 32 along axis 1 of x's shape 8x64; expected 8x2"));
    }

    void zeroPointOfAnotherShapeThanTheScaleIsRefused() {
        OnnxBuilder b = blocked_weight_model(2, false);
        int4_initializer(b, "odd_zero", {8, 1}, kInt4, 0);
        b.graph().mutable_node(0)->add_input("odd_zero");
        QCOMPARE(load_error(b), std::string("model.onnx: node 'dq': DequantizeLinear: "
                                            "x_zero_point's shape 8x1 differs from x_scale's 8x2"));
    }

    // The quantized type: the zero point's; at 21 without one, output_dtype's; else uint8.
    void quantizeLinearOutputTypes() {
        OnnxBuilder b = newer_opset_builder(21);
        b.input("x", {2, 8});
        b.initializer("scale", {}, onnx::TensorProto::FLOAT, 4);
        b.initializer("zero", {}, onnx::TensorProto::INT8, 1);
        b.initializer("block_scale", {2, 4}, onnx::TensorProto::FLOAT, 4);
        b.node("QuantizeLinear", {"x", "scale", "zero"}, {"with_zero"});
        OnnxBuilder::set_int(b.node("QuantizeLinear", {"x", "scale"}, {"as_int4"}), "output_dtype",
                             kInt4);
        b.node("QuantizeLinear", {"x", "scale"}, {"plain"});
        auto& blocked = b.node("QuantizeLinear", {"x", "block_scale"}, {"blocked"});
        OnnxBuilder::set_int(blocked, "block_size", 2);
        OnnxBuilder::set_int(blocked, "saturate", 1);
        b.output("blocked", onnx::TensorProto::UINT8);
        const Model m = load_built(b);
        QCOMPARE(dtype_of(m, "with_zero"), DataType::Int8);
        QCOMPARE(dtype_of(m, "as_int4"), DataType::Int4);
        QCOMPARE(dtype_of(m, "plain"), DataType::Uint8);
        QCOMPARE(shape_of(m, "blocked"), std::optional(Shape{2, 8}));
        // 16 int4 elements fill 8 bytes
        const auto& as_int4 = m.tensors[static_cast<std::size_t>(m.find_tensor("as_int4"))];
        QCOMPARE(as_int4.bytes(), std::int64_t(8));
    }

    // Opset 19 added saturate and the float8 types.
    void quantize19ToFloat8() {
        OnnxBuilder b = newer_opset_builder(19);
        b.input("x", {3});
        b.initializer("scale", {}, onnx::TensorProto::FLOAT, 4);
        b.initializer("zero", {}, 17, 1); // float8e4m3fn
        OnnxBuilder::set_int(b.node("QuantizeLinear", {"x", "scale", "zero"}, {"y"}), "saturate",
                             1);
        b.output("y", 17);
        const Model m = load_built(b);
        QCOMPARE(dtype_of(m, "y"), DataType::Float8E4M3FN);
        QCOMPARE(shape_of(m, "y"), std::optional(Shape{3}));
    }

    // 15 int4 elements are 8 bytes, the last half empty; 15 bytes are refused.
    void int4InitializerHoldsHalfAByteAnElement() {
        OnnxBuilder b = newer_opset_builder(21);
        b.input("x", {3, 5}, kInt4);
        int4_initializer(b, "w", {3, 5}, kInt4);
        b.node("Add", {"x", "w"}, {"y"});
        b.output("y", kInt4);
        const Model m = load_built(b);
        QCOMPARE(m.tensors[static_cast<std::size_t>(m.find_tensor("w"))].bytes(), std::int64_t(8));
        b.graph().mutable_initializer(0)->set_raw_data(std::string(15, '\0'));
        QCOMPARE(load_error(b), std::string("model.onnx: initializer 'w': holds 15 bytes of data "
                                            "but dims 3x5 of int4 need 8"));
    }
};

QTEST_GUILESS_MAIN(NewerQuantizationRulesTest)
#include "newer_quantization_rules_test.moc"
