// The MACs, FLOPs, logical weights and bytes of contrib ops and of ONNX's quantized ops
// (core/graph/contrib_op_cost.cpp, docs/graph-features.md), each worked out by hand.
#include "core/graph/onnx_import.hpp"
#include "genai_decoder.hpp"
#include "onnx_builder.hpp"

#include <QtTest>

using cleave::graph::load_model_from_bytes;
using cleave::graph::Model;
using cleave::graph::NodeCost;
using cleave::test::GenAiDecoder;
using cleave::test::OnnxBuilder;

namespace {

const NodeCost& cost_of(const Model& model, const std::string& node) {
    const int index = model.find_node(node);
    if (index < 0)
        throw std::runtime_error("no node " + node);
    return model.nodes[static_cast<std::size_t>(index)].cost;
}

Model load(const OnnxBuilder& b) {
    return load_model_from_bytes(b.bytes(), "cost.onnx");
}

} // namespace

class ContribOpCostTest : public QObject {
    Q_OBJECT

private slots:
    void matMulNBitsCountsLogicalWeightsAndStoredBytes() {
        // A 2x3x32 by 32x48 4-bit weights in blocks of 16: B 48x2x8 bytes, 96 scales, zero points
        // 48 x ceil(2 x 4 / 8) bytes, a bias of 48.
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        b.input("a", {2, 3, 32});
        GenAiDecoder::matmul(b, "w", "a", 32, 48, "y");
        b.initializer("zeros", {48}, onnx::TensorProto::UINT8, 1);
        b.initializer("bias", {48});
        auto& node = *b.graph().mutable_node(0);
        node.add_input("zeros");
        node.add_input("");
        node.add_input("bias");
        b.output("y");
        const Model model = load(b);
        const auto& cost = cost_of(model, "w/MatMulNBits");
        QCOMPARE(cost.macs, std::int64_t(2 * 3 * 32 * 48));
        QCOMPARE(cost.flops, 2 * cost.macs);
        QCOMPARE(cost.weight_parameters, std::int64_t(32 * 48 + 48));
        QCOMPARE(cost.bytes_in, std::int64_t(2 * 3 * 32 * 4 + 48 * 2 * 8 + 96 * 4 + 48 + 48 * 4));
        QCOMPARE(cost.bytes_out, std::int64_t(2 * 3 * 48 * 4));
        QVERIFY(cost.complete);
        QCOMPARE(model.weight_parameters, cost.weight_parameters);
    }

    void groupQueryAttentionCountsTwoProductsOverTheTotal() {
        // Batch 2, 1 new token after 5: T = 6; 4 heads of 8.
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        b.input("q", {2, 1, 32});
        b.input("k", {2, 1, 16});
        b.input("v", {2, 1, 16});
        b.input("past_key", {2, 2, 5, 8});
        b.input("past_value", {2, 2, 5, 8});
        b.input("seqlens_k", {2}, onnx::TensorProto::INT32);
        auto& total = b.initializer("total", {}, onnx::TensorProto::INT32, 4);
        total.set_raw_data(std::string("\6\0\0\0", 4));
        b.initializer("cos", {32, 4}); // rotary tables up to 32 positions
        b.initializer("sin", {32, 4});
        auto& gqa = GenAiDecoder::microsoft(
            b.node("GroupQueryAttention",
                   {"q", "k", "v", "past_key", "past_value", "seqlens_k", "total", "cos", "sin"},
                   {"y", "present_key", "present_value"}, "gqa"));
        OnnxBuilder::set_int(gqa, "num_heads", 4);
        OnnxBuilder::set_int(gqa, "kv_num_heads", 2);
        OnnxBuilder::set_int(gqa, "do_rotary", 1);
        b.output("y");
        const auto& cost = cost_of(load(b), "gqa");
        QCOMPARE(cost.macs, std::int64_t(2 * 2 * 4 * 1 * 6 * 8)); // 2 x B x H x S x T x HD
        QCOMPARE(cost.flops, 2 * cost.macs + 2 * 4 * 1 * 6);      // and the softmax, B x H x S x T
        QCOMPARE(cost.weight_parameters, std::int64_t(0));
        QVERIFY(cost.complete);
        // q 256 bytes, k and v 128 each, the past 640 each, seqlens_k 8, total 4, and of each
        // table (512 bytes) the rows of the B x S = 2 positions rotated: 32.
        QCOMPARE(cost.bytes_in, std::int64_t(256 + 2 * 128 + 2 * 640 + 8 + 4 + 2 * 32));
    }

    void multiHeadAttentionCountsBothProducts() {
        // B 2, S = T = 3, query and key 32 wide, value 16: 2 x 3 x 3 x (32 + 16).
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        b.input("q", {2, 3, 32});
        b.input("k", {2, 3, 32});
        b.input("v", {2, 3, 16});
        OnnxBuilder::set_int(
            GenAiDecoder::microsoft(b.node("MultiHeadAttention", {"q", "k", "v"}, {"y"}, "mha")),
            "num_heads", 4);
        b.output("y");
        const auto& cost = cost_of(load(b), "mha");
        QCOMPARE(cost.macs, std::int64_t(2 * 3 * 3 * (32 + 16)));
        QCOMPARE(cost.flops, 2 * cost.macs + 2 * 4 * 3 * 3);
    }

    void lightOpsCountOneFlopAnOutputElement() {
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        b.input("x", {2, 3, 32});
        b.input("skip", {2, 3, 32});
        b.input("positions", {2, 3}, onnx::TensorProto::INT64);
        b.initializer("gamma", {32});
        b.initializer("cos", {16, 4});
        b.initializer("sin", {16, 4});
        b.node("SimplifiedLayerNormalization", {"x", "gamma"}, {"rms_y"}, "rms");
        GenAiDecoder::microsoft(
            b.node("SkipSimplifiedLayerNormalization", {"x", "skip", "gamma"}, {"s"}, "skip"));
        GenAiDecoder::microsoft(
            b.node("SkipLayerNormalization", {"x", "skip", "gamma"}, {"l"}, "skip_ln"));
        GenAiDecoder::microsoft(
            b.node("RotaryEmbedding", {"x", "positions", "cos", "sin"}, {"r"}, "rotary"));
        GenAiDecoder::microsoft(b.node("QuickGelu", {"x"}, {"q"}, "quick_gelu"));
        GenAiDecoder::microsoft(b.node("FastGelu", {"x"}, {"f"}, "fast_gelu"));
        b.output("r");
        const Model model = load(b);
        for (const char* node : {"rms", "skip", "skip_ln", "rotary", "quick_gelu", "fast_gelu"}) {
            QCOMPARE(cost_of(model, node).macs, std::int64_t(0));
            QCOMPARE(cost_of(model, node).flops, std::int64_t(2 * 3 * 32));
        }
        QCOMPARE(cost_of(model, "rms").weight_parameters, std::int64_t(32));
        QCOMPARE(cost_of(model, "rotary").weight_parameters, std::int64_t(0)); // caches
        // Of the 16 x 4 tables it reads the rows of its 2 x 3 positions: x 768 bytes, positions
        // 48, cos and sin 6 x 4 x 4 each (whole, 256 each).
        QCOMPARE(cost_of(model, "rotary").bytes_in, std::int64_t(768 + 48 + 2 * 96));
        QCOMPARE(model.weight_parameters, std::int64_t(32));
    }

    // A Gather reads the rows it gives, not its whole table (an embedding in a decode step).
    void aGatherReadsItsRows() {
        OnnxBuilder b;
        b.input("ids", {2, 3}, onnx::TensorProto::INT64);
        b.initializer("table", {16, 32});
        b.node("Gather", {"table", "ids"}, {"rows"}, "embed");
        b.output("rows");
        const Model model = load(b);
        // 6 rows of 32 floats (768 bytes) of the 2,048-byte table, and 48 bytes of ids.
        QCOMPARE(cost_of(model, "embed").bytes_in, std::int64_t(768 + 48));
        QCOMPARE(cost_of(model, "embed").weight_parameters, std::int64_t(16 * 32));
    }

    void gatherBlockQuantizedCountsItsUnpackedTable() {
        // 16 x 32 4-bit values in 16 x 16 bytes, 32 scales: 512 logical weights, no work.
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        b.input("ids", {2, 3}, onnx::TensorProto::INT64);
        b.initializer("table", {16, 16}, onnx::TensorProto::UINT8, 1);
        b.initializer("scales", {16, 2});
        OnnxBuilder::set_int(
            GenAiDecoder::microsoft(
                b.node("GatherBlockQuantized", {"table", "ids", "scales"}, {"y"}, "embed")),
            "block_size", 16);
        b.output("y");
        const Model model = load(b);
        const auto& cost = cost_of(model, "embed");
        QCOMPARE(cost.weight_parameters, std::int64_t(512));
        QCOMPARE(cost.flops, std::int64_t(0));
        QCOMPARE(cost.bytes_in, std::int64_t(2 * 3 * 8 + 256 + 32 * 4));
        QCOMPARE(cost.bytes_out, std::int64_t(2 * 3 * 32 * 4));
        QCOMPARE(model.weight_parameters, std::int64_t(512));
    }

    void matMulIntegerCountsItsInt8WeightsAtOneByte() {
        // uint8 2x32 by int8 32x16 with an int8 zero point per column: int32 2x16.
        OnnxBuilder b;
        b.input("a", {2, 32}, onnx::TensorProto::UINT8);
        b.initializer("w", {32, 16}, onnx::TensorProto::INT8, 1);
        b.initializer("w_zero", {16}, onnx::TensorProto::INT8, 1);
        b.node("MatMulInteger", {"a", "w", "", "w_zero"}, {"y"}, "mm");
        b.output("y", onnx::TensorProto::INT32);
        const Model model = load(b);
        const auto& cost = cost_of(model, "mm");
        QCOMPARE(cost.macs, std::int64_t(2 * 32 * 16));
        QCOMPARE(cost.weight_parameters, std::int64_t(32 * 16));
        QCOMPARE(cost.bytes_in, std::int64_t(2 * 32 + 32 * 16 + 16));
        QCOMPARE(cost.bytes_out, std::int64_t(2 * 16 * 4));
        QCOMPARE(model.weight_parameters, std::int64_t(32 * 16));
    }

    void qLinearMatMulCountsItsWeightsNotItsScales() {
        OnnxBuilder b;
        b.input("a", {2, 32}, onnx::TensorProto::UINT8);
        b.initializer("a_scale", {});
        b.initializer("a_zero", {}, onnx::TensorProto::UINT8, 1);
        b.initializer("w", {32, 16}, onnx::TensorProto::INT8, 1);
        b.initializer("w_scale", {});
        b.initializer("w_zero", {}, onnx::TensorProto::INT8, 1);
        b.initializer("y_scale", {});
        b.initializer("y_zero", {}, onnx::TensorProto::UINT8, 1);
        b.node("QLinearMatMul",
               {"a", "a_scale", "a_zero", "w", "w_scale", "w_zero", "y_scale", "y_zero"}, {"y"},
               "qmm");
        b.output("y", onnx::TensorProto::UINT8);
        const Model model = load(b);
        const auto& cost = cost_of(model, "qmm");
        QCOMPARE(cost.macs, std::int64_t(2 * 32 * 16));
        QCOMPARE(cost.weight_parameters, std::int64_t(32 * 16));
        QCOMPARE(cost.bytes_in, std::int64_t(2 * 32 + 4 + 1 + 32 * 16 + 4 + 1 + 4 + 1));
        QCOMPARE(cost.bytes_out, std::int64_t(2 * 16));
        QCOMPARE(model.weight_parameters, std::int64_t(32 * 16));
    }

    void dynamicQuantizeLinearMovesBytesOnly() {
        OnnxBuilder b;
        b.input("x", {2, 32});
        b.node("DynamicQuantizeLinear", {"x"}, {"y", "y_scale", "y_zero"}, "quantize");
        b.output("y", onnx::TensorProto::UINT8);
        const auto& cost = cost_of(load(b), "quantize");
        QCOMPARE(cost.macs, std::int64_t(0));
        QCOMPARE(cost.weight_parameters, std::int64_t(0));
        QCOMPARE(cost.bytes_in, std::int64_t(2 * 32 * 4));
        QCOMPARE(cost.bytes_out, std::int64_t(2 * 32 + 4 + 1));
        QVERIFY(cost.complete);
    }

    void genAiDecoderCostsAsWorkedOutByHand_data() {
        QTest::addColumn<std::int64_t>("batch");
        QTest::addColumn<std::int64_t>("fresh");
        QTest::addColumn<std::int64_t>("cached");
        QTest::newRow("decode after 1024")
            << std::int64_t(1) << std::int64_t(1) << std::int64_t(1024);
        QTest::newRow("prefill of 512, batch 2")
            << std::int64_t(2) << std::int64_t(512) << std::int64_t(0);
    }

    void genAiDecoderCostsAsWorkedOutByHand() {
        QFETCH(std::int64_t, batch);
        QFETCH(std::int64_t, fresh);
        QFETCH(std::int64_t, cached);
        const std::string bytes = GenAiDecoder::build().SerializeAsString();
        cleave::graph::LoadOptions options;
        options.dims.batch = batch;
        if (cached > 0)
            options.dims.decode = cached;
        else
            options.dims.prefill = fresh;
        const Model model =
            load_model_from_bytes({bytes.begin(), bytes.end()}, "genai.onnx", options);
        const std::int64_t tokens = batch * fresh;
        QCOMPARE(model.macs, GenAiDecoder::kMacsPerToken * tokens +
                                 GenAiDecoder::kMacsPerAttended * tokens * (cached + fresh));
        QCOMPARE(model.weight_parameters, GenAiDecoder::kWeightParameters);
        for (const auto& node : model.nodes)
            QVERIFY2(node.cost.complete, node.name.c_str());
    }
};

QTEST_GUILESS_MAIN(ContribOpCostTest)
#include "contrib_op_cost_test.moc"
