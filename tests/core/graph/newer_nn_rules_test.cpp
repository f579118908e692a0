// Cleave's shape rules for the pooling, convolution and normalisation versions of opsets 18 to 21
// (core/graph/newer_nn_rules.cpp), and what they cost, worked out by hand.
#include "newer_opset_models.hpp"

#include <QtTest>
#include <tuple>

using cleave::graph::Model;
using cleave::graph::Shape;
using cleave::test::OnnxBuilder;
using namespace cleave::test;

namespace {

const cleave::graph::Node& node_named(const Model& m, const std::string& name) {
    return m.nodes[static_cast<std::size_t>(m.find_node(name))];
}

} // namespace

class NewerNnRulesTest : public QObject {
    Q_OBJECT

private slots:
    // 7 wide, kernel 2, stride 2: floor((7 - 2) / 2) + 1 = 3; with ceil_mode 4. Padded by 1 on
    // each side, ceil((9 - 2) / 2) + 1 = 5 windows, but the fifth would start at 8, in the end
    // padding, so 4.
    void lpPool18RoundsUpWithCeilMode() {
        OnnxBuilder b = newer_opset_builder(18);
        b.input("x", {1, 2, 7, 7});
        for (const auto& [name, ceil_mode, pad] :
             {std::tuple{"floor", 0, 0}, std::tuple{"ceil", 1, 0}, std::tuple{"padded", 1, 1}}) {
            auto& pool = b.node("LpPool", {"x"}, {name}, name);
            OnnxBuilder::set_ints(pool, "kernel_shape", {2, 2});
            OnnxBuilder::set_ints(pool, "strides", {2, 2});
            OnnxBuilder::set_int(pool, "ceil_mode", ceil_mode);
            OnnxBuilder::set_ints(pool, "pads", {pad, pad, pad, pad});
            b.output(name);
        }
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "floor"), std::optional(Shape{1, 2, 3, 3}));
        QCOMPARE(shape_of(m, "ceil"), std::optional(Shape{1, 2, 4, 4}));
        QCOMPARE(shape_of(m, "padded"), std::optional(Shape{1, 2, 4, 4}));
        // one FLOP per window element: 32 outputs x 4
        QCOMPARE(node_named(m, "ceil").cost.flops, std::int64_t(32 * 4));
    }

    // A 3x3 kernel dilated by 2 spans 5: (9 - 5) / 2 + 1 = 3; SAME_UPPER gives ceil(9 / 2) = 5.
    void averagePool19TakesDilations() {
        OnnxBuilder b = newer_opset_builder(19);
        b.input("x", {1, 1, 9, 9});
        auto& dilated = b.node("AveragePool", {"x"}, {"y"}, "dilated");
        OnnxBuilder::set_ints(dilated, "kernel_shape", {3, 3});
        OnnxBuilder::set_ints(dilated, "dilations", {2, 2});
        OnnxBuilder::set_ints(dilated, "strides", {2, 2});
        auto& same = b.node("AveragePool", {"x"}, {"z"}, "same");
        OnnxBuilder::set_ints(same, "kernel_shape", {3, 3});
        OnnxBuilder::set_ints(same, "strides", {2, 2});
        set_string(same, "auto_pad", "SAME_UPPER");
        b.output("y");
        b.output("z");
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "y"), std::optional(Shape{1, 1, 3, 3}));
        QCOMPARE(shape_of(m, "z"), std::optional(Shape{1, 1, 5, 5}));
        QCOMPARE(node_named(m, "dilated").cost.flops, std::int64_t(9 * 9));
    }

    // X [1, 4, 9, 9], W [8, 2, 3, 3] in 2 groups: 7x7 outputs, 5x5 with stride 2 and padding 1;
    // MACs as a Conv's, output elements x 2 x 3 x 3.
    void deformConv19IsShapedAndCountedAsAConvolution() {
        OnnxBuilder b = newer_opset_builder(19);
        b.input("x", {1, 4, 9, 9});
        b.input("offset", {1, 18, 7, 7});
        b.input("offset_strided", {1, 18, 5, 5});
        b.initializer("w", {8, 2, 3, 3});
        b.initializer("bias", {8});
        OnnxBuilder::set_int(b.node("DeformConv", {"x", "w", "offset", "bias"}, {"y"}, "plain"),
                             "group", 2);
        auto& strided = b.node("DeformConv", {"x", "w", "offset_strided"}, {"z"}, "strided");
        OnnxBuilder::set_int(strided, "group", 2);
        OnnxBuilder::set_ints(strided, "strides", {2, 2});
        OnnxBuilder::set_ints(strided, "pads", {1, 1, 1, 1});
        b.output("y");
        b.output("z");
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "y"), std::optional(Shape{1, 8, 7, 7}));
        QCOMPARE(shape_of(m, "z"), std::optional(Shape{1, 8, 5, 5}));
        QCOMPARE(node_named(m, "plain").cost.macs, std::int64_t(8 * 7 * 7 * 2 * 3 * 3));
        QCOMPARE(node_named(m, "plain").cost.weight_parameters, std::int64_t(144 + 8));
    }

    // Scale and bias per group at 18, per channel at 21; one FLOP per output element.
    void groupNormalizationKeepsTheShape() {
        for (const int opset : {18, 21}) {
            OnnxBuilder b = newer_opset_builder(opset);
            b.input("x", {2, 6, 4, 4});
            const std::int64_t per = opset == 18 ? 3 : 6;
            b.initializer("scale", {per});
            b.initializer("bias", {per});
            auto& norm = b.node("GroupNormalization", {"x", "scale", "bias"}, {"y"}, "norm");
            OnnxBuilder::set_int(norm, "num_groups", 3);
            if (opset == 21)
                OnnxBuilder::set_int(norm, "stash_type", 1);
            b.output("y");
            const Model m = load_built(b);
            QCOMPARE(shape_of(m, "y"), std::optional(Shape{2, 6, 4, 4}));
            QCOMPARE(node_named(m, "norm").cost.flops, std::int64_t(2 * 6 * 4 * 4));
            QCOMPARE(m.weight_parameters, 2 * per);
        }
    }

    void gelu20AndMish18AreElementwise() {
        OnnxBuilder b = newer_opset_builder(20);
        b.input("x", {2, 5});
        set_string(b.node("Gelu", {"x"}, {"g"}, "gelu"), "approximate", "tanh");
        b.node("Mish", {"g"}, {"y"}, "mish");
        b.output("y");
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "g"), std::optional(Shape{2, 5}));
        QCOMPARE(shape_of(m, "y"), std::optional(Shape{2, 5}));
        QCOMPARE(node_named(m, "gelu").cost.flops, std::int64_t(10));
    }
};

QTEST_GUILESS_MAIN(NewerNnRulesTest)
#include "newer_nn_rules_test.moc"
