// Contrib ops whose attributes disagree with their weights or inputs are refused with an
// InputError naming the node, the attribute and what was expected
// (core/graph/contrib_op_checks.cpp).
#include "../input_error_of.hpp"
#include "core/graph/onnx_import.hpp"
#include "genai_decoder.hpp"
#include "onnx_builder.hpp"

#include <QtTest>

using cleave::test::GenAiDecoder;
using cleave::test::input_error_of;
using cleave::test::OnnxBuilder;

namespace {

std::string refusal(const OnnxBuilder& b) {
    return input_error_of([&] { cleave::graph::load_model_from_bytes(b.bytes(), "m.onnx"); });
}

// A MatMulNBits whose weights are packed for K 32, N 16, block 16, 4 bits, with its attribute
// `name` set to `value` instead, reading an input of `a_dim` columns.
OnnxBuilder matmul_with(const std::string& name, std::int64_t value, std::int64_t a_dim = 32) {
    OnnxBuilder b = GenAiDecoder::microsoft_builder();
    b.input("a", {1, a_dim});
    GenAiDecoder::matmul(b, "w", "a", 32, 16, "y");
    for (auto& a : *b.graph().mutable_node(0)->mutable_attribute())
        if (a.name() == name)
            a.set_i(value);
    b.output("y");
    return b;
}

// GroupQueryAttention with `heads` and `kv_heads` over a query of `hidden` and keys of 16.
OnnxBuilder attention_with(std::int64_t heads, std::int64_t kv_heads, std::int64_t hidden) {
    OnnxBuilder b = GenAiDecoder::microsoft_builder();
    b.input("q", {1, 1, hidden});
    b.input("k", {1, 1, 16});
    b.input("v", {1, 1, 16});
    b.input("seqlens_k", {1}, onnx::TensorProto::INT32);
    b.input("total", {}, onnx::TensorProto::INT32);
    auto& gqa = b.node("GroupQueryAttention", {"q", "k", "v", "", "", "seqlens_k", "total"}, {"y"},
                       "/model/layers.0/attn/GroupQueryAttention");
    gqa.set_domain("com.microsoft");
    OnnxBuilder::set_int(gqa, "num_heads", heads);
    OnnxBuilder::set_int(gqa, "kv_num_heads", kv_heads);
    b.output("y");
    return b;
}

const std::string kPacked = "expected B of N x ceil(K / block_size) x (block_size x bits / 8) = ";

} // namespace

class ContribOpChecksTest : public QObject {
    Q_OBJECT

private slots:
    void matMulNBitsWhoseKDisagreesWithItsWeightsIsRefused() {
        QCOMPARE(refusal(matmul_with("K", 64, 64)),
                 "m.onnx | node 'w/MatMulNBits' | attribute 'K' is 64 but B 'w.weight_Q4' "
                 "(16x2x8) disagrees; " +
                     kPacked + "16x4x8");
    }

    void matMulNBitsWhoseNDisagreesWithItsWeightsIsRefused() {
        QCOMPARE(refusal(matmul_with("N", 32)),
                 "m.onnx | node 'w/MatMulNBits' | attribute 'N' is 32 but B 'w.weight_Q4' "
                 "(16x2x8) disagrees; " +
                     kPacked + "32x2x8");
    }

    void matMulNBitsWhoseBlockSizeDisagreesWithItsWeightsIsRefused() {
        QCOMPARE(refusal(matmul_with("block_size", 32)),
                 "m.onnx | node 'w/MatMulNBits' | attribute 'block_size' is 32 but B "
                 "'w.weight_Q4' (16x2x8) disagrees; " +
                     kPacked + "16x1x16");
    }

    void matMulNBitsWhoseInputIsNotKWideIsRefused() {
        QCOMPARE(refusal(matmul_with("K", 32, 48)),
                 std::string("m.onnx | node 'w/MatMulNBits' | attribute 'K' is 32 but input A "
                             "'a' (1x48) has 48 in its last dim; expected them equal"));
    }

    void matMulNBitsOfNineBitsIsRefused() {
        QCOMPARE(refusal(matmul_with("bits", 9)),
                 std::string("m.onnx | node 'w/MatMulNBits' | attribute 'bits' is 9; expected "
                             "2 to 8"));
    }

    void groupQueryAttentionWhoseHeadsDoNotShareKeyHeadsEvenlyIsRefused() {
        QCOMPARE(refusal(attention_with(6, 4, 48)),
                 std::string("m.onnx | node '/model/layers.0/attn/GroupQueryAttention' | "
                             "attribute 'num_heads' is 6, not a multiple of kv_num_heads (4); "
                             "expected every key/value head to serve as many query heads"));
    }

    void groupQueryAttentionWhoseHiddenSizeDoesNotDivideIsRefused() {
        QCOMPARE(refusal(attention_with(4, 2, 30)),
                 std::string("m.onnx | node '/model/layers.0/attn/GroupQueryAttention' | "
                             "attribute 'num_heads' is 4, but the query's hidden size 30 does "
                             "not divide by 4; expected a whole head size"));
    }

    void groupQueryAttentionWhoseKeyHeadsDifferIsRefused() {
        // Query heads of 32 / 4 = 8 but key heads of 16 / 1 = 16.
        QCOMPARE(refusal(attention_with(4, 1, 32)),
                 std::string("m.onnx | node '/model/layers.0/attn/GroupQueryAttention' | "
                             "attribute 'kv_num_heads' is 1, giving key heads of 16 but query "
                             "heads of 8; expected one head size"));
    }

    void multiHeadAttentionWhoseHiddenSizeDoesNotDivideIsRefused() {
        OnnxBuilder b = GenAiDecoder::microsoft_builder();
        for (const char* name : {"q", "k", "v"})
            b.input(name, {1, 3, 32});
        auto& mha = b.node("MultiHeadAttention", {"q", "k", "v"}, {"y"}, "mha");
        mha.set_domain("com.microsoft");
        OnnxBuilder::set_int(mha, "num_heads", 5);
        b.output("y");
        QCOMPARE(refusal(b),
                 std::string("m.onnx | node 'mha' | attribute 'num_heads' is 5, but the query's "
                             "hidden size 32 does not divide by it; expected a whole head size"));
    }

    void aMissingRequiredAttributeIsASchemaError() {
        OnnxBuilder b = matmul_with("K", 32);
        auto* attributes = b.graph().mutable_node(0)->mutable_attribute();
        attributes->erase(attributes->begin()); // K, the first one set
        const std::string error = refusal(b);
        QVERIFY2(error.starts_with("m.onnx | node 'w/MatMulNBits' | does not fit the MatMulNBits "
                                   "schema: "),
                 error.c_str());
        QVERIFY2(error.find("'K'") != std::string::npos, error.c_str());
    }
};

QTEST_GUILESS_MAIN(ContribOpChecksTest)
#include "contrib_op_checks_test.moc"
