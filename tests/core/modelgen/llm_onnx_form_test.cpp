// The onnx form of a language-model decoder, on a small made-up config: default-domain opset-17
// ops only, in the decomposed layout exporters write, Optimum's inputs and outputs, fp16 through
// and through, and Gemma 2's extras (sliding mask, soft caps, four norms a layer).
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/llm_onnx_form.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <map>
#include <set>

using namespace cleave;

namespace {

// hidden 64, 2 layers, 4 heads of 16 sharing 2 key/value heads, MLP 96, vocabulary 100.
modelgen::LlmConfig tiny() {
    return {.name = "tiny",
            .hf_id = "none/tiny",
            .model_type = "llama",
            .hidden = 64,
            .layers = 2,
            .heads = 4,
            .kv_heads = 2,
            .head_dim = 16,
            .intermediate = 96,
            .vocab = 100,
            .context = 256,
            .rope_theta = 10000,
            .tied_embeddings = true,
            .norm_eps = 1e-5};
}

std::map<std::string, int> op_counts(const onnx::ModelProto& m) {
    std::map<std::string, int> ops;
    for (const auto& n : m.graph().node())
        ++ops[n.op_type()];
    return ops;
}

std::vector<std::string> dims(const onnx::ValueInfoProto& v) {
    std::vector<std::string> out;
    for (const auto& d : v.type().tensor_type().shape().dim())
        out.push_back(d.has_dim_value() ? std::to_string(d.dim_value()) : d.dim_param());
    return out;
}

} // namespace

class LlmOnnxFormTest : public QObject {
    Q_OBJECT

private slots:
    void decoderIsDecomposedDefaultDomainOps() {
        modelgen::LlmGraph g("tiny", onnx::TensorProto::FLOAT);
        modelgen::build_llm_onnx_form(tiny(), g);
        const auto& m = g.model();
        QCOMPARE(m.opset_import_size(), 1);
        QCOMPARE(m.opset_import(0).version(), 17);
        for (const auto& n : m.graph().node())
            QVERIFY2(n.domain().empty(), n.name().c_str());
        const auto ops = op_counts(m);
        // Per layer 4 projections and 2 attention products; then the LM head.
        QCOMPARE(ops.at("MatMul"), 2 * (4 + 2 + 3) + 1);
        QCOMPARE(ops.at("Softmax"), 2);
        QCOMPARE(ops.at("ReduceMean"), 2 * 2 + 1); // two RMSNorms a layer and the final one
        QCOMPARE(ops.at("Sqrt"), 5);
        QCOMPARE(ops.at("Expand"), 2 * 2);        // keys and values repeated for 2 query heads each
        QCOMPARE(ops.at("Neg"), 2 * 2);           // rotate_half of q and k
        QCOMPARE(ops.at("Sigmoid"), 2);           // SiLU
        QCOMPARE(ops.at("Where"), 1);             // one mask, shared
        QCOMPARE(ops.at("LessOrEqual"), 1);       // causal
        QCOMPARE(ops.at("Transpose"), 2 * 5 + 1); // q, k, v, k^T, context; tied head
        QCOMPARE(ops.count("LayerNormalization"), std::size_t{0});
        QCOMPARE(ops.count("Split"), std::size_t{0});
        QCOMPARE(m.graph().input_size(), 3 + 2 * 2);
        QCOMPARE(m.graph().input(0).name(), std::string("input_ids"));
        QCOMPARE(
            dims(m.graph().input(1)),
            (std::vector<std::string>{"batch_size", "past_sequence_length + sequence_length"}));
        QCOMPARE(m.graph().input(2).name(), std::string("position_ids"));
        QCOMPARE(m.graph().input(5).name(), std::string("past_key_values.1.key"));
        QCOMPARE(dims(m.graph().input(5)),
                 (std::vector<std::string>{"batch_size", "2", "past_sequence_length", "16"}));
        QCOMPARE(m.graph().output(0).name(), std::string("logits"));
        QCOMPARE(dims(m.graph().output(0)),
                 (std::vector<std::string>{"batch_size", "sequence_length", "100"}));
        QCOMPARE(m.graph().output(4).name(), std::string("present.1.value"));
    }

    void fp16IsHalfThroughout() {
        modelgen::LlmGraph g("tiny", onnx::TensorProto::FLOAT16);
        modelgen::build_llm_onnx_form(tiny(), g);
        for (const auto& t : g.model().graph().initializer())
            QVERIFY2(t.data_type() == onnx::TensorProto::FLOAT16 ||
                         t.data_type() == onnx::TensorProto::INT64,
                     t.name().c_str());
        QCOMPARE(g.model().graph().input(3).type().tensor_type().elem_type(),
                 static_cast<int>(onnx::TensorProto::FLOAT16));
        QCOMPARE(g.model().graph().output(0).type().tensor_type().elem_type(),
                 static_cast<int>(onnx::TensorProto::FLOAT16));
        // Loads with every dim bound; half MACs are as many as float ones.
        QTemporaryDir dir;
        g.save(dir.path().toStdString(), "tiny.onnx");
        graph::LoadOptions options;
        options.dims.batch = 1;
        options.dims.decode = 10;
        const auto m = graph::load_model(dir.path().toStdString() + "/tiny.onnx", options);
        QVERIFY2(m.warnings.empty(), m.warnings.empty() ? "" : m.warnings.front().c_str());
        // 2 x (64 x (2 x 64 + 2 x 32) + 3 x 64 x 96 + 2 x 4 x 11 x 16) + 64 x 100
        QCOMPARE(m.macs, std::int64_t{2 * (12288 + 18432 + 1408) + 6400});
    }

    void gemmaHasSlidingMaskSoftCapsAndFourNorms() {
        auto c = tiny();
        c.gemma = true;
        c.sliding_window = 4;
        c.attention_softcap = 50;
        c.final_softcap = 30;
        c.activation = modelgen::LlmActivation::GeluTanh;
        modelgen::LlmGraph g("tiny", onnx::TensorProto::FLOAT);
        modelgen::build_llm_onnx_form(c, g);
        const auto ops = op_counts(g.model());
        QCOMPARE(ops.at("Where"), 2); // full and sliding masks
        QCOMPARE(ops.at("ReduceMean"), 2 * 4 + 1);
        QCOMPARE(ops.at("Tanh"), 2 * 2 + 1); // GELU and score cap a layer, the logit cap
        QCOMPARE(ops.count("Sigmoid"), std::size_t{0});
        // Layer 0 slides, layer 1 attends everything.
        std::set<std::string> masks;
        for (const auto& n : g.model().graph().node())
            if (n.op_type() == "Add" && n.name().find("self_attn/Add") != std::string::npos)
                masks.insert(n.name() + " " + n.input(1));
        QCOMPARE(masks, (std::set<std::string>{
                            "/model/layers.0/self_attn/Add /model/sliding_mask/Where_output_0",
                            "/model/layers.1/self_attn/Add /model/attn_mask/Where_output_0"}));
    }

    void phiSplitsFusedProjections() {
        auto c = tiny();
        c.kv_heads = 4;
        c.fused_projections = true;
        modelgen::LlmGraph g("tiny", onnx::TensorProto::FLOAT);
        modelgen::build_llm_onnx_form(c, g);
        const auto ops = op_counts(g.model());
        QCOMPARE(ops.at("Split"), 2 * 2);
        QCOMPARE(ops.count("Expand"), std::size_t{0});   // as many key/value heads as query heads
        QCOMPARE(ops.at("MatMul"), 2 * (2 + 2 + 2) + 1); // qkv and o, attention, gate_up and down
    }
};

QTEST_GUILESS_MAIN(LlmOnnxFormTest)
#include "llm_onnx_form_test.moc"
