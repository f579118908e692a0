// A decoder's phase, context and bytes, on the 2-layer decoder of tiny_decoder.hpp worked out by
// hand: 2 layers x key and value, each [batch, 2 heads, context, 4] float32; weights 1,024 floats
// (wte 16x8, wpe 32x8, lm_head 8x16, 4 projections 8x8 per layer) and 9 int64 shape constants.
#include "core/graph/decoder_phase.hpp"
#include "core/graph/onnx_import.hpp"
#include "onnx_builder.hpp"
#include "tiny_decoder.hpp"

#include <QtTest>

using namespace cleave::graph;
using cleave::test::OnnxBuilder;
using cleave::test::TinyDecoder;
using cleave::test::TinyDecoderNames;

namespace {

Model load_decoder(const DimBindings& bindings, const TinyDecoderNames& names = {}) {
    const std::string s = TinyDecoder::build(names).SerializeAsString();
    LoadOptions options;
    options.dims = bindings;
    return load_model_from_bytes({s.begin(), s.end()}, "decoder.onnx", options);
}

constexpr std::int64_t kWeightsBytes = 1024 * 4 + 9 * 8;

} // namespace

class DecoderPhaseTest : public QObject {
    Q_OBJECT

private slots:
    void aDecodeStepHoldsItsContext() {
        DimBindings b;
        b.decode = 1024;
        b.batch = 2;
        const auto phase = decoder_phase(load_decoder(b));
        QVERIFY(phase);
        QCOMPARE(phase->phase, std::string("decode"));
        QCOMPARE(phase->batch, std::int64_t{2});
        QCOMPARE(phase->tokens, std::int64_t{1});
        QCOMPARE(phase->context, std::int64_t{1025});
        QCOMPARE(phase->kv_cache_bytes, std::int64_t{2 * 2 * 2 * 2 * 1025 * 4 * 4});
        QCOMPARE(phase->weights_bytes, kWeightsBytes);
        QCOMPARE(phase->tokens_per_s(4.0), 500.0); // 2 sequences a token each per 4 ms
    }

    void aPrefillCachesItsPrompt() {
        DimBindings b;
        b.prefill = 512;
        const auto phase = decoder_phase(load_decoder(b));
        QVERIFY(phase);
        QCOMPARE(phase->phase, std::string("prefill"));
        QCOMPARE(phase->batch, std::int64_t{1});
        QCOMPARE(phase->tokens, std::int64_t{512});
        QCOMPARE(phase->context, std::int64_t{512});
        QCOMPARE(phase->kv_cache_bytes, std::int64_t{2 * 2 * 2 * 512 * 4 * 4});
        QCOMPARE(phase->tokens_per_s(4.0), 0.0);
    }

    void theDynamoExportersNamesGiveTheSame() {
        DimBindings b;
        b.decode = 7;
        const auto phase = decoder_phase(load_decoder(b, TinyDecoderNames::dynamo()));
        QVERIFY(phase);
        QCOMPARE(phase->phase, std::string("decode"));
        QCOMPARE(phase->context, std::int64_t{8});
        QCOMPARE(phase->kv_cache_bytes, std::int64_t{2 * 2 * 2 * 8 * 4 * 4});
    }

    void aModelWithoutACacheIsNoDecoder() {
        OnnxBuilder builder;
        builder.input("x", {1, 3, 8, 8});
        builder.node("Relu", {"x"}, {"y"});
        builder.output("y");
        QVERIFY(!decoder_phase(load_model_from_bytes(builder.bytes(), "relu.onnx")));
    }
};

QTEST_APPLESS_MAIN(DecoderPhaseTest)
#include "decoder_phase_test.moc"
