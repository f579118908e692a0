// Cleave's rules for the bitwise, optional, string and image ops of opsets 18 and 20
// (core/graph/newer_shape_rules.cpp), on models built at their opsets.
#include "newer_opset_models.hpp"

#include <QtTest>

using cleave::graph::DataType;
using cleave::graph::Model;
using cleave::graph::Shape;
using cleave::test::OnnxBuilder;
using namespace cleave::test;

class NewerShapeRulesTest : public QObject {
    Q_OBJECT

private slots:
    void bitwise18Broadcasts() {
        OnnxBuilder b = newer_opset_builder(18);
        b.input("a", {3, 1, 4}, onnx::TensorProto::INT32);
        b.input("b", {5, 1}, onnx::TensorProto::INT32);
        b.node("BitwiseAnd", {"a", "b"}, {"c"});
        b.node("BitwiseNot", {"c"}, {"d"});
        b.output("d", onnx::TensorProto::INT32);
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "c"), std::optional(Shape{3, 5, 4}));
        QCOMPARE(shape_of(m, "d"), std::optional(Shape{3, 5, 4}));
        QCOMPARE(dtype_of(m, "d"), DataType::Int32);
    }

    // OptionalHasElement-18's input may be left out; OptionalGetElement-18 passes a tensor on.
    void optional18TakesTensorsAndNothing() {
        OnnxBuilder b = newer_opset_builder(18);
        b.input("x", {2, 3});
        b.node("OptionalGetElement", {"x"}, {"y"});
        b.node("OptionalHasElement", {}, {"none"});
        b.output("y");
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "y"), std::optional(Shape{2, 3}));
        QCOMPARE(shape_of(m, "none"), std::optional(Shape{}));
        QCOMPARE(dtype_of(m, "none"), DataType::Bool);
    }

    // StringSplit's substrings gain a last dim whose length depends on the text.
    void strings20() {
        OnnxBuilder b = newer_opset_builder(20);
        b.input("x", {2, 3}, onnx::TensorProto::STRING);
        b.input("suffix", {3}, onnx::TensorProto::STRING);
        b.node("StringConcat", {"x", "suffix"}, {"joined"});
        set_string(b.node("RegexFullMatch", {"joined"}, {"matches"}), "pattern", "a+");
        b.node("StringSplit", {"joined"}, {"pieces", "counts"});
        b.output("matches", onnx::TensorProto::BOOL);
        b.output("pieces", onnx::TensorProto::STRING);
        b.output("counts", onnx::TensorProto::INT64);
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "joined"), std::optional(Shape{2, 3}));
        QCOMPARE(shape_of(m, "matches"), std::optional(Shape{2, 3}));
        QCOMPARE(dtype_of(m, "matches"), DataType::Bool);
        QCOMPARE(shape_of(m, "pieces"), std::optional(Shape{2, 3, -1}));
        QCOMPARE(shape_of(m, "counts"), std::optional(Shape{2, 3}));
        QCOMPARE(dtype_of(m, "counts"), DataType::Int64);
    }

    void imageDecoder20GivesARank3Image() {
        OnnxBuilder b = newer_opset_builder(20);
        b.input("bytes", {1000}, onnx::TensorProto::UINT8);
        b.node("ImageDecoder", {"bytes"}, {"image"});
        b.output("image", onnx::TensorProto::UINT8);
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "image"), std::optional(Shape{-1, -1, -1}));
        QCOMPARE(dtype_of(m, "image"), DataType::Uint8);
    }
};

QTEST_GUILESS_MAIN(NewerShapeRulesTest)
#include "newer_shape_rules_test.moc"
