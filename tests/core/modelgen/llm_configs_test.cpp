// The published language-model shapes, and SmolLM2-135M written from its row in the onnx form
// and read back by the importer under decoder bindings: no warning, every tensor shaped, and the
// multiply-accumulates of the projections, the attention and the LM head counted by hand.
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/llm_configs.hpp"
#include "core/modelgen/llm_writer.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <set>

using namespace cleave;

namespace {

// MACs of a Llama-layout decoder with S new tokens after `past` cached ones (T = past + S), by
// hand: per new token and layer the q and o projections (hidden x heads x head_dim each), the
// k and v projections (hidden x kv_heads x head_dim each) and the gated MLP (3 x hidden x
// intermediate); per layer the scores and their product with the values (2 x heads x S x T x
// head_dim); per new token the LM head (hidden x vocab).
std::int64_t analytic_macs(const modelgen::LlmConfig& c, std::int64_t s, std::int64_t past) {
    const auto t = past + s;
    const auto q = c.heads * c.head_dim, kv = c.kv_heads * c.head_dim;
    const auto per_token = c.hidden * (2 * q + 2 * kv) + 3 * c.hidden * c.intermediate;
    const auto attention = 2 * c.heads * s * t * c.head_dim;
    return c.layers * (s * per_token + attention) + s * c.hidden * c.vocab;
}

graph::Model written_smollm2(const QTemporaryDir& dir, const graph::DimBindings& dims) {
    const auto* c = modelgen::find_llm_config("smollm2-135m");
    const auto w = modelgen::write_llm(*c, modelgen::LlmPrecision::Fp32, modelgen::LlmForm::Onnx,
                                       dir.path().toStdString());
    graph::LoadOptions options;
    options.dims = dims;
    return graph::load_model(std::filesystem::path(dir.path().toStdString()) / w.model_file,
                             options);
}

void check_all_shaped(const graph::Model& m) {
    for (const auto& t : m.tensors) {
        QVERIFY2(t.shape.has_value(), (t.name + " has no shape").c_str());
        for (const auto d : *t.shape)
            QVERIFY2(d >= 0, (t.name + " has an unknown dim").c_str());
    }
}

} // namespace

class LlmConfigsTest : public QObject {
    Q_OBJECT

private slots:
    void tableHoldsTheElevenModels() {
        const auto& rows = modelgen::llm_configs();
        QCOMPARE(rows.size(), std::size_t{11});
        std::set<std::string> names;
        for (const auto& c : rows) {
            names.insert(c.name);
            QVERIFY2(c.heads % c.kv_heads == 0, c.name.c_str());
            QVERIFY2(c.hidden > 0 && c.layers > 0 && c.head_dim > 0 && c.intermediate > 0 &&
                         c.vocab > 0 && c.context > 0 && c.rope_theta > 0 && c.norm_eps > 0,
                     c.name.c_str());
        }
        QCOMPARE(names.size(), rows.size());
        QCOMPARE(modelgen::llm_config_names(),
                 std::string("smollm2-135m, qwen2.5-0.5b, qwen2.5-1.5b, qwen2.5-7b, llama-3.2-1b, "
                             "llama-3.2-3b, llama-3.1-8b, llama-3.1-70b, phi-3-mini-4k-instruct, "
                             "gemma-2-2b, "
                             "mistral-7b-v0.3"));
    }

    void rowsCarryTheirConfigValues() {
        const auto* s = modelgen::find_llm_config("SmolLM2-135M"); // case-insensitive
        QVERIFY(s);
        QCOMPARE(s->hidden, 576);
        QCOMPARE(s->layers, 30);
        QCOMPARE(s->heads, 9);
        QCOMPARE(s->kv_heads, 3);
        QCOMPARE(s->head_dim, 64);
        QCOMPARE(s->intermediate, 1536);
        QCOMPARE(s->vocab, 49152);
        QCOMPARE(s->context, 8192);
        QVERIFY(s->tied_embeddings);
        const auto* l = modelgen::find_llm_config("llama-3.1-8b");
        QVERIFY(l);
        QCOMPARE(l->hidden, 4096);
        QCOMPARE(l->kv_heads, 8);
        QCOMPARE(l->intermediate, 14336);
        QCOMPARE(l->vocab, 128256);
        QCOMPARE(l->context, 131072);
        QCOMPARE(l->rope_theta, 500000.0);
        QVERIFY(!l->tied_embeddings);
        const auto* g = modelgen::find_llm_config("gemma-2-2b");
        QVERIFY(g);
        QCOMPARE(g->sliding_window, 4096);
        QCOMPARE(g->heads * g->head_dim, 2048); // not the hidden size, 2304
        QCOMPARE(g->hidden, 2304);
        QVERIFY(modelgen::find_llm_config("qwen2.5-0.5b")->qkv_bias);
        QVERIFY(modelgen::find_llm_config("phi-3-mini-4k-instruct")->fused_projections);
        QCOMPARE(modelgen::find_llm_config("gpt-5"), nullptr);
    }

    // `cleave inspect --decode 1024 --batch 1`: one token after 1024 cached, B = 1, S = 1,
    // T = 1025.
    void smollm2DecodeStepLoadsShapedAndCostsAsCountedByHand() {
        QTemporaryDir dir;
        graph::DimBindings dims;
        dims.batch = 1; // unbound, it is warned of and taken as 1
        dims.decode = 1024;
        const auto m = written_smollm2(dir, dims);
        QVERIFY2(m.warnings.empty(), m.warnings.empty() ? "" : m.warnings.front().c_str());
        check_all_shaped(m);
        QCOMPARE(m.dim_roles.at("past"), 1024);
        QCOMPARE(m.dim_roles.at("total"), 1025);
        QCOMPARE(*m.tensors[m.find_tensor("logits")].shape, (graph::Shape{1, 1, 49152}));
        QCOMPARE(*m.tensors[m.find_tensor("present.29.value")].shape,
                 (graph::Shape{1, 3, 1025, 64}));
        const auto expected = analytic_macs(*modelgen::find_llm_config("smollm2-135m"), 1, 1024);
        // 30 x (576 x (2 x 576 + 2 x 192) + 3 x 576 x 1536 + 2 x 9 x 1025 x 64) + 576 x 49152
        QCOMPARE(expected, std::int64_t{30} * (884736 + 2654208 + 1180800) + 28311552);
        QVERIFY2(std::abs(m.macs - expected) <= expected / 100,
                 (std::to_string(m.macs) + " MACs, expected " + std::to_string(expected)).c_str());
        QCOMPARE(m.macs, expected); // nothing else in the graph multiplies matrices
    }

    // A prompt of 16 tokens, none cached: S = T = 16.
    void smollm2PrefillCostsAsCountedByHand() {
        QTemporaryDir dir;
        graph::DimBindings dims;
        dims.batch = 1;
        dims.prefill = 16;
        const auto m = written_smollm2(dir, dims);
        QVERIFY2(m.warnings.empty(), m.warnings.empty() ? "" : m.warnings.front().c_str());
        check_all_shaped(m);
        QCOMPARE(*m.tensors[m.find_tensor("logits")].shape, (graph::Shape{1, 16, 49152}));
        QCOMPARE(m.macs, analytic_macs(*modelgen::find_llm_config("smollm2-135m"), 16, 0));
    }
};

QTEST_GUILESS_MAIN(LlmConfigsTest)
#include "llm_configs_test.moc"
