// Cleave's shape rules for the tensor ops of opsets 18 to 21 (core/graph/newer_tensor_rules.cpp):
// each on a model built at its opset, with the shapes worked out by hand from the ONNX operator
// definitions.
#include "newer_opset_models.hpp"

#include <QtTest>

using cleave::graph::Model;
using cleave::graph::Shape;
using cleave::test::OnnxBuilder;
using namespace cleave::test;

class NewerTensorRulesTest : public QObject {
    Q_OBJECT

private slots:
    // 10 in ceil(10 / 4) = 3 long chunks, the last what is left.
    void split18NumOutputsCutsCeilLongChunks() {
        OnnxBuilder b = newer_opset_builder(18);
        b.input("x", {2, 10});
        auto& split = b.node("Split", {"x"}, {"a", "b", "c", "d"});
        OnnxBuilder::set_int(split, "axis", 1);
        OnnxBuilder::set_int(split, "num_outputs", 4);
        b.output("d");
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "a"), std::optional(Shape{2, 3}));
        QCOMPARE(shape_of(m, "c"), std::optional(Shape{2, 3}));
        QCOMPARE(shape_of(m, "d"), std::optional(Shape{2, 1}));
    }

    // From 18 a Split names its lengths or its num_outputs; one naming neither gets no shapes.
    void split18TakesTheSplitInput() {
        OnnxBuilder b = newer_opset_builder(18);
        b.input("x", {6, 10});
        b.int64_initializer("lengths", {4, 6});
        OnnxBuilder::set_int(b.node("Split", {"x", "lengths"}, {"a", "b"}), "axis", 1);
        b.node("Split", {"x"}, {"p", "q", "r"});
        b.output("r");
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "a"), std::optional(Shape{6, 4}));
        QCOMPARE(shape_of(m, "b"), std::optional(Shape{6, 6}));
        QCOMPARE(shape_of(m, "r"), std::nullopt);
    }

    // Pads [1, 2, 3, 4] for axes [1, 3]: begins 1 and 2, ends 3 and 4.
    void pad18PadsOnlyTheAxesInputNames() {
        OnnxBuilder b = newer_opset_builder(18);
        b.input("x", {1, 3, 5, 5});
        b.int64_initializer("pads", {1, 2, 3, 4});
        b.int64_initializer("axes", {1, 3});
        b.int64_initializer("last_pads", {2, 0});
        b.int64_initializer("last", {-1});
        b.node("Pad", {"x", "pads", "", "axes"}, {"y"});
        b.node("Pad", {"x", "last_pads", "", "last"}, {"z"});
        b.output("y");
        b.output("z");
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "y"), std::optional(Shape{1, 7, 5, 11}));
        QCOMPARE(shape_of(m, "z"), std::optional(Shape{1, 3, 5, 7}));
    }

    void pad19And21WrapWithoutAxes() {
        for (const int opset : {19, 21}) {
            OnnxBuilder b = newer_opset_builder(opset);
            b.input("x", {1, 3, 5, 5});
            b.int64_initializer("pads", {0, 0, 1, 2, 0, 0, 1, -1});
            set_string(b.node("Pad", {"x", "pads"}, {"y"}), "mode", "wrap");
            b.output("y");
            QCOMPARE(shape_of(load_built(b), "y"), std::optional(Shape{1, 3, 7, 6}));
        }
    }

    // Scales for the axes the attribute names: floor(4 x 0.5), floor(6 x 1.5).
    void resize18ScalesTheNamedAxes() {
        OnnxBuilder b = newer_opset_builder(18);
        b.input("x", {1, 3, 4, 6});
        float_initializer(b, "scales", {2}, {0.5F, 1.5F});
        OnnxBuilder::set_ints(b.node("Resize", {"x", "", "scales"}, {"y"}), "axes", {2, 3});
        b.output("y");
        QCOMPARE(shape_of(load_built(b), "y"), std::optional(Shape{1, 3, 2, 9}));
    }

    // Sizes [4, 4] for a 4x6 image: stretch gives 4x4; not_larger scales both by min(1, 2/3),
    // 4x6 -> round(2.67)=3 x 4; not_smaller by max(1, 2/3) = 1, 4x6.
    void resize18KeepsTheAspectRatioAsAsked_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("expected");
        QTest::newRow("stretch") << "stretch"
                                 << "1x3x4x4";
        QTest::newRow("not_larger") << "not_larger"
                                    << "1x3x3x4";
        QTest::newRow("not_smaller") << "not_smaller"
                                     << "1x3x4x6";
    }

    void resize18KeepsTheAspectRatioAsAsked() {
        QFETCH(QString, policy);
        QFETCH(QString, expected);
        OnnxBuilder b = newer_opset_builder(18);
        b.input("x", {1, 3, 4, 6});
        b.int64_initializer("sizes", {4, 4});
        auto& resize = b.node("Resize", {"x", "", "", "sizes"}, {"y"});
        OnnxBuilder::set_ints(resize, "axes", {-2, -1});
        set_string(resize, "keep_aspect_ratio_policy", policy.toStdString());
        b.output("y");
        QCOMPARE(
            QString::fromStdString(cleave::graph::shape_to_string(shape_of(load_built(b), "y"))),
            expected);
    }

    void resize19TakesHalfPixelSymmetric() {
        OnnxBuilder b = newer_opset_builder(19);
        b.input("x", {1, 3, 4, 6});
        b.int64_initializer("sizes", {1, 3, 8, 12});
        auto& resize = b.node("Resize", {"x", "", "", "sizes"}, {"y"});
        set_string(resize, "coordinate_transformation_mode", "half_pixel_symmetric");
        set_string(resize, "mode", "linear");
        OnnxBuilder::set_int(resize, "antialias", 1);
        b.output("y");
        QCOMPARE(shape_of(load_built(b), "y"), std::optional(Shape{1, 3, 8, 12}));
    }

    void centerCropPad18GivesTheNamedAxesTheirLengths() {
        OnnxBuilder b = newer_opset_builder(18);
        b.input("x", {3, 10, 7});
        b.int64_initializer("some", {5, 9});
        b.int64_initializer("all", {2, 4, 6});
        OnnxBuilder::set_ints(b.node("CenterCropPad", {"x", "some"}, {"y"}), "axes", {0, 2});
        b.node("CenterCropPad", {"x", "all"}, {"z"});
        b.output("y");
        b.output("z");
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "y"), std::optional(Shape{5, 10, 9}));
        QCOMPARE(shape_of(m, "z"), std::optional(Shape{2, 4, 6}));
    }

    // [2, 3 x 2 x 2, 3 x 4 blocks] back into a 4x5 image of 3 channels.
    void col2im18RebuildsTheImage() {
        OnnxBuilder b = newer_opset_builder(18);
        b.input("x", {2, 12, 12});
        b.int64_initializer("image", {4, 5});
        b.int64_initializer("block", {2, 2});
        b.node("Col2Im", {"x", "image", "block"}, {"y"});
        b.output("y");
        QCOMPARE(shape_of(load_built(b), "y"), std::optional(Shape{2, 3, 4, 5}));
    }

    void affineGrid20Gives2DAnd3DGrids() {
        OnnxBuilder b = newer_opset_builder(20);
        b.input("theta2", {2, 2, 3});
        b.input("theta3", {1, 3, 4});
        b.int64_initializer("size2", {2, 3, 5, 6});
        b.int64_initializer("size3", {1, 1, 4, 5, 6});
        b.node("AffineGrid", {"theta2", "size2"}, {"grid2"});
        b.node("AffineGrid", {"theta3", "size3"}, {"grid3"});
        b.output("grid2");
        b.output("grid3");
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "grid2"), std::optional(Shape{2, 5, 6, 2}));
        QCOMPARE(shape_of(m, "grid3"), std::optional(Shape{1, 4, 5, 6, 3}));
    }

    void gridSample20SamplesVolumes() {
        OnnxBuilder b = newer_opset_builder(20);
        b.input("x", {1, 2, 4, 4, 4});
        b.input("grid", {1, 3, 5, 6, 3});
        set_string(b.node("GridSample", {"x", "grid"}, {"y"}), "mode", "linear");
        b.output("y");
        QCOMPARE(shape_of(load_built(b), "y"), std::optional(Shape{1, 2, 3, 5, 6}));
    }

    // Axis -2 by default; dft_length 20; one-sided keeps 16 / 2 + 1 = 9 frequencies.
    void dft20TakesAxisAndLengthAsInputs() {
        OnnxBuilder b = newer_opset_builder(20);
        b.input("x", {2, 16, 1});
        int64_scalar(b, "length", 20);
        int64_scalar(b, "axis", 1);
        b.node("DFT", {"x"}, {"plain"});
        b.node("DFT", {"x", "length", "axis"}, {"longer"});
        OnnxBuilder::set_int(b.node("DFT", {"x", "", "axis"}, {"half"}), "onesided", 1);
        b.output("half");
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "plain"), std::optional(Shape{2, 16, 2}));
        QCOMPARE(shape_of(m, "longer"), std::optional(Shape{2, 20, 2}));
        QCOMPARE(shape_of(m, "half"), std::optional(Shape{2, 9, 2}));
    }

    // Opset 18's max and min reductions are new values of an attribute ScatterElements-16 and
    // ScatterND-16 have: their libonnx rules hold.
    void scatter18TakesMaxAndMinReductions() {
        OnnxBuilder b = newer_opset_builder(18);
        b.input("data", {4, 5});
        b.input("updates", {2, 5});
        b.int64_initializer("rows", {1, 3});
        b.graph().mutable_initializer(0)->clear_dims();
        b.graph().mutable_initializer(0)->add_dims(2);
        b.graph().mutable_initializer(0)->add_dims(1);
        set_string(b.node("ScatterND", {"data", "rows", "updates"}, {"y"}), "reduction", "max");
        b.output("y");
        QCOMPARE(shape_of(load_built(b), "y"), std::optional(Shape{4, 5}));
    }
};

QTEST_GUILESS_MAIN(NewerTensorRulesTest)
#include "newer_tensor_rules_test.moc"
