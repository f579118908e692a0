// The shapes of ONNX Runtime's contrib ops as the importer infers them
// (core/graph/contrib_ops.cpp), op by op on models built here, and checked against ONNX
// Runtime 1.30 itself on a model that holds MatMulNBits, RotaryEmbedding, GroupQueryAttention and
// SkipSimplifiedLayerNormalization.
#include "core/graph/onnx_import.hpp"
#include "genai_decoder.hpp"
#include "onnx_builder.hpp"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using cleave::graph::load_model_from_bytes;
using cleave::graph::Model;
using cleave::graph::Shape;
using cleave::test::GenAiDecoder;
using cleave::test::OnnxBuilder;

namespace {

Model load(const OnnxBuilder& b) {
    return load_model_from_bytes(b.bytes(), "contrib.onnx");
}

std::optional<Shape> shape(const Model& model, const std::string& tensor) {
    const int t = model.find_tensor(tensor);
    return t < 0 ? std::nullopt : model.tensors[static_cast<std::size_t>(t)].shape;
}

onnx::TensorProto& int32_scalar(OnnxBuilder& b, const std::string& name, std::int32_t value) {
    auto& t = b.initializer(name, {}, onnx::TensorProto::INT32, 4);
    t.set_raw_data(std::string(reinterpret_cast<const char*>(&value), 4));
    return t;
}

// Decode step, batch 2, hidden 32 (4 query heads, 2 key/value heads of 8), 5 cached tokens: a
// skip norm, q/k/v MatMulNBits, rotary on q and k, GroupQueryAttention with total 6.
OnnxBuilder decode_block() {
    OnnxBuilder b = GenAiDecoder::microsoft_builder();
    b.input("x", {2, 1, 32});
    b.input("residual", {2, 1, 32});
    b.input("position_ids", {2, 1}, onnx::TensorProto::INT64);
    b.input("past_key", {2, 2, 5, 8});
    b.input("past_value", {2, 2, 5, 8});
    b.initializer("gamma", {32});
    b.initializer("cos_cache", {16, 4});
    b.initializer("sin_cache", {16, 4});
    auto& seqlens = b.initializer("seqlens_k", {2}, onnx::TensorProto::INT32, 4);
    const std::int32_t five[2] = {5, 5};
    seqlens.set_raw_data(std::string(reinterpret_cast<const char*>(five), 8));
    int32_scalar(b, "total", 6);
    GenAiDecoder::microsoft(b.node("SkipSimplifiedLayerNormalization", {"x", "residual", "gamma"},
                                   {"normed", "", "", "sum"}, "skip_norm"));
    GenAiDecoder::matmul(b, "q_proj", "normed", 32, 32, "q");
    GenAiDecoder::matmul(b, "k_proj", "normed", 32, 16, "k");
    GenAiDecoder::matmul(b, "v_proj", "normed", 32, 16, "v");
    for (const auto& [name, heads] : {std::pair{"q", 4}, std::pair{"k", 2}})
        OnnxBuilder::set_int(
            GenAiDecoder::microsoft(
                b.node("RotaryEmbedding", {name, "position_ids", "cos_cache", "sin_cache"},
                       {std::string(name) + "_rot"}, std::string(name) + "_rotary")),
            "num_heads", heads);
    auto& gqa = GenAiDecoder::microsoft(
        b.node("GroupQueryAttention",
               {"q_rot", "k_rot", "v", "past_key", "past_value", "seqlens_k", "total"},
               {"attention", "present_key", "present_value"}, "gqa"));
    OnnxBuilder::set_int(gqa, "num_heads", 4);
    OnnxBuilder::set_int(gqa, "kv_num_heads", 2);
    for (const char* out :
         {"normed", "sum", "q", "k_rot", "attention", "present_key", "present_value"})
        b.output(out);
    return b;
}

// Runs the model through onnxruntime-node with zero-filled inputs of the given dims; returns
// each output's dims, or an error text.
const char* kOrtScript = R"JS(
import { createRequire } from 'module';
const require = createRequire(process.argv[2] + '/package.json');
const ort = require('onnxruntime-node');
const inputs = JSON.parse(process.argv[4]);
const session = await ort.InferenceSession.create(process.argv[3]);
const feeds = {};
for (const [name, { type, dims }] of Object.entries(inputs)) {
    const size = dims.reduce((a, b) => a * b, 1);
    const data = type === 'int64' ? new BigInt64Array(size) : new Float32Array(size);
    feeds[name] = new ort.Tensor(type, data, dims);
}
const results = await session.run(feeds);
const shapes = {};
for (const [name, tensor] of Object.entries(results)) shapes[name] = tensor.dims;
console.log(JSON.stringify(shapes));
)JS";

} // namespace

class ContribOpsTest : public QObject {
    Q_OBJECT

private slots:
    void matMulNBitsGivesALastDimOfN() {
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        b.input("a", {2, 3, 32});
        GenAiDecoder::matmul(b, "w", "a", 32, 48, "y");
        b.output("y");
        QCOMPARE(shape(load(b), "y"), Shape({2, 3, 48}));
    }

    void groupQueryAttentionsPresentIsTheLongerOfPastAndTotal() {
        const Model model = load(decode_block());
        QCOMPARE(shape(model, "attention"), Shape({2, 1, 32}));
        QCOMPARE(shape(model, "present_key"), Shape({2, 2, 6, 8}));
        QCOMPARE(shape(model, "present_value"), Shape({2, 2, 6, 8}));
        QVERIFY(model.warnings.empty());
    }

    void groupQueryAttentionWithAnUnknownTotalKeepsThePastsLength() {
        // ONNX Runtime's rule: total_sequence_length known only at run time leaves the past's.
        OnnxBuilder b = decode_block();
        auto& initializers = *b.graph().mutable_initializer();
        initializers.erase(std::find_if(initializers.begin(), initializers.end(),
                                        [](const auto& t) { return t.name() == "total"; }));
        b.input("total", {}, onnx::TensorProto::INT32);
        QCOMPARE(shape(load(b), "present_key"), Shape({2, 2, 5, 8}));
    }

    void packedGroupQueryAttentionSplitsTheQueryIntoHeads() {
        // (4 + 2 x 2) heads of 8 packed in 64, no cache, total 3: output 4 x 8, present 2 heads.
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        b.input("qkv", {1, 3, 64});
        b.input("seqlens_k", {1}, onnx::TensorProto::INT32);
        int32_scalar(b, "total", 3);
        auto& gqa = GenAiDecoder::microsoft(b.node("GroupQueryAttention",
                                                   {"qkv", "", "", "", "", "seqlens_k", "total"},
                                                   {"y", "present_key", "present_value"}, "gqa"));
        OnnxBuilder::set_int(gqa, "num_heads", 4);
        OnnxBuilder::set_int(gqa, "kv_num_heads", 2);
        b.output("y");
        const Model model = load(b);
        QCOMPARE(shape(model, "y"), Shape({1, 3, 32}));
        QCOMPARE(shape(model, "present_value"), Shape({1, 2, 3, 8}));
    }

    void multiHeadAttentionAppendsToThePast() {
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        for (const char* name : {"q", "k", "v"})
            b.input(name, {2, 3, 32});
        b.input("past_key", {2, 4, 5, 8});
        b.input("past_value", {2, 4, 5, 8});
        OnnxBuilder::set_int(
            GenAiDecoder::microsoft(b.node("MultiHeadAttention",
                                           {"q", "k", "v", "", "", "", "past_key", "past_value"},
                                           {"y", "present_key", "present_value"}, "mha")),
            "num_heads", 4);
        b.output("y");
        const Model model = load(b);
        QCOMPARE(shape(model, "y"), Shape({2, 3, 32}));
        QCOMPARE(shape(model, "present_key"), Shape({2, 4, 8, 8}));
    }

    void multiHeadAttentionWithoutACacheSplitsTheKeysIntoHeads() {
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        b.input("q", {2, 3, 32});
        b.input("k", {2, 7, 32});
        b.input("v", {2, 7, 16});
        OnnxBuilder::set_int(
            GenAiDecoder::microsoft(b.node("MultiHeadAttention", {"q", "k", "v"},
                                           {"y", "present_key", "present_value"}, "mha")),
            "num_heads", 4);
        b.output("y");
        const Model model = load(b);
        QCOMPARE(shape(model, "y"), Shape({2, 3, 16}));
        QCOMPARE(shape(model, "present_key"), Shape({2, 4, 7, 8}));
        QCOMPARE(shape(model, "present_value"), Shape({2, 4, 7, 4}));
    }

    void normalisationsKeepTheShapeAndReduceTheLastDim() {
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        b.input("x", {2, 3, 32});
        b.input("skip", {2, 3, 32});
        b.initializer("gamma", {32});
        b.initializer("beta", {32});
        b.node("SimplifiedLayerNormalization", {"x", "gamma"}, {"y", "inv_std"}, "rms");
        GenAiDecoder::microsoft(b.node("SkipSimplifiedLayerNormalization", {"x", "skip", "gamma"},
                                       {"s", "s_mean", "s_inv_std", "s_sum"}, "skip_rms"));
        GenAiDecoder::microsoft(b.node("SkipLayerNormalization", {"x", "skip", "gamma", "beta"},
                                       {"l", "l_mean", "l_inv_std", "l_sum"}, "skip_ln"));
        b.output("y");
        const Model model = load(b);
        for (const char* full : {"y", "s", "s_sum", "l", "l_sum"})
            QCOMPARE(shape(model, full), Shape({2, 3, 32}));
        for (const char* statistic : {"inv_std", "s_mean", "s_inv_std", "l_inv_std"})
            QCOMPARE(shape(model, statistic), Shape({2, 3, 1}));
    }

    void elementwiseOpsKeepTheShape() {
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        b.input("x", {2, 3, 32});
        b.input("positions", {2, 3}, onnx::TensorProto::INT64);
        b.initializer("cos", {16, 4});
        b.initializer("sin", {16, 4});
        GenAiDecoder::microsoft(
            b.node("RotaryEmbedding", {"x", "positions", "cos", "sin"}, {"r"}, "rotary"));
        GenAiDecoder::microsoft(b.node("QuickGelu", {"x"}, {"q"}, "quick_gelu"));
        GenAiDecoder::microsoft(b.node("FastGelu", {"x"}, {"f"}, "fast_gelu"));
        b.output("r");
        const Model model = load(b);
        for (const char* out : {"r", "q", "f"})
            QCOMPARE(shape(model, out), Shape({2, 3, 32}));
    }

    void gatherBlockQuantizedUnpacksTheGatheredRows() {
        // A 16 x 32 table of 4-bit values packed two a byte: 16 x 16 uint8, scales 16 x 2.
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        b.input("ids", {2, 3}, onnx::TensorProto::INT64);
        b.initializer("table", {16, 16}, onnx::TensorProto::UINT8, 1);
        b.initializer("scales", {16, 2});
        auto& gather = GenAiDecoder::microsoft(
            b.node("GatherBlockQuantized", {"table", "ids", "scales"}, {"y"}, "embed"));
        OnnxBuilder::set_int(gather, "block_size", 16);
        b.output("y");
        const Model model = load(b);
        QCOMPARE(shape(model, "y"), Shape({2, 3, 32}));
        const int y = model.find_tensor("y");
        QCOMPARE(model.tensors[static_cast<std::size_t>(y)].dtype,
                 cleave::graph::DataType::Float32);
    }

    void genAiDecoderIsShapedThroughout() {
        const auto proto = GenAiDecoder::build();
        const std::string bytes = proto.SerializeAsString();
        cleave::graph::LoadOptions options;
        options.dims.decode = 1024;
        options.dims.batch = 1;
        const Model model =
            load_model_from_bytes({bytes.begin(), bytes.end()}, "genai.onnx", options);
        QCOMPARE(model.warnings, std::vector<std::string>{});
        for (const auto& t : model.tensors)
            QVERIFY2(t.shape && t.elements() >= 0, t.name.c_str());
        QCOMPARE(shape(model, "logits"), Shape({1, 1, 16}));
        QCOMPARE(shape(model, "present.1.key"), Shape({1, 2, 1025, 8}));
    }

    void shapesAreOnnxRuntimes() {
        const QString node = QStandardPaths::findExecutable("node");
        const QString ort_dir = CLEAVE_ORT_NODE_DIR;
        if (node.isEmpty() ||
            !QFile::exists(ort_dir + "/node_modules/onnxruntime-node/package.json"))
            QSKIP("no Node.js or onnxruntime-node: ONNX Runtime cannot be asked");
        QTemporaryDir dir;
        const OnnxBuilder b = decode_block();
        const QString model_file = dir.filePath("block.onnx");
        b.save(model_file.toStdString());
        const QString script = dir.filePath("shapes.mjs");
        QFile file(script);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kOrtScript);
        file.close();
        const QString inputs =
            R"({"x": {"type": "float32", "dims": [2, 1, 32]},
                "residual": {"type": "float32", "dims": [2, 1, 32]},
                "position_ids": {"type": "int64", "dims": [2, 1]},
                "past_key": {"type": "float32", "dims": [2, 2, 5, 8]},
                "past_value": {"type": "float32", "dims": [2, 2, 5, 8]}})";
        QProcess run;
        run.start(node, {script, ort_dir, model_file, inputs});
        QVERIFY(run.waitForFinished(60000));
        QVERIFY2(run.exitCode() == 0, run.readAllStandardError().constData());
        const QJsonObject ort = QJsonDocument::fromJson(run.readAllStandardOutput()).object();
        const Model model = load(b);
        QCOMPARE(ort.size(), 7);
        for (auto it = ort.begin(); it != ort.end(); ++it) {
            Shape dims;
            for (const auto d : it.value().toArray())
                dims.push_back(d.toInteger());
            QCOMPARE(shape(model, it.key().toStdString()), std::optional(dims));
        }
    }
};

QTEST_GUILESS_MAIN(ContribOpsTest)
#include "contrib_ops_test.moc"
