// The genai form, checked on the protobuf (Cleave gives com.microsoft ops no shapes yet): ONNX
// Runtime GenAI's model builder's nodes and names, MatMulNBits' attributes and packed weights
// for int4, and genai_config.json.
#include "core/modelgen/llm_genai_form.hpp"

#include <QtTest>
#include <map>

using namespace cleave;

namespace {

modelgen::LlmConfig tiny() {
    return {.name = "tiny",
            .hf_id = "none/tiny",
            .model_type = "qwen2",
            .hidden = 64,
            .layers = 3,
            .heads = 4,
            .kv_heads = 2,
            .head_dim = 16,
            .intermediate = 96,
            .vocab = 100,
            .context = 256,
            .rope_theta = 10000,
            .tied_embeddings = true,
            .norm_eps = 1e-6,
            .qkv_bias = true};
}

std::map<std::string, int> op_counts(const onnx::ModelProto& m) {
    std::map<std::string, int> ops;
    for (const auto& n : m.graph().node())
        ++ops[(n.domain().empty() ? "" : n.domain() + ":") + n.op_type()];
    return ops;
}

const onnx::NodeProto& node(const onnx::ModelProto& m, const std::string& name) {
    for (const auto& n : m.graph().node())
        if (n.name() == name)
            return n;
    throw std::runtime_error("no node " + name);
}

const onnx::TensorProto& initializer(const onnx::ModelProto& m, const std::string& name) {
    for (const auto& t : m.graph().initializer())
        if (t.name() == name)
            return t;
    throw std::runtime_error("no initializer " + name);
}

std::int64_t int_attribute(const onnx::NodeProto& n, const std::string& name) {
    for (const auto& a : n.attribute())
        if (a.name() == name)
            return a.i();
    throw std::runtime_error("no attribute " + name);
}

std::vector<std::int64_t> dims(const onnx::TensorProto& t) {
    return {t.dims().begin(), t.dims().end()};
}

} // namespace

class LlmGenaiFormTest : public QObject {
    Q_OBJECT

private slots:
    void int4DecoderIsMatMulNBitsAndGroupQueryAttention() {
        modelgen::LlmGraph g("tiny", onnx::TensorProto::FLOAT16, true);
        modelgen::build_llm_genai_form(tiny(), true, g);
        const auto& m = g.model();
        const auto ops = op_counts(m);
        QCOMPARE(ops.at("com.microsoft:MatMulNBits"), 3 * 7 + 1); // q k v o gate up down; head
        QCOMPARE(ops.count("MatMul"), std::size_t{0});
        QCOMPARE(ops.at("com.microsoft:GroupQueryAttention"), 3);
        QCOMPARE(ops.at("SimplifiedLayerNormalization"), 1); // the first layer's input norm
        QCOMPARE(ops.at("com.microsoft:SkipSimplifiedLayerNormalization"), 3 * 2 - 1 + 1);
        QCOMPARE(ops.at("Add"), 3 * 3); // q, k and v biases
        QCOMPARE(ops.at("Sigmoid"), 3);
        QCOMPARE(ops.at("ReduceSum"), 1);
        QCOMPARE(m.graph().input_size(), 2 + 3 * 2); // no position_ids
        QCOMPARE(m.graph().input(1).name(), std::string("attention_mask"));
        QCOMPARE(m.graph().input(1).type().tensor_type().shape().dim(1).dim_param(),
                 std::string("total_sequence_length"));

        const auto& q = node(m, "/model/layers.1/attn/q_proj/MatMulNBits");
        QCOMPARE(q.domain(), std::string("com.microsoft"));
        QCOMPARE(int_attribute(q, "K"), 64);
        QCOMPARE(int_attribute(q, "N"), 64);
        QCOMPARE(int_attribute(q, "bits"), 4);
        QCOMPARE(int_attribute(q, "block_size"), 32);
        const auto& b = initializer(m, q.input(1));
        QCOMPARE(b.data_type(), static_cast<int>(onnx::TensorProto::UINT8));
        QCOMPARE(dims(b), (std::vector<std::int64_t>{64, 2, 16})); // [N, K / 32, 16]
        QCOMPARE(dims(initializer(m, q.input(2))), (std::vector<std::int64_t>{128}));
        const auto& down = node(m, "/model/layers.2/mlp/down_proj/MatMulNBits");
        QCOMPARE(int_attribute(down, "K"), 96);
        QCOMPARE(dims(initializer(m, down.input(1))), (std::vector<std::int64_t>{64, 3, 16}));
        const auto& head = node(m, "/lm_head/MatMulNBits");
        QCOMPARE(head.output(0), std::string("logits"));
        QCOMPARE(int_attribute(head, "N"), 100);

        const auto& gqa = node(m, "/model/layers.2/attn/GroupQueryAttention");
        QCOMPARE(gqa.input_size(), 9);
        QCOMPARE(gqa.input(3), std::string("past_key_values.2.key"));
        QCOMPARE(gqa.input(5), std::string("/model/attn_mask_reformat/attn_mask_subgraph/Sub/"
                                           "Cast/output_0"));
        QCOMPARE(gqa.output(1), std::string("present.2.key"));
        QCOMPARE(gqa.output(2), std::string("present.2.value"));
        QCOMPARE(int_attribute(gqa, "num_heads"), 4);
        QCOMPARE(int_attribute(gqa, "kv_num_heads"), 2);
        QCOMPARE(int_attribute(gqa, "do_rotary"), 1);
        QCOMPARE(dims(initializer(m, gqa.input(7))), (std::vector<std::int64_t>{256, 8}));
        const auto& skip = node(m, "/model/layers.1/input_layernorm/SkipLayerNorm");
        QCOMPARE(skip.output_size(), 4);
        QCOMPARE(skip.output(3), std::string("/model/layers.1/input_layernorm/SkipLayerNorm/"
                                             "output_3"));
        QCOMPARE(node(m, "/model/layers.3/final_norm_layernorm/SkipLayerNorm").output_size(), 1);
    }

    void fp32DecoderUsesPlainMatMul() {
        modelgen::LlmGraph g("tiny", onnx::TensorProto::FLOAT, true);
        modelgen::build_llm_genai_form(tiny(), false, g);
        const auto ops = op_counts(g.model());
        QCOMPARE(ops.at("MatMul"), 3 * 7 + 1);
        QCOMPARE(ops.count("com.microsoft:MatMulNBits"), std::size_t{0});
        QCOMPARE(dims(initializer(g.model(), "model.layers.0.mlp.up_proj.MatMul.weight")),
                 (std::vector<std::int64_t>{64, 96}));
    }

    void configNamesTheDecoderAsGenaiDoes() {
        const auto c = modelgen::genai_config(tiny(), "tiny.onnx");
        QCOMPARE(c["model"]["context_length"].get<int>(), 256);
        QCOMPARE(c["model"]["vocab_size"].get<int>(), 100);
        QCOMPARE(c["model"]["type"].get<std::string>(), std::string("qwen2"));
        const auto& d = c["model"]["decoder"];
        QCOMPARE(d["filename"].get<std::string>(), std::string("tiny.onnx"));
        QCOMPARE(d["head_size"].get<int>(), 16);
        QCOMPARE(d["hidden_size"].get<int>(), 64);
        QCOMPARE(d["num_attention_heads"].get<int>(), 4);
        QCOMPARE(d["num_key_value_heads"].get<int>(), 2);
        QCOMPARE(d["num_hidden_layers"].get<int>(), 3);
        QCOMPARE(d["inputs"]["past_key_names"].get<std::string>(),
                 std::string("past_key_values.%d.key"));
        QCOMPARE(d["outputs"]["present_value_names"].get<std::string>(),
                 std::string("present.%d.value"));
    }
};

QTEST_GUILESS_MAIN(LlmGenaiFormTest)
#include "llm_genai_form_test.moc"
