// The decoder space: small decoders in the four published styles, each a valid shape (the
// key/value heads divide the heads, int4 only in the genai form), named so that a calibration
// holds a style out together, the same seed giving the same sequence.
#include "core/modelgen/decoder_space.hpp"
#include "core/profile/measured_dataset.hpp"

#include <QtTest>
#include <cstdio>
#include <set>

using namespace cleave;

class DecoderSpaceTest : public QObject {
    Q_OBJECT

private slots:
    void decodersAreValidShapesNamedAfterTheirStyle() {
        const auto decoders = modelgen::decoder_models(0, 60, 3);
        QCOMPARE(decoders.size(), std::size_t{60});
        std::set<std::string> styles;
        int int4 = 0, onnx = 0;
        for (std::size_t i = 0; i < decoders.size(); ++i) {
            const auto& d = decoders[i];
            const auto& c = d.config;
            QVERIFY2(c.hidden >= 256 && c.hidden <= 1024, c.name.c_str());
            QCOMPARE(c.hidden, c.heads * c.head_dim);
            QCOMPARE(c.heads % c.kv_heads, std::int64_t{0});
            QVERIFY(c.layers >= 2 && c.layers <= 6);
            QCOMPARE(c.intermediate % 64, std::int64_t{0});
            QVERIFY(c.hf_id.empty()); // no published source
            QVERIFY(d.precision != modelgen::LlmPrecision::Int4 ||
                    d.form == modelgen::LlmForm::Genai);
            int4 += d.precision == modelgen::LlmPrecision::Int4;
            onnx += d.form == modelgen::LlmForm::Onnx;
            QCOMPARE(d.prefill_lengths.size(), std::size_t{2});
            QCOMPARE(d.decode_contexts.size(), std::size_t{4});
            for (const auto n : d.prefill_lengths)
                QVERIFY(n >= 16 && n <= 1024);
            for (const auto l : d.decode_contexts)
                QVERIFY(l >= 64 && l <= 8192 && l < c.context);
            char tail[32];
            std::snprintf(tail, sizeof tail, "_%04zu", i);
            QVERIFY2(c.name.ends_with(tail), c.name.c_str());
            const auto family = profile::model_family(c.name);
            QVERIFY2(c.name.starts_with(family + "_d" + std::to_string(c.hidden) + "_l" +
                                        std::to_string(c.layers) + "_"),
                     c.name.c_str());
            styles.insert(family);
            QCOMPARE(c.fused_projections, family == "phi");
            QCOMPARE(c.qkv_bias, family == "qwen");
            QCOMPARE(c.gemma, family == "gemma");
            if (family == "phi")
                QCOMPARE(c.kv_heads, c.heads);
        }
        QCOMPARE(styles, (std::set<std::string>{"gemma", "llama", "phi", "qwen"}));
        QVERIFY(int4 > 10 && int4 < 40);
        QVERIFY(onnx > 5);
    }

    void theSameSeedGivesTheSameSequence() {
        const auto all = modelgen::decoder_models(0, 8, 11);
        const auto tail = modelgen::decoder_models(5, 3, 11);
        QCOMPARE(tail.size(), std::size_t{3});
        for (std::size_t i = 0; i < tail.size(); ++i) {
            QCOMPARE(tail[i].config.name, all[5 + i].config.name);
            QCOMPARE(tail[i].decode_contexts, all[5 + i].decode_contexts);
        }
        QVERIFY(modelgen::decoder_models(0, 8, 12).front().config.name != all.front().config.name ||
                modelgen::decoder_models(0, 8, 12)[1].config.name != all[1].config.name);
    }
};

QTEST_GUILESS_MAIN(DecoderSpaceTest)
#include "decoder_space_test.moc"
