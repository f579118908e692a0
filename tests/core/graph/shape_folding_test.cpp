// Shapes computed at run time (Shape -> Gather -> Div -> Concat -> Reshape) are folded so that
// every later shape is known, as for the exports of ShuffleNet, ViT and BERT.
#include "core/graph/onnx_import.hpp"
#include "onnx_builder.hpp"

#include <QtTest>
#include <limits>

using cleave::graph::load_model_from_bytes;
using cleave::graph::Model;
using cleave::graph::Shape;
using cleave::test::OnnxBuilder;

class ShapeFoldingTest : public QObject {
    Q_OBJECT

private slots:
    void channelSplitThroughDivIsFolded() {
        // x[:, : C/2] as ShuffleNet exports it: the Slice end is Shape(x)[1] / 2.
        OnnxBuilder b;
        b.input("x", {1, 116, 28, 28});
        b.node("Shape", {"x"}, {"shape"}, "shape");
        b.int64_initializer("one", {1});
        b.int64_initializer("two", {2});
        b.int64_initializer("zero", {0});
        b.node("Gather", {"shape", "one"}, {"channels"}, "gather");
        b.node("Div", {"channels", "two"}, {"half"}, "div");
        b.node("Slice", {"x", "zero", "half", "one"}, {"left"}, "slice");
        b.initializer("w", {8, 58, 1, 1});
        b.node("Conv", {"left", "w"}, {"y"}, "conv");
        b.output("y");
        const Model model = load_model_from_bytes(b.bytes(), "split.onnx");
        QCOMPARE(model.tensors[model.find_tensor("left")].shape,
                 std::optional(Shape{1, 58, 28, 28}));
        QCOMPARE(model.nodes[static_cast<std::size_t>(model.find_node("conv"))].cost.macs,
                 std::int64_t(8 * 28 * 28 * 58));
        QVERIFY(model.warnings.empty());
    }

    void expandToComputedShapeIsFolded() {
        // BERT's token-type ids: Expand(zeros, Where(Equal(shape, -1), ones, shape)).
        OnnxBuilder b;
        b.input("ids", {1, 128}, onnx::TensorProto::INT64);
        b.node("Shape", {"ids"}, {"shape"}, "shape");
        b.int64_initializer("minus_one", {-1});
        b.int64_initializer("ones", {1, 1});
        b.node("Equal", {"shape", "minus_one"}, {"is_dynamic"}, "equal");
        b.node("Where", {"is_dynamic", "ones", "shape"}, {"target"}, "where");
        b.int64_initializer("zeros", {0});
        b.node("Expand", {"zeros", "target"}, {"types"}, "expand");
        b.output("types", onnx::TensorProto::INT64);
        const Model model = load_model_from_bytes(b.bytes(), "expand.onnx");
        QCOMPARE(model.tensors[model.outputs[0]].shape, std::optional(Shape{1, 128}));
    }

    void foldedNodesStayInTheModel() {
        OnnxBuilder b;
        b.input("x", {2, 3, 4});
        b.node("Shape", {"x"}, {"shape"}, "shape");
        b.int64_initializer("first", {0});
        b.node("Gather", {"shape", "first"}, {"batch"}, "gather");
        b.int64_initializer("rest", {-1});
        b.node("Concat", {"batch", "rest"}, {"target"}, "concat");
        OnnxBuilder::set_int(*b.graph().mutable_node(1), "axis", 0);
        OnnxBuilder::set_int(*b.graph().mutable_node(2), "axis", 0);
        b.node("Reshape", {"x", "target"}, {"y"}, "reshape");
        b.output("y");
        const Model model = load_model_from_bytes(b.bytes(), "flatten.onnx");
        QCOMPARE(model.nodes.size(), std::size_t(4));
        QCOMPARE(model.nodes[0].op, std::string("Shape"));
        QCOMPARE(model.tensors[model.outputs[0]].shape, std::optional(Shape{2, 12}));
    }
    void padsReversedBySliceAndTransposeAreFolded() {
        // Swin's window padding as torch exports F.pad: the amounts (W % 7 away from a multiple
        // of 7) in a Concat, viewed as [-1, 2], rows reversed by a Slice of step -1, transposed
        // and flattened into ONNX's begins-then-ends order.
        OnnxBuilder b;
        b.input("x", {10, 5});
        b.node("Shape", {"x"}, {"shape"}, "shape");
        b.int64_initializer("zero", {0});
        b.int64_initializer("seven", {7});
        b.node("Gather", {"shape", "zero"}, {"rows"}, "gather");
        b.node("Mod", {"rows", "seven"}, {"rest"}, "mod");
        b.node("Sub", {"seven", "rest"}, {"missing"}, "sub");
        b.node("Mod", {"missing", "seven"}, {"pad"}, "mod2");
        b.int64_initializer("no_pad", {0, 0, 0});
        OnnxBuilder::set_int(b.node("Concat", {"no_pad", "pad"}, {"raw"}, "concat"), "axis", 0);
        b.int64_initializer("pairs", {-1, 2});
        b.node("Reshape", {"raw", "pairs"}, {"pairs_view"}, "view");
        b.int64_initializer("last", {-1});
        b.int64_initializer("before_first", {std::numeric_limits<std::int64_t>::min()});
        b.int64_initializer("minus_one", {-1});
        b.node("Slice", {"pairs_view", "last", "before_first", "zero", "minus_one"}, {"reversed"},
               "reverse");
        OnnxBuilder::set_ints(b.node("Transpose", {"reversed"}, {"by_side"}, "transpose"), "perm",
                              {1, 0});
        b.node("Reshape", {"by_side", "last"}, {"pads"}, "flatten");
        b.node("Pad", {"x", "pads"}, {"y"}, "pad");
        b.output("y");
        const Model model = load_model_from_bytes(b.bytes(), "pad.onnx");
        QCOMPARE(model.tensors[model.outputs[0]].shape, std::optional(Shape{14, 5}));
        QVERIFY(model.warnings.empty());
    }
    void shapesComputedFromFoldedShapesChainThroughEveryBlock() {
        // Each block reshapes to a target computed from the shape of the block before it, as
        // Swin's blocks pad and partition windows: ten blocks deep, every shape is known.
        OnnxBuilder b;
        b.input("x", {2, 3, 4});
        b.int64_initializer("first", {0});
        b.int64_initializer("second", {1});
        b.int64_initializer("third", {2});
        b.int64_initializer("thousand", {1000});
        std::string current = "x";
        for (int block = 0; block < 10; ++block) {
            const std::string p = "b" + std::to_string(block) + "_";
            b.node("Shape", {current}, {p + "shape"});
            b.node("Gather", {p + "shape", "second"}, {p + "rows"});
            b.node("Mod", {p + "rows", "thousand"}, {p + "d1"}); // beyond libonnx's propagation
            b.node("Gather", {p + "shape", "first"}, {p + "d0"});
            b.node("Gather", {p + "shape", "third"}, {p + "d2"});
            OnnxBuilder::set_int(b.node("Concat", {p + "d1", p + "d0", p + "d2"}, {p + "target"}),
                                 "axis", 0);
            b.node("Reshape", {current, p + "target"}, {p + "out"});
            b.node("Relu", {p + "out"}, {p + "relu"});
            current = p + "relu";
        }
        b.output(current);
        const Model model = load_model_from_bytes(b.bytes(), "blocks.onnx");
        QCOMPARE(model.tensors[model.outputs[0]].shape, std::optional(Shape{2, 3, 4}));
        QCOMPARE(model.tensors[model.find_tensor("b4_out")].shape, std::optional(Shape{3, 2, 4}));
        QCOMPARE(model.tensors[model.find_tensor("b5_out")].shape, std::optional(Shape{2, 3, 4}));
        QVERIFY(model.warnings.empty());
    }
};

QTEST_GUILESS_MAIN(ShapeFoldingTest)
#include "shape_folding_test.moc"
