// The default-domain opsets 18 to 21 (core/graph/newer_op_schemas.hpp): every op version the ONNX
// Changelog lists for them resolves to a schema, models at those opsets import with the shapes
// ONNX Runtime 1.30 gives, and opset 22 is still refused.
#include "core/graph/newer_op_schemas.hpp"
#include "core/input_error.hpp"
#include "newer_opset_models.hpp"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using cleave::graph::DataType;
using cleave::graph::Model;
using cleave::graph::Shape;
using cleave::test::OnnxBuilder;
using namespace cleave::test;

namespace {

std::string load_error(const OnnxBuilder& b) {
    try {
        load_built(b);
    } catch (const cleave::InputError& e) {
        return e.what();
    }
    return "no error";
}

// A convolution, Flatten and MatMul: ops libonnx 1.12 knows, at `opset`.
OnnxBuilder conv_matmul_model(std::int64_t opset) {
    OnnxBuilder b = newer_opset_builder(opset);
    b.input("x", {1, 3, 8, 8});
    b.initializer("w", {4, 3, 3, 3});
    b.initializer("fc", {144, 10});
    b.node("Conv", {"x", "w"}, {"c"});
    b.node("Relu", {"c"}, {"r"});
    b.node("Flatten", {"r"}, {"f"});
    b.node("MatMul", {"f", "fc"}, {"y"});
    b.output("y");
    return b;
}

// Opset 21 ops whose signature changed after 17, side by side on one input x [1, 4, 8, 8]; every
// result is a graph output, for ONNX Runtime to report its shape.
OnnxBuilder changed_ops_model() {
    OnnxBuilder b = newer_opset_builder(21);
    b.input("x", {1, 4, 8, 8});
    const auto out = [&b](const char* op, std::vector<std::string> in, const std::string& y,
                          int type = onnx::TensorProto::FLOAT) -> onnx::NodeProto& {
        b.output(y, type);
        return b.node(op, std::move(in), {y}, y);
    };
    b.int64_initializer("reduce_axes", {2, 3});
    out("ReduceMean", {"x", "reduce_axes"}, "reduce_mean");
    b.output("split_0");
    b.output("split_1");
    b.output("split_2");
    auto& split = b.node("Split", {"x"}, {"split_0", "split_1", "split_2"}, "split");
    OnnxBuilder::set_int(split, "axis", 2);
    OnnxBuilder::set_int(split, "num_outputs", 3);
    b.int64_initializer("pads", {1, 2, 0, 3});
    b.int64_initializer("pad_axes", {2, 3});
    out("Pad", {"x", "pads", "", "pad_axes"}, "pad_constant");
    b.int64_initializer("wrap_pads", {1, 1, 1, 1});
    b.int64_initializer("wrap_axes", {-2, -1});
    set_string(out("Pad", {"x", "wrap_pads", "", "wrap_axes"}, "pad_wrap"), "mode", "wrap");
    b.int64_initializer("sizes", {5, 6});
    auto& keep = out("Resize", {"x", "", "", "sizes"}, "resize_not_larger");
    OnnxBuilder::set_ints(keep, "axes", {2, 3});
    set_string(keep, "keep_aspect_ratio_policy", "not_larger");
    float_initializer(b, "scales", {2}, {2.0F, 0.5F});
    auto& scaled = out("Resize", {"x", "", "scales"}, "resize_scales");
    OnnxBuilder::set_ints(scaled, "axes", {2, 3});
    set_string(scaled, "mode", "linear");
    set_string(scaled, "coordinate_transformation_mode", "half_pixel_symmetric");
    float_initializer(b, "gn_scale", {4}, {1, 1, 1, 1});
    float_initializer(b, "gn_bias", {4}, {0, 0, 0, 0});
    OnnxBuilder::set_int(out("GroupNormalization", {"x", "gn_scale", "gn_bias"}, "group_norm"),
                         "num_groups", 2);
    auto& average = out("AveragePool", {"x"}, "average_pool");
    OnnxBuilder::set_ints(average, "kernel_shape", {3, 3});
    OnnxBuilder::set_ints(average, "dilations", {2, 2});
    // ceil((8 + 2 - 3) / 3) + 1 = 4 windows; the fourth would start at 9, in the end padding
    auto& ceil_pool = out("AveragePool", {"x"}, "average_pool_ceil");
    OnnxBuilder::set_ints(ceil_pool, "kernel_shape", {3, 3});
    OnnxBuilder::set_ints(ceil_pool, "strides", {3, 3});
    OnnxBuilder::set_ints(ceil_pool, "pads", {0, 0, 2, 2});
    OnnxBuilder::set_int(ceil_pool, "ceil_mode", 1);
    float_initializer(b, "deform_w", {8, 2, 3, 3}, std::vector<float>(144, 0.1F));
    float_initializer(b, "deform_offset", {1, 18, 6, 6}, std::vector<float>(648, 0.0F));
    OnnxBuilder::set_int(out("DeformConv", {"x", "deform_w", "deform_offset"}, "deform_conv"),
                         "group", 2);
    auto& lp = out("LpPool", {"x"}, "lp_pool");
    OnnxBuilder::set_ints(lp, "kernel_shape", {3, 3});
    OnnxBuilder::set_ints(lp, "strides", {2, 2});
    OnnxBuilder::set_int(lp, "ceil_mode", 1);
    b.int64_initializer("blocks_shape", {1, 16, 16});
    b.node("Reshape", {"x", "blocks_shape"}, {"blocks"});
    b.int64_initializer("image_shape", {5, 5});
    b.int64_initializer("block_shape", {2, 2});
    out("Col2Im", {"blocks", "image_shape", "block_shape"}, "col2im");
    b.int64_initializer("crop_shape", {6, 10});
    OnnxBuilder::set_ints(out("CenterCropPad", {"x", "crop_shape"}, "center_crop_pad"), "axes",
                          {2, 3});
    b.int64_initializer("signal_shape", {16, 8, 2});
    b.node("Reshape", {"x", "signal_shape"}, {"signal"});
    int64_scalar(b, "dft_length", 10);
    int64_scalar(b, "dft_axis", 1);
    out("DFT", {"signal", "dft_length", "dft_axis"}, "dft");
    set_string(out("Gelu", {"x"}, "gelu"), "approximate", "tanh");
    float_initializer(b, "theta", {1, 2, 3}, {1, 0, 0, 0, 1, 0});
    b.int64_initializer("grid_size", {1, 4, 6, 7});
    out("AffineGrid", {"theta", "grid_size"}, "affine_grid");
    out("GridSample", {"x", "affine_grid"}, "grid_sample");
    int4_initializer(b, "w_int4", {4, 8}, kUint4);
    float_initializer(b, "w_scale", {4, 2}, std::vector<float>(8, 0.5F));
    OnnxBuilder::set_int(out("DequantizeLinear", {"w_int4", "w_scale"}, "dequantized"),
                         "block_size", 4);
    float_initializer(b, "q_scale", {}, {0.1F});
    b.initializer("q_zero", {}, onnx::TensorProto::UINT8, 1);
    out("QuantizeLinear", {"x", "q_scale", "q_zero"}, "quantized", onnx::TensorProto::UINT8);
    auto& cast = out("Cast", {"x"}, "cast", onnx::TensorProto::FLOAT16);
    OnnxBuilder::set_int(cast, "to", onnx::TensorProto::FLOAT16);
    OnnxBuilder::set_int(cast, "saturate", 1);
    out("Mish", {"x"}, "mish");
    return b;
}

// The dims ONNX Runtime gives every output of the model at `path`, by name; or an error text.
QJsonObject onnxruntime_output_dims(const QString& path, const QStringList& inputs) {
    QProcess node;
    node.start(CLEAVE_NODE_EXECUTABLE,
               QStringList{CLEAVE_ORT_SHAPES_SCRIPT, CLEAVE_ORT_NODE_DIR, path} + inputs);
    node.waitForFinished(120000);
    return QJsonDocument::fromJson(node.readAllStandardOutput()).object();
}

} // namespace

class NewerOpSchemasTest : public QObject {
    Q_OBJECT

private slots:
    // Every default-domain op version the ONNX Changelog introduces in opsets 18 to 21 resolves:
    // to Cleave's schema of that version where its signature changed, to libonnx's newest
    // where only its types did (the version given here).
    void everyOpVersionOfOpsets18To21Resolves_data() {
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("version");
        QTest::addColumn<int>("resolved");
        const struct {
            const char* op;
            int version;
            int resolved;
        } rows[] = {
            {"BitwiseAnd", 18, 18},
            {"BitwiseNot", 18, 18},
            {"BitwiseOr", 18, 18},
            {"BitwiseXor", 18, 18},
            {"CenterCropPad", 18, 18},
            {"Col2Im", 18, 18},
            {"GroupNormalization", 18, 18},
            {"LpPool", 18, 18},
            {"Mish", 18, 18},
            {"OptionalGetElement", 18, 18},
            {"OptionalHasElement", 18, 18},
            {"Pad", 18, 18},
            {"ReduceL1", 18, 18},
            {"ReduceL2", 18, 18},
            {"ReduceLogSum", 18, 18},
            {"ReduceLogSumExp", 18, 18},
            {"ReduceMax", 18, 18},
            {"ReduceMean", 18, 18},
            {"ReduceMin", 18, 18},
            {"ReduceProd", 18, 18},
            {"ReduceSumSquare", 18, 18},
            {"Resize", 18, 18},
            {"ScatterElements", 18, 16},
            {"ScatterND", 18, 16},
            {"Split", 18, 18},
            {"AveragePool", 19, 19},
            {"Cast", 19, 19},
            {"CastLike", 19, 19},
            {"Constant", 19, 13},
            {"DeformConv", 19, 19},
            {"DequantizeLinear", 19, 19},
            {"Equal", 19, 13},
            {"Identity", 19, 16},
            {"If", 19, 16},
            {"Loop", 19, 16},
            {"Pad", 19, 19},
            {"QuantizeLinear", 19, 19},
            {"Reshape", 19, 14},
            {"Resize", 19, 19},
            {"Scan", 19, 16},
            {"Shape", 19, 15},
            {"Size", 19, 13},
            {"AffineGrid", 20, 20},
            {"ConstantOfShape", 20, 9},
            {"DFT", 20, 20},
            {"Gelu", 20, 20},
            {"GridSample", 20, 20},
            {"ImageDecoder", 20, 20},
            {"IsInf", 20, 10},
            {"IsNaN", 20, 13},
            {"ReduceMax", 20, 18},
            {"ReduceMin", 20, 18},
            {"RegexFullMatch", 20, 20},
            {"StringConcat", 20, 20},
            {"StringSplit", 20, 20},
            {"Cast", 21, 21},
            {"CastLike", 21, 21},
            {"Constant", 21, 13},
            {"ConstantOfShape", 21, 9},
            {"DequantizeLinear", 21, 21},
            {"Flatten", 21, 13},
            {"GroupNormalization", 21, 21},
            {"Identity", 21, 16},
            {"If", 21, 16},
            {"Loop", 21, 16},
            {"Pad", 21, 21},
            {"QLinearMatMul", 21, 10},
            {"QuantizeLinear", 21, 21},
            {"Reshape", 21, 14},
            {"Scan", 21, 16},
            {"Shape", 21, 15},
            {"Size", 21, 13},
            {"Squeeze", 21, 13},
            {"Transpose", 21, 13},
            {"Unsqueeze", 21, 13},
        };
        for (const auto& r : rows)
            QTest::addRow("%s-%d", r.op, r.version) << r.op << r.version << r.resolved;
    }

    void everyOpVersionOfOpsets18To21Resolves() {
        QFETCH(QString, op);
        QFETCH(int, version);
        QFETCH(int, resolved);
        const auto* schema = cleave::graph::op_schema(op.toStdString(), version, "");
        QVERIFY(schema);
        QCOMPARE(schema->Name(), op.toStdString());
        QCOMPARE(schema->SinceVersion(), resolved);
        QCOMPARE(cleave::graph::op_schema(op.toStdString(), version, "ai.onnx"), schema);
    }

    void opsetsUpTo17KeepLibonnxSchemas() {
        QCOMPARE(cleave::graph::op_schema("ReduceMax", 17, ""),
                 onnx::OpSchemaRegistry::Schema("ReduceMax", 17, ""));
        QCOMPARE(cleave::graph::op_schema("Pad", 17, "")->SinceVersion(), 13);
        QVERIFY(!cleave::graph::op_schema("Col2Im", 17, ""));
    }

    void opset22IsRefusedNamingTheRange() {
        OnnxBuilder b = conv_matmul_model(22);
        QCOMPARE(load_error(b), std::string("model.onnx: opset_import 'ai.onnx': version 22 is not "
                                            "one this build reads (1 to 21)"));
    }

    // Conv, Relu, Flatten and MatMul at 21 import as at 17: [1, 4, 6, 6] after the 3x3 Conv,
    // 144 x 27 + 144 x 10 MACs.
    void opsLibonnxKnowsImportUnchangedAtOpset21() {
        const Model at17 = load_built(conv_matmul_model(17));
        const Model at21 = load_built(conv_matmul_model(21));
        QCOMPARE(at21.opset, std::int64_t(21));
        for (const char* name : {"c", "r", "f", "y"})
            QCOMPARE(shape_of(at21, name), shape_of(at17, name));
        QCOMPARE(shape_of(at21, "c"), std::optional(Shape{1, 4, 6, 6}));
        QCOMPARE(shape_of(at21, "y"), std::optional(Shape{1, 10}));
        QCOMPARE(at21.macs, std::int64_t(144 * 27 + 144 * 10));
        QCOMPARE(at21.macs, at17.macs);
        QVERIFY(at21.warnings.empty());
    }

    // Opset 18 moved axes to an input: x [2, 3, 4] over axis 1 keeps [2, 1, 4], over axis -1
    // without keepdims [2, 3]; one FLOP per input element, as with opset 17's axes attribute.
    void reductions18TakeAxesAsAnInput_data() {
        QTest::addColumn<QString>("op");
        for (const char* op :
             {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
              "ReduceMin", "ReduceProd", "ReduceSumSquare"})
            QTest::newRow(op) << op;
    }

    void reductions18TakeAxesAsAnInput() {
        QFETCH(QString, op);
        OnnxBuilder b = newer_opset_builder(18);
        b.input("x", {2, 3, 4});
        b.int64_initializer("middle", {1});
        b.int64_initializer("last", {-1});
        b.node(op.toStdString(), {"x", "middle"}, {"kept"}, "kept");
        OnnxBuilder::set_int(b.node(op.toStdString(), {"x", "last"}, {"dropped"}), "keepdims", 0);
        b.node(op.toStdString(), {"x"}, {"all"});
        b.output("dropped");
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "kept"), std::optional(Shape{2, 1, 4}));
        QCOMPARE(shape_of(m, "dropped"), std::optional(Shape{2, 3}));
        QCOMPARE(shape_of(m, "all"), std::optional(Shape{1, 1, 1}));

        OnnxBuilder old = newer_opset_builder(17);
        old.input("x", {2, 3, 4});
        OnnxBuilder::set_ints(old.node(op.toStdString(), {"x"}, {"kept"}, "kept"), "axes", {1});
        old.output("kept");
        const Model at17 = load_built(old);
        const auto& node18 = m.nodes[static_cast<std::size_t>(m.find_node("kept"))];
        const auto& node17 = at17.nodes[static_cast<std::size_t>(at17.find_node("kept"))];
        QCOMPARE(node18.cost.flops, std::int64_t(24));
        QCOMPARE(node18.cost.flops, node17.cost.flops);
        QCOMPARE(node18.cost.bytes_out, node17.cost.bytes_out);
        QCOMPARE(shape_of(at17, "kept"), shape_of(m, "kept"));
    }

    void reduceMaxAndMin20TakeBool() {
        OnnxBuilder b = newer_opset_builder(20);
        b.input("x", {2, 3}, onnx::TensorProto::BOOL);
        b.int64_initializer("axes", {0});
        b.node("ReduceMax", {"x", "axes"}, {"any"});
        b.node("ReduceMin", {"x", "axes"}, {"all"});
        b.output("all", onnx::TensorProto::BOOL);
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "any"), std::optional(Shape{1, 3}));
        QCOMPARE(dtype_of(m, "all"), DataType::Bool);
    }

    // An If at 21 infers its branches with the same schemas: ReduceMax-18 reads its axes input.
    void subgraphsAtOpset21UseTheNewerSchemas() {
        OnnxBuilder b = newer_opset_builder(21);
        b.input("x", {2, 3, 4});
        b.input("flag", {}, onnx::TensorProto::BOOL);
        auto& branch_if = b.node("If", {"flag"}, {"y"}, "if");
        for (const char* name : {"then_branch", "else_branch"}) {
            auto* a = branch_if.add_attribute();
            a->set_name(name);
            a->set_type(onnx::AttributeProto::GRAPH);
            auto& g = *a->mutable_g();
            g.set_name(name);
            auto& axes = *g.add_node(); // the branch's own constant: its data is known there
            axes.set_op_type("Constant");
            axes.add_output(std::string(name) + "_axes");
            auto* value = axes.add_attribute();
            value->set_name("value");
            value->set_type(onnx::AttributeProto::TENSOR);
            value->mutable_t()->set_data_type(onnx::TensorProto::INT64);
            value->mutable_t()->add_dims(1);
            value->mutable_t()->add_int64_data(1);
            auto& reduce = *g.add_node();
            reduce.set_op_type("ReduceMax");
            reduce.add_input("x");
            reduce.add_input(std::string(name) + "_axes");
            reduce.add_output(std::string(name) + "_out");
            auto& out = *g.add_output();
            out.set_name(std::string(name) + "_out");
            out.mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
        }
        b.output("y");
        QCOMPARE(shape_of(load_built(b), "y"), std::optional(Shape{2, 1, 4}));
    }

    // A Cast with opset 19's saturate, to float16; at 21 to int4, a type libonnx 1.12 lacks.
    void castTakesSaturateAndNewerTypes() {
        OnnxBuilder b = newer_opset_builder(21);
        b.input("x", {2, 3});
        auto& half = b.node("Cast", {"x"}, {"h"});
        OnnxBuilder::set_int(half, "to", onnx::TensorProto::FLOAT16);
        OnnxBuilder::set_int(half, "saturate", 0);
        OnnxBuilder::set_int(b.node("Cast", {"x"}, {"q"}), "to", 22);
        b.node("CastLike", {"x", "h"}, {"l"});
        b.output("l", onnx::TensorProto::FLOAT16);
        const Model m = load_built(b);
        QCOMPARE(dtype_of(m, "h"), DataType::Float16);
        QCOMPARE(dtype_of(m, "q"), DataType::Int4);
        QCOMPARE(dtype_of(m, "l"), DataType::Float16);
        QCOMPARE(shape_of(m, "q"), std::optional(Shape{2, 3}));
        QCOMPARE(shape_of(m, "l"), std::optional(Shape{2, 3}));
    }

    // Ops whose opset 19 and 21 versions only add types import with libonnx's rules.
    void typeOnlyChangesImportWithLibonnxRules() {
        OnnxBuilder b = newer_opset_builder(21);
        b.input("x", {2, 3, 4});
        b.int64_initializer("shape", {6, 4});
        b.int64_initializer("axes", {0});
        b.node("Reshape", {"x", "shape"}, {"reshaped"});
        b.node("Identity", {"reshaped"}, {"same"});
        OnnxBuilder::set_ints(b.node("Transpose", {"same"}, {"transposed"}), "perm", {1, 0});
        b.node("Unsqueeze", {"transposed", "axes"}, {"unsqueezed"});
        b.node("Squeeze", {"unsqueezed", "axes"}, {"squeezed"});
        OnnxBuilder::set_int(b.node("Flatten", {"x"}, {"flat"}), "axis", 2);
        b.node("Shape", {"x"}, {"dims"});
        b.node("Size", {"x"}, {"count"});
        b.output("squeezed");
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "transposed"), std::optional(Shape{4, 6}));
        QCOMPARE(shape_of(m, "unsqueezed"), std::optional(Shape{1, 4, 6}));
        QCOMPARE(shape_of(m, "squeezed"), std::optional(Shape{4, 6}));
        QCOMPARE(shape_of(m, "flat"), std::optional(Shape{6, 4}));
        QCOMPARE(shape_of(m, "dims"), std::optional(Shape{3}));
        QCOMPARE(shape_of(m, "count"), std::optional(Shape{}));
        QVERIFY(m.warnings.empty());
    }

    // Constants of float8 (19) and int4 (21) values, IsNaN and IsInf (20), Equal of strings (19),
    // ScatterElements' min (18), QLinearMatMul (21): libonnx's rules of their older versions.
    void newerTypesImportWithLibonnxRules() {
        OnnxBuilder b = newer_opset_builder(21);
        b.input("x", {2, 3});
        b.input("s", {4}, onnx::TensorProto::STRING);
        auto& constant = b.node("Constant", {}, {"f8"});
        auto* value = constant.add_attribute();
        value->set_name("value");
        value->set_type(onnx::AttributeProto::TENSOR);
        value->mutable_t()->set_data_type(17);
        value->mutable_t()->add_dims(5);
        value->mutable_t()->set_raw_data(std::string(5, '\0'));
        b.int64_initializer("fill_shape", {3, 7});
        auto& fill = b.node("ConstantOfShape", {"fill_shape"}, {"nibbles"});
        auto* fill_value = fill.add_attribute();
        fill_value->set_name("value");
        fill_value->set_type(onnx::AttributeProto::TENSOR);
        fill_value->mutable_t()->set_data_type(kInt4);
        fill_value->mutable_t()->add_dims(1);
        fill_value->mutable_t()->set_raw_data(std::string(1, '\x01'));
        b.node("IsNaN", {"x"}, {"nan"});
        b.node("IsInf", {"x"}, {"inf"});
        b.node("Equal", {"s", "s"}, {"same"});
        b.initializer("rows", {1, 3}, onnx::TensorProto::INT64, 8);
        b.initializer("updates", {1, 3});
        set_string(b.node("ScatterElements", {"x", "rows", "updates"}, {"scattered"}), "reduction",
                   "min");
        b.input("qa", {2, 4}, onnx::TensorProto::UINT8);
        b.initializer("qb", {4, 5}, onnx::TensorProto::UINT8, 1);
        b.initializer("scale", {}, onnx::TensorProto::FLOAT, 4);
        b.initializer("zero", {}, onnx::TensorProto::UINT8, 1);
        b.node("QLinearMatMul", {"qa", "scale", "zero", "qb", "scale", "zero", "scale", "zero"},
               {"qy"});
        b.output("qy", onnx::TensorProto::UINT8);
        const Model m = load_built(b);
        QCOMPARE(shape_of(m, "f8"), std::optional(Shape{5}));
        QCOMPARE(dtype_of(m, "f8"), DataType::Float8E4M3FN);
        QCOMPARE(shape_of(m, "nibbles"), std::optional(Shape{3, 7}));
        QCOMPARE(dtype_of(m, "nibbles"), DataType::Int4);
        QCOMPARE(dtype_of(m, "nan"), DataType::Bool);
        QCOMPARE(shape_of(m, "inf"), std::optional(Shape{2, 3}));
        QCOMPARE(shape_of(m, "same"), std::optional(Shape{4}));
        QCOMPARE(shape_of(m, "scattered"), std::optional(Shape{2, 3}));
        QCOMPARE(shape_of(m, "qy"), std::optional(Shape{2, 5}));
    }

    // The opset 18 to 21 ops side by side: Cleave's shapes, by hand, are ONNX Runtime 1.30's.
    void shapesAgreeWithOnnxRuntime() {
        if (QString(CLEAVE_NODE_EXECUTABLE).isEmpty() ||
            !QFileInfo::exists(CLEAVE_ORT_NODE_DIR "/node_modules/onnxruntime-node/package.json"))
            QSKIP("Node.js or onnxruntime-node is not installed");
        QTemporaryDir dir;
        const QString path = dir.filePath("changed_ops.onnx");
        const OnnxBuilder b = changed_ops_model();
        b.save(path.toStdString());
        const QJsonObject ort = onnxruntime_output_dims(path, {"x=1x4x8x8"});
        QVERIFY2(!ort.isEmpty() && !ort.contains("error"),
                 qPrintable(QJsonDocument(ort).toJson(QJsonDocument::Compact)));
        const Model m = load_built(b);
        QCOMPARE(static_cast<std::size_t>(ort.size()), m.outputs.size());
        for (const int t : m.outputs) {
            const auto& tensor = m.tensors[static_cast<std::size_t>(t)];
            Shape dims;
            for (const auto d : ort[QString::fromStdString(tensor.name)].toArray())
                dims.push_back(d.toInteger());
            QVERIFY2(tensor.shape == dims, tensor.name.c_str());
        }
        // and by hand, a few
        QCOMPARE(shape_of(m, "split_2"), std::optional(Shape{1, 4, 2, 8}));
        QCOMPARE(shape_of(m, "pad_constant"), std::optional(Shape{1, 4, 9, 13}));
        QCOMPARE(shape_of(m, "resize_not_larger"), std::optional(Shape{1, 4, 5, 5}));
        QCOMPARE(shape_of(m, "lp_pool"), std::optional(Shape{1, 4, 4, 4}));
        QCOMPARE(shape_of(m, "average_pool_ceil"), std::optional(Shape{1, 4, 3, 3}));
        QCOMPARE(shape_of(m, "deform_conv"), std::optional(Shape{1, 8, 6, 6}));
        QCOMPARE(shape_of(m, "grid_sample"), std::optional(Shape{1, 4, 6, 7}));
    }
};

QTEST_GUILESS_MAIN(NewerOpSchemasTest)
#include "newer_op_schemas_test.moc"
