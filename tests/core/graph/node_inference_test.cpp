// Shape inference node by node: each op family's output shape on a small graph, data carried to
// later nodes (Shape, Constant, what the folder computes), and the nodes libonnx would crash on
// or cannot type left unknown rather than inferred.
#include "core/graph/node_inference.hpp"
#include "onnx_builder.hpp"

#include <QtTest>

using namespace cleave::graph;
using cleave::test::OnnxBuilder;
using Dims = std::vector<std::int64_t>;

namespace {

// The inferred dims of `name` (-1 for a dim without a value); nullopt when it has no shape.
std::optional<Dims> shape_of(const onnx::ModelProto& model, const std::string& name) {
    const auto dims = [](const onnx::ValueInfoProto& v) -> std::optional<Dims> {
        if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape())
            return std::nullopt;
        Dims out;
        for (const auto& d : v.type().tensor_type().shape().dim())
            out.push_back(d.has_dim_value() ? d.dim_value() : -1);
        return out;
    };
    for (const auto& v : model.graph().value_info())
        if (v.name() == name)
            return dims(v);
    for (const auto& v : model.graph().output())
        if (v.name() == name)
            return dims(v);
    return std::nullopt;
}

std::vector<std::string> infer(OnnxBuilder& b, const NodeFolder& fold = {}) {
    std::vector<std::string> warnings;
    infer_node_by_node(
        b.model, [&](std::string w) { warnings.push_back(std::move(w)); }, fold);
    return warnings;
}

onnx::TensorProto int64_tensor(const Dims& dims, const Dims& values) {
    onnx::TensorProto t;
    t.set_data_type(onnx::TensorProto::INT64);
    for (const auto d : dims)
        t.add_dims(d);
    for (const auto v : values)
        t.add_int64_data(v);
    return t;
}

} // namespace

class NodeInferenceTest : public QObject {
    Q_OBJECT

private slots:
    void convolutionPoolingAndClassifierShapes() {
        OnnxBuilder b;
        b.input("x", {1, 3, 32, 32});
        b.initializer("w", {16, 3, 3, 3});
        auto& conv = b.node("Conv", {"x", "w"}, {"c"});
        OnnxBuilder::set_ints(conv, "pads", {1, 1, 1, 1});
        OnnxBuilder::set_ints(conv, "strides", {2, 2});
        b.node("Relu", {"c"}, {"r"});
        auto& pool = b.node("MaxPool", {"r"}, {"p"});
        OnnxBuilder::set_ints(pool, "kernel_shape", {2, 2});
        OnnxBuilder::set_ints(pool, "strides", {2, 2});
        b.initializer("bias", {16, 1, 1});
        b.node("Add", {"p", "bias"}, {"a"});
        b.node("GlobalAveragePool", {"a"}, {"g"});
        b.node("Flatten", {"g"}, {"f"});
        b.initializer("fc", {10, 16});
        OnnxBuilder::set_int(b.node("Gemm", {"f", "fc"}, {"logits"}), "transB", 1);
        b.node("Softmax", {"logits"}, {"y"});
        b.output("y");
        QVERIFY(infer(b).empty());
        QCOMPARE(shape_of(b.model, "c"), Dims({1, 16, 16, 16})); // (32 + 2 - 3) / 2 + 1
        QCOMPARE(shape_of(b.model, "r"), Dims({1, 16, 16, 16}));
        QCOMPARE(shape_of(b.model, "p"), Dims({1, 16, 8, 8}));
        QCOMPARE(shape_of(b.model, "a"), Dims({1, 16, 8, 8})); // broadcast
        QCOMPARE(shape_of(b.model, "g"), Dims({1, 16, 1, 1}));
        QCOMPARE(shape_of(b.model, "f"), Dims({1, 16}));
        QCOMPARE(shape_of(b.model, "logits"), Dims({1, 10}));
        QCOMPARE(shape_of(b.model, "y"), Dims({1, 10})); // merged into the graph output
    }

    void matrixProductsAndLayoutShapes() {
        OnnxBuilder b;
        b.input("q", {2, 4, 8, 16});
        b.initializer("w", {16, 32});
        b.node("MatMul", {"q", "w"}, {"m"});
        OnnxBuilder::set_ints(b.node("Transpose", {"m"}, {"t"}), "perm", {0, 2, 1, 3});
        b.int64_initializer("to", {2, 8, 128});
        b.node("Reshape", {"t", "to"}, {"r"});
        b.input("k", {2, 4, 5, 16});
        auto& einsum = b.node("Einsum", {"q", "k"}, {"scores"});
        auto* equation = einsum.add_attribute();
        equation->set_name("equation");
        equation->set_type(onnx::AttributeProto::STRING);
        equation->set_s("bhid,bhjd->bhij");
        b.output("r");
        b.output("scores");
        QVERIFY(infer(b).empty());
        QCOMPARE(shape_of(b.model, "m"), Dims({2, 4, 8, 32}));
        QCOMPARE(shape_of(b.model, "t"), Dims({2, 8, 4, 32}));
        QCOMPARE(shape_of(b.model, "r"), Dims({2, 8, 128}));
        // libonnx gives an Einsum its rank only; the dims come from the equation.
        QCOMPARE(shape_of(b.model, "scores"), Dims({2, 4, 8, 5}));
    }

    void concatSplitAndReductionShapes() {
        OnnxBuilder b;
        b.input("a", {1, 3, 4});
        b.input("b", {1, 5, 4});
        OnnxBuilder::set_int(b.node("Concat", {"a", "b"}, {"c"}), "axis", 1);
        b.int64_initializer("sizes", {2, 6});
        OnnxBuilder::set_int(b.node("Split", {"c", "sizes"}, {"s0", "s1"}), "axis", 1);
        auto& mean = b.node("ReduceMean", {"c"}, {"m"});
        OnnxBuilder::set_ints(mean, "axes", {2});
        OnnxBuilder::set_int(mean, "keepdims", 0);
        b.output("m");
        QVERIFY(infer(b).empty());
        QCOMPARE(shape_of(b.model, "c"), Dims({1, 8, 4}));
        QCOMPARE(shape_of(b.model, "s0"), Dims({1, 2, 4}));
        QCOMPARE(shape_of(b.model, "s1"), Dims({1, 6, 4}));
        QCOMPARE(shape_of(b.model, "m"), Dims({1, 8}));
    }

    void shapeAndConstantDataReachLaterNodes() {
        OnnxBuilder b;
        b.input("x", {2, 3, 4});
        b.input("y", {4, 6});
        b.node("Shape", {"x"}, {"s"});
        b.node("Reshape", {"y", "s"}, {"like_x"});
        auto& constant = b.node("Constant", {}, {"k"});
        auto* value = constant.add_attribute();
        value->set_name("value");
        value->set_type(onnx::AttributeProto::TENSOR);
        *value->mutable_t() = int64_tensor({2}, {3, 8});
        b.node("Reshape", {"y", "k"}, {"three_by_eight"});
        b.output("like_x");
        b.output("three_by_eight");
        QVERIFY(infer(b).empty());
        QCOMPARE(shape_of(b.model, "like_x"), Dims({2, 3, 4}));
        QCOMPARE(shape_of(b.model, "three_by_eight"), Dims({3, 8}));
    }

    void whatTheFolderComputesIsReadAsData() {
        // A Reshape target computed at run time: no shape, unless the folder computes it from
        // the dims inference knows.
        const auto build = [] {
            OnnxBuilder b;
            b.input("x", {4, 32});
            b.input("target", {2}, onnx::TensorProto::INT64);
            b.node("Identity", {"target"}, {"t"}, "computed");
            b.node("Reshape", {"x", "t"}, {"y"});
            b.output("y");
            return b;
        };
        auto plain = build();
        infer(plain);
        QVERIFY(!shape_of(plain.model, "y"));

        auto folded = build();
        std::vector<std::string> asked;
        infer(folded,
              [&](const onnx::NodeProto& node,
                  const KnownDims& known) -> std::optional<onnx::TensorProto> {
                  asked.push_back(node.name());
                  const auto x = known("x");
                  if (node.name() != "computed" || !x)
                      return std::nullopt;
                  return int64_tensor({2}, {(*x)[0] / 2, (*x)[1] * 2});
              });
        QCOMPARE(asked, (std::vector<std::string>{"computed", "Reshape_2"}));
        QCOMPARE(shape_of(folded.model, "y"), Dims({2, 64}));
    }

    void aNodeAfterAnUntypedValueStaysUnknown() {
        // A custom op of a domain the model does not import: its output has no type, and the
        // Relu reading it is not handed to libonnx.
        OnnxBuilder b;
        b.input("x", {1, 8});
        b.node("Mystery", {"x"}, {"m"}).set_domain("com.example");
        b.node("Relu", {"m"}, {"r"});
        b.node("Relu", {"x"}, {"fine"});
        b.output("r");
        b.output("fine");
        QVERIFY(infer(b).empty());
        QVERIFY(!shape_of(b.model, "m"));
        QVERIFY(!shape_of(b.model, "r"));
        QCOMPARE(shape_of(b.model, "fine"), Dims({1, 8}));
    }

    void ranksLibonnxCannotHandleAreNotInferred() {
        OnnxBuilder b;
        b.input("v", {4});
        b.initializer("m", {4, 3});
        b.node("Gemm", {"v", "m"}, {"gemm"}); // Gemm needs matrices
        b.input("x", {1, 3, 8, 8});
        b.initializer("w3", {4, 3, 3}); // weights of another rank than the input
        b.node("Conv", {"x", "w3"}, {"conv"});
        b.input("signal", {1, 64}); // STFT reads three dims
        b.int64_initializer("step", {16});
        b.graph().mutable_initializer(2)->clear_dims(); // a scalar frame step
        b.node("STFT", {"signal", "step"}, {"stft"});
        b.output("gemm");
        b.output("conv");
        b.output("stft");
        QVERIFY(infer(b).empty());
        QVERIFY(!shape_of(b.model, "gemm"));
        QVERIFY(!shape_of(b.model, "conv"));
        QVERIFY(!shape_of(b.model, "stft"));
    }

    void aZeroScalarSplitIsNotInferred() {
        // libonnx takes the axis length modulo a scalar split without checking it.
        const auto build = [](std::int64_t split) {
            OnnxBuilder b;
            b.input("x", {1, 6});
            *b.graph().add_initializer() = int64_tensor({}, {split});
            b.graph().mutable_initializer(0)->set_name("split");
            OnnxBuilder::set_int(b.node("SplitToSequence", {"x", "split"}, {"seq"}), "axis", 1);
            return b;
        };
        const auto is_sequence = [](const onnx::ModelProto& model) {
            for (const auto& v : model.graph().value_info())
                if (v.name() == "seq")
                    return v.type().has_sequence_type();
            return false;
        };
        auto zero = build(0);
        QVERIFY(infer(zero).empty());
        QVERIFY(!is_sequence(zero.model));
        auto two = build(2);
        QVERIFY(infer(two).empty());
        QVERIFY(is_sequence(two.model));
    }

    void aShapeConflictingWithTheDeclaredOneIsWarnedOf() {
        OnnxBuilder b;
        b.input("x", {1, 4});
        b.node("Relu", {"x"}, {"r"}, "relu");
        auto* declared = b.graph().add_value_info();
        declared->set_name("r");
        auto* type = declared->mutable_type()->mutable_tensor_type();
        type->set_elem_type(onnx::TensorProto::FLOAT);
        type->mutable_shape()->add_dim()->set_dim_value(1);
        type->mutable_shape()->add_dim()->set_dim_value(5);
        const auto warnings = infer(b);
        QCOMPARE(warnings.size(), std::size_t{1});
        QVERIFY2(warnings[0].starts_with("node 'relu' (Relu): inferred type of 'r' conflicts with "
                                         "the declared one: "),
                 warnings[0].c_str());
        QVERIFY(warnings[0].find('\n') == std::string::npos); // the first line of libonnx's
    }
};

QTEST_GUILESS_MAIN(NodeInferenceTest)
#include "node_inference_test.moc"
