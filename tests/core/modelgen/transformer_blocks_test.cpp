// The transformer blocks of the generated sets, each built alone and imported: the nodes each
// writes as PyTorch's exporter does (GPT-2's decoder layer is 47), the output shape shape
// inference finds, and the multiply-accumulates of its products worked out by hand.
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/transformer_blocks.hpp"
#include "model_checks.hpp"

#include <QtTest>
#include <algorithm>
#include <functional>

using namespace cleave;
using modelgen::NetBuilder;
using modelgen::Tensor;

namespace {

struct Built {
    graph::Model model;
    std::int64_t macs = 0;
    std::vector<std::int64_t> shape; // as the block declared it
};

Built build(std::vector<std::int64_t> input,
            const std::function<Tensor(NetBuilder&, const Tensor&)>& block) {
    NetBuilder b("block", std::move(input), 1);
    const auto y = block(b, b.input());
    b.output(y);
    const std::string bytes = b.model().SerializeAsString();
    return {graph::load_model_from_bytes({bytes.begin(), bytes.end()}, "block.onnx"), b.macs(),
            y.shape};
}

int count(const graph::Model& m, const std::string& op) {
    return static_cast<int>(std::count_if(m.nodes.begin(), m.nodes.end(),
                                          [&](const graph::Node& n) { return n.op == op; }));
}

void check_output(const Built& built, const std::vector<std::int64_t>& expected) {
    test::check_shapes(built.model);
    QVERIFY2(built.model.warnings.empty(), test::first_warning(built.model).c_str());
    QCOMPARE(built.shape, expected);
    QCOMPARE(test::tensor(built.model, built.model.outputs[0]).shape.value_or(graph::Shape{}),
             expected);
}

} // namespace

class TransformerBlocksTest : public QObject {
    Q_OBJECT

private slots:
    // The MLP of a [1, 4, 16] sequence to 64 and back: two Linears (MatMul and bias Add) around
    // GELU's five nodes.
    void mlpIsTwoLinearsAroundGelu() {
        const auto built = build({1, 4, 16}, [](NetBuilder& b, const Tensor& x) {
            return modelgen::transformer_mlp(b, x, 64, {"fc1", "act", "fc2"});
        });
        QCOMPARE(built.model.nodes.size(), std::size_t{2 + 5 + 2});
        QCOMPARE(count(built.model, "Erf"), 1);
        check_output(built, {1, 4, 16});
        QCOMPARE(built.macs, std::int64_t{4 * 64 * 16 + 4 * 16 * 64});
        QVERIFY(built.model.find_node("/fc1/MatMul") >= 0);
    }

    // Four tokens of 16, two heads of 8, the causal mask a parameter.
    void decoderLayerIsFortySevenNodes() {
        const auto built = build({1, 4, 16}, [](NetBuilder& b, const Tensor& x) {
            const auto mask = b.parameter("mask", {1, 1, 4, 4}, 1.0);
            return modelgen::decoder_layer(b, x, 2, mask, "h.0");
        });
        QCOMPARE(built.model.nodes.size(), std::size_t{47});
        QCOMPARE(count(built.model, "Split"), 1);
        QCOMPARE(count(built.model, "Softmax"), 1);
        QCOMPARE(count(built.model, "ReduceMean"), 4); // two decomposed LayerNorms
        check_output(built, {1, 4, 16});
        // QKV 4 x 48 x 16, scores 2 x 4 x 4 x 8, with V 2 x 4 x 8 x 4, projection 4 x 16 x 16,
        // MLP 4 x 64 x 16 and back.
        QCOMPARE(built.macs, std::int64_t{4 * 48 * 16 + 2 * 4 * 4 * 8 + 2 * 4 * 8 * 4 +
                                          4 * 16 * 16 + 4 * 64 * 16 + 4 * 16 * 64});
        QVERIFY(built.model.find_node("/h.0/attn/c_attn/MatMul") >= 0);
    }

    void vitAndBertEncoderLayersKeepTheSequence() {
        const auto vit = build({1, 5, 16}, [](NetBuilder& b, const Tensor& x) {
            return modelgen::vit_encoder_layer(b, x, 2, 32, "encoder_layer_0");
        });
        check_output(vit, {1, 5, 16});
        QCOMPARE(count(vit.model, "LayerNormalization"), 2);
        QCOMPARE(count(vit.model, "Gather"), 3); // Q, K and V cut from one projection
        QCOMPARE(count(vit.model, "Gemm"), 1);   // the output projection
        const auto bert = build({1, 5, 16}, [](NetBuilder& b, const Tensor& x) {
            return modelgen::bert_encoder_layer(b, x, 2, 32, true, "layer.0");
        });
        check_output(bert, {1, 5, 16});
        // Q, K, V, the attention output, intermediate and output: six Linears.
        QCOMPARE(count(bert.model, "MatMul"), 6 + 2);
        QCOMPARE(count(bert.model, "Div"), 1 + 1); // the scale, and GELU's
        // Scaling Q and K by the root instead: two Muls, no Div of the scores.
        const auto scaled = build({1, 5, 16}, [](NetBuilder& b, const Tensor& x) {
            return modelgen::bert_encoder_layer(b, x, 2, 32, false, "layer.0");
        });
        QCOMPARE(count(scaled.model, "Div"), 1);
        QCOMPARE(count(scaled.model, "Mul"), count(bert.model, "Mul") + 2);
        QCOMPARE(scaled.macs, bert.macs);
    }

    void convnextAndLayerNorm2dWorkInChannelsLast() {
        const auto norm = build({1, 16, 4, 4}, [](NetBuilder& b, const Tensor& x) {
            return modelgen::layer_norm_2d(b, x, "norm");
        });
        QCOMPARE(norm.model.nodes.size(), std::size_t{3});
        QCOMPARE(norm.model.nodes[1].op, std::string("LayerNormalization"));
        check_output(norm, {1, 16, 4, 4});
        const auto block = build({1, 16, 4, 4}, [](NetBuilder& b, const Tensor& x) {
            return modelgen::convnext_block(b, x, "features.1.0");
        });
        check_output(block, {1, 16, 4, 4});
        // Depthwise 7 x 7 on 16 x 4 x 4, then Linear to 64 and back on 16 positions.
        QCOMPARE(block.macs, std::int64_t{16 * 4 * 4 * 49 + 16 * 64 * 16 + 16 * 16 * 64});
        QCOMPARE(block.model.nodes[0].int_attribute("group", 0), std::int64_t{16});
    }

    void swinBlockShiftsItsWindowsOnOddBlocks() {
        // A 4 x 4 map of 32 channels, windows of 2 x 2, two heads.
        const auto plain = build({1, 4, 4, 32}, [](NetBuilder& b, const Tensor& x) {
            return modelgen::swin_block(b, x, 2, 2, false, "0");
        });
        check_output(plain, {1, 4, 4, 32});
        QCOMPARE(count(plain.model, "Concat"), 0);
        const auto shifted = build({1, 4, 4, 32}, [](NetBuilder& b, const Tensor& x) {
            return modelgen::swin_block(b, x, 2, 2, true, "1");
        });
        check_output(shifted, {1, 4, 4, 32});
        // A roll each way, each a Slice pair and a Concat per axis; the mask added.
        QCOMPARE(count(shifted.model, "Concat"), 4);
        QCOMPARE(count(shifted.model, "Slice"), 8);
        QCOMPARE(shifted.model.nodes.size(), plain.model.nodes.size() + 12 + 3);
        QCOMPARE(shifted.macs, plain.macs);
    }

    void maxvitLayerAttendsInWindowsAndAcrossAGrid() {
        // 64 channels: two heads of 32; a 4 x 4 map in windows of 2 x 2.
        const auto built = build({1, 32, 8, 8}, [](NetBuilder& b, const Tensor& x) {
            return modelgen::maxvit_layer(b, x, 64, 2, 2, "layers.0");
        });
        check_output(built, {1, 64, 4, 4});
        QCOMPARE(count(built.model, "Einsum"), 4); // two products in each of the two attentions
        QCOMPARE(count(built.model, "Softmax"), 2);
        // The shortcut pools the stride away (3 x 3, stride 2) and projects 32 to 64 channels.
        QCOMPARE(count(built.model, "AveragePool"), 1);
    }
};

QTEST_GUILESS_MAIN(TransformerBlocksTest)
#include "transformer_blocks_test.moc"
