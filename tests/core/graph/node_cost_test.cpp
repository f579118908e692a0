// Per-node costs on models built for each counting rule of docs/graph-features.md.
#include "core/graph/onnx_import.hpp"
#include "onnx_builder.hpp"

#include <QtTest>

using cleave::graph::load_model_from_bytes;
using cleave::graph::Model;
using cleave::graph::NodeCost;
using cleave::test::OnnxBuilder;

namespace {
NodeCost cost_of(const OnnxBuilder& b, const std::string& node) {
    const Model model = load_model_from_bytes(b.bytes(), "cost.onnx");
    const int index = model.find_node(node);
    if (index < 0)
        throw std::runtime_error("no node " + node);
    return model.nodes[static_cast<std::size_t>(index)].cost;
}
} // namespace

class NodeCostTest : public QObject {
    Q_OBJECT

private slots:
    void convCountsOutputsTimesKernelVolume() {
        // 1x8x16x16 -> 16 channels, 3x3, stride 2, pad 1: out 1x16x8x8.
        OnnxBuilder b;
        b.input("x", {1, 8, 16, 16});
        b.initializer("w", {16, 8, 3, 3});
        b.initializer("bias", {16});
        auto& conv = b.node("Conv", {"x", "w", "bias"}, {"y"}, "conv");
        OnnxBuilder::set_ints(conv, "strides", {2, 2});
        OnnxBuilder::set_ints(conv, "pads", {1, 1, 1, 1});
        b.output("y");
        const auto cost = cost_of(b, "conv");
        QCOMPARE(cost.macs, std::int64_t(16 * 8 * 8) * (8 * 3 * 3));
        QCOMPARE(cost.flops, 2 * cost.macs);
        QCOMPARE(cost.weight_parameters, std::int64_t(16 * 8 * 9 + 16));
        QCOMPARE(cost.bytes_in, std::int64_t(4 * (8 * 16 * 16 + 16 * 8 * 9 + 16)));
        QCOMPARE(cost.bytes_out, std::int64_t(4 * 16 * 8 * 8));
        QVERIFY(cost.complete);
    }

    void groupedAndDilatedConv() {
        // Depthwise 3x3 with dilation 2 and no padding: 1x8x12x12 -> 1x8x8x8, one input channel
        // each.
        OnnxBuilder b;
        b.input("x", {1, 8, 12, 12});
        b.initializer("w", {8, 1, 3, 3});
        auto& conv = b.node("Conv", {"x", "w"}, {"y"}, "dw");
        OnnxBuilder::set_int(conv, "group", 8);
        OnnxBuilder::set_ints(conv, "dilations", {2, 2});
        b.output("y");
        QCOMPARE(cost_of(b, "dw").macs, std::int64_t(8 * 8 * 8) * 9);
    }

    void convTransposeCountsInputsTimesKernelVolume() {
        OnnxBuilder b;
        b.input("x", {1, 4, 5, 5});
        b.initializer("w", {4, 6, 2, 2});
        auto& deconv = b.node("ConvTranspose", {"x", "w"}, {"y"}, "up");
        OnnxBuilder::set_ints(deconv, "strides", {2, 2});
        b.output("y");
        QCOMPARE(cost_of(b, "up").macs, std::int64_t(4 * 5 * 5) * (6 * 2 * 2));
    }

    void gemmHonoursTranspose() {
        OnnxBuilder b;
        b.input("a", {32, 10});      // transA: M = 10, K = 32
        b.initializer("w", {7, 32}); // transB: N = 7
        auto& gemm = b.node("Gemm", {"a", "w"}, {"y"}, "gemm");
        OnnxBuilder::set_int(gemm, "transA", 1);
        OnnxBuilder::set_int(gemm, "transB", 1);
        b.output("y");
        QCOMPARE(cost_of(b, "gemm").macs, std::int64_t(10 * 7 * 32));
    }

    void batchedMatMulBroadcasts() {
        OnnxBuilder b;
        b.input("a", {2, 12, 128, 64});
        b.input("b", {12, 64, 128});
        b.node("MatMul", {"a", "b"}, {"y"}, "attention");
        b.output("y");
        QCOMPARE(cost_of(b, "attention").macs, std::int64_t(2 * 12 * 128 * 128) * 64);
    }

    void matMulWithVector() {
        OnnxBuilder b;
        b.input("a", {5, 3});
        b.input("v", {3});
        b.node("MatMul", {"a", "v"}, {"y"}, "mv");
        b.output("y");
        QCOMPARE(cost_of(b, "mv").macs, std::int64_t(5 * 3));
    }

    void poolingCountsEveryWindowElement() {
        OnnxBuilder b;
        b.input("x", {1, 2, 8, 8});
        auto& pool = b.node("MaxPool", {"x"}, {"p"}, "pool");
        OnnxBuilder::set_ints(pool, "kernel_shape", {3, 3});
        OnnxBuilder::set_ints(pool, "strides", {1, 1});
        b.node("GlobalAveragePool", {"p"}, {"y"}, "gap");
        b.output("y");
        QCOMPARE(cost_of(b, "pool").flops, std::int64_t(2 * 6 * 6) * 9);
        QCOMPARE(cost_of(b, "pool").macs, std::int64_t(0));
        QCOMPARE(cost_of(b, "gap").flops, std::int64_t(2 * 6 * 6));
    }

    void pointwiseAndSoftmaxCountOutputs() {
        OnnxBuilder b;
        b.input("x", {4, 10});
        b.node("Sigmoid", {"x"}, {"s"}, "sigmoid");
        b.node("Softmax", {"s"}, {"y"}, "softmax");
        b.node("Reshape", {"y", "shape"}, {"z"}, "reshape");
        b.int64_initializer("shape", {40});
        b.output("z");
        QCOMPARE(cost_of(b, "sigmoid").flops, std::int64_t(40));
        QCOMPARE(cost_of(b, "softmax").flops, std::int64_t(40));
        QCOMPARE(cost_of(b, "reshape").flops, std::int64_t(0));
    }

    void batchNormStatisticsAreNotParameters() {
        OnnxBuilder b;
        b.input("x", {1, 6, 4, 4});
        for (const char* name : {"scale", "bias", "mean", "var"})
            b.initializer(name, {6});
        b.node("BatchNormalization", {"x", "scale", "bias", "mean", "var"}, {"y"}, "bn");
        b.output("y");
        const Model model = load_model_from_bytes(b.bytes(), "bn.onnx");
        QCOMPARE(model.nodes[0].cost.weight_parameters, std::int64_t(12));
        QCOMPARE(model.nodes[0].cost.flops, std::int64_t(6 * 16));
        QCOMPARE(model.weight_parameters, std::int64_t(12));
        QCOMPARE(model.initializer_elements, std::int64_t(24));
    }

    void unknownShapeMarksCostIncomplete() {
        OnnxBuilder b;
        b.input("x", {1, 4});
        b.node("Relu", {"x"}, {"a"}, "known");
        b.node("Mystery", {"a"}, {"y"}, "custom");
        b.graph().mutable_node(1)->set_domain("com.example");
        b.node("Relu", {"y"}, {"z"}, "after");
        b.output("z");
        auto* custom = b.model.add_opset_import();
        custom->set_domain("com.example");
        custom->set_version(1);
        const Model model = load_model_from_bytes(b.bytes(), "custom.onnx");
        QVERIFY(model.nodes[0].cost.complete);
        QVERIFY(!model.nodes[2].cost.complete);
        QCOMPARE(model.nodes[2].cost.flops, std::int64_t(0));
    }
};

QTEST_GUILESS_MAIN(NodeCostTest)
#include "node_cost_test.moc"
