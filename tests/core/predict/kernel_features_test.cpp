// What a latency predictor sees of a kernel: the feature names and which of them add up, every
// feature of a fused convolution worked out by hand, the anchor a kernel is costed by, its cost
// class, a Transpose's reordered axes, and what a decode step streams beside each kernel.
#include "../graph/genai_decoder.hpp"
#include "../graph/onnx_builder.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/predict/kernel_features.hpp"

#include <QtTest>
#include <set>

using namespace cleave;
using namespace cleave::predict;
using cleave::test::OnnxBuilder;

namespace {

std::size_t column(const char* name) {
    const auto& names = kernel_feature_names();
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

graph::Model load(const OnnxBuilder& b) {
    return graph::load_model_from_bytes(b.bytes(), "kernel.onnx");
}

// A kernel of the given nodes, with the costs make_kernel_graph sums.
fusion::Kernel kernel_of(const graph::Model& model, const std::vector<int>& nodes) {
    fusion::NodeGroups groups(model);
    for (std::size_t i = 1; i < nodes.size(); ++i)
        groups.merge(nodes[0], nodes[i]);
    const auto g = fusion::make_kernel_graph(model, fusion::node_edges(model), groups,
                                             [](int) { return std::string("K"); });
    return g
        .kernels[static_cast<std::size_t>(g.kernel_of_node[static_cast<std::size_t>(nodes[0])])];
}

// x [1, 8, 16, 16] -> Conv (w [16, 8 / group, k, k], stride s, same padding) -> Relu.
graph::Model conv_relu(std::int64_t k, std::int64_t stride, std::int64_t group,
                       std::int64_t out = 16) {
    OnnxBuilder b;
    b.input("x", {1, 8, 16, 16});
    b.initializer("w", {out, 8 / group, k, k});
    auto& conv = b.node("Conv", {"x", "w"}, {"c"}, "conv");
    OnnxBuilder::set_ints(conv, "pads", {k / 2, k / 2, k / 2, k / 2});
    OnnxBuilder::set_ints(conv, "strides", {stride, stride});
    OnnxBuilder::set_int(conv, "group", group);
    b.node("Relu", {"c"}, {"y"}, "relu");
    b.output("y");
    return load(b);
}

} // namespace

class KernelFeaturesTest : public QObject {
    Q_OBJECT

private slots:
    void namesAndWhichAddUp() {
        const auto& names = kernel_feature_names();
        QCOMPARE(names.size(), std::size_t{15 + 12 + 3 + 3 + 2});
        QCOMPARE(names.front(), std::string("macs"));
        QCOMPARE(names[15], std::string("nodes_convolutions"));
        QCOMPARE(names[26], std::string("nodes_other_ops"));
        QCOMPARE(names.back(), std::string("decode_weight_bytes"));
        for (const char* additive : {"macs", "flops", "bytes_in", "weight_bytes", "fused_elements",
                                     "launches", "nodes_activations"})
            QVERIFY2(is_additive_feature(additive), additive);
        for (const char* rate : {"channels_in", "channels_out", "kernel_area", "stride", "groups",
                                 "gemm_m", "gemm_n", "gemm_k", "second_input", "transpose_block",
                                 "transpose_axes", "decode_kv_bytes", "decode_weight_bytes"})
            QVERIFY2(!is_additive_feature(rate), rate);
    }

    // A decode step's kernels see the bytes of the key/value caches its inputs carry and of the
    // weights it reads (an embedding only gathered from left out); a prefill's and a CNN's see 0.
    void decodeStepsSeeTheirCachesAndWeights() {
        OnnxBuilder b;
        b.input("input_ids", {-1, -1}, onnx::TensorProto::INT64);
        b.input("past_key_values.0.key", {-1, 2, -1, 8});
        const auto name_dims = [&](int input, const std::vector<const char*>& names) {
            auto* shape = b.graph()
                              .mutable_input(input)
                              ->mutable_type()
                              ->mutable_tensor_type()
                              ->mutable_shape();
            for (std::size_t d = 0; d < names.size(); ++d)
                if (names[d])
                    shape->mutable_dim(static_cast<int>(d))->set_dim_param(names[d]);
        };
        name_dims(0, {"batch_size", "sequence_length"});
        name_dims(1, {"batch_size", nullptr, "past_sequence_length", nullptr});
        b.initializer("embed", {100, 16});
        b.initializer("w", {16, 16});
        b.node("Gather", {"embed", "input_ids"}, {"e"}, "embed");
        b.node("MatMul", {"e", "w"}, {"logits"}, "head");
        b.node("Identity", {"past_key_values.0.key"}, {"present.0.key"}, "keep");
        b.output("logits");
        b.output("present.0.key");
        // At a decode step after `cached` tokens (0: a prefill of 8).
        const auto at = [&](std::int64_t cached, const char* feature) {
            graph::LoadOptions options;
            if (cached > 0)
                options.dims.decode = cached;
            else
                options.dims.prefill = 8;
            const auto model = graph::load_model_from_bytes(b.bytes(), "decoder.onnx", options);
            return kernel_features(model, kernel_of(model, {1}))[column(feature)];
        };
        QCOMPARE(at(32, "decode_kv_bytes"), 2.0 * 32 * 8 * 4);
        QCOMPARE(at(32, "decode_weight_bytes"), 16.0 * 16 * 4);
        QCOMPARE(at(64, "decode_kv_bytes"), 2.0 * 64 * 8 * 4);
        QCOMPARE(at(0, "decode_kv_bytes"), 0.0);
        QCOMPARE(at(0, "decode_weight_bytes"), 0.0);
        const auto cnn = conv_relu(3, 1, 1);
        const auto f = kernel_features(cnn, kernel_of(cnn, {0}));
        QCOMPARE(f[column("decode_kv_bytes")], 0.0);
        QCOMPARE(f[column("decode_weight_bytes")], 0.0);
    }

    void aFusedConvolutionByHand() {
        const auto model = conv_relu(3, 2, 1);
        auto k = kernel_of(model, {0, 1});
        k.launches = 2;
        const auto f = kernel_features(model, k);
        QCOMPARE(f.size(), kernel_feature_names().size());
        const auto at = [&](const char* name) { return f[column(name)]; };
        const double out = 16 * 8 * 8; // 1024 outputs at stride 2
        QCOMPARE(at("macs"), out * 8 * 9);
        QCOMPARE(at("flops"), 2 * out * 8 * 9 + out); // the Conv's, then the Relu's
        QCOMPARE(at("bytes_in"), (8 * 16 * 16 + 16 * 8 * 9) * 4.0);
        QCOMPARE(at("bytes_out"), out * 4);
        QCOMPARE(at("weight_bytes"), 16 * 8 * 9 * 4.0);
        QCOMPARE(at("anchor_in"), 8 * 16 * 16.0);
        QCOMPARE(at("anchor_out"), out);
        QCOMPARE(at("channels_in"), 8.0);
        QCOMPARE(at("channels_out"), 16.0);
        QCOMPARE(at("kernel_area"), 9.0);
        QCOMPARE(at("stride"), 2.0);
        QCOMPARE(at("groups"), 1.0);
        QCOMPARE(at("fused_elements"), out); // the Relu's output
        QCOMPARE(at("run_time_nodes"), 2.0);
        QCOMPARE(at("launches"), 2.0);
        QCOMPARE(at("nodes_convolutions"), 1.0);
        QCOMPARE(at("nodes_activations"), 1.0);
        QCOMPARE(at("nodes_binary_ops"), 0.0);
        // As the matrix product CPU libraries lower it to: M output channels, N output pixels,
        // K = input channels x kernel area.
        QCOMPARE(at("gemm_m"), 16.0);
        QCOMPARE(at("gemm_n"), 64.0);
        QCOMPARE(at("gemm_k"), 72.0);
        QCOMPARE(at("second_input"), 16 * 8 * 9.0);
        QCOMPARE(at("transpose_block"), 0.0);
        QCOMPARE(at("transpose_axes"), 0.0);
    }

    void aGroupedConvolutionsProduct() {
        const auto model = conv_relu(3, 1, 4);
        const auto f = kernel_features(model, kernel_of(model, {0}));
        QCOMPARE(f[column("groups")], 4.0);
        QCOMPARE(f[column("gemm_m")], 4.0); // 16 output channels / 4 groups
        QCOMPARE(f[column("gemm_n")], 256.0);
        QCOMPARE(f[column("gemm_k")], 18.0); // 2 input channels a group x 9
    }

    void aMatrixProductsShape() {
        OnnxBuilder b;
        b.input("x", {2, 8, 64});
        b.initializer("w", {64, 32});
        b.node("MatMul", {"x", "w"}, {"y"}, "matmul");
        b.output("y");
        const auto model = load(b);
        const auto k = kernel_of(model, {0});
        const auto f = kernel_features(model, k);
        QCOMPARE(f[column("gemm_m")], 16.0); // 2 x 8 rows
        QCOMPARE(f[column("gemm_n")], 32.0);
        QCOMPARE(f[column("gemm_k")], 64.0);
        QCOMPARE(f[column("channels_in")], 0.0); // not a convolution
        QCOMPARE(f[column("second_input")], 64 * 32.0);
        QCOMPARE(cost_class(model, k), std::string("MatMul/gemm"));
    }

    void theAnchorHasTheMostMacsElseTheLargestOutput() {
        OnnxBuilder b;
        b.input("x", {1, 64});
        b.initializer("w", {64, 16});
        b.node("Relu", {"x"}, {"r"}, "relu");      // 0: 64 outputs
        b.node("MatMul", {"r", "w"}, {"m"}, "mm"); // 1: the MACs
        b.node("Sigmoid", {"m"}, {"y"}, "sig");    // 2: 16 outputs
        b.output("y");
        const auto model = load(b);
        QCOMPARE(kernel_anchor(model, kernel_of(model, {0, 1, 2})), 1);
        QCOMPARE(kernel_anchor(model, kernel_of(model, {0})), 0);
        // Without MACs: the member with the largest output.
        fusion::Kernel no_macs;
        no_macs.nodes = {0, 2};
        QCOMPARE(kernel_anchor(model, no_macs), 0);
        no_macs.nodes = {2};
        QCOMPARE(kernel_anchor(model, no_macs), 2);
        // The Relu's output joins the MatMul's kernel as fused work; the anchor's does not.
        const auto f = kernel_features(model, kernel_of(model, {0, 1, 2}));
        QCOMPARE(f[column("fused_elements")], 64.0 + 16.0);
        QCOMPARE(f[column("anchor_in")], 64.0);
        QCOMPARE(f[column("anchor_out")], 16.0);
    }

    void costClassesByShape() {
        const auto cls = [](const graph::Model& m) { return cost_class(m, kernel_of(m, {0, 1})); };
        QCOMPARE(cls(conv_relu(3, 1, 1)), std::string("Conv/kxk"));
        QCOMPARE(cls(conv_relu(1, 1, 1)), std::string("Conv/1x1"));
        QCOMPARE(cls(conv_relu(3, 1, 8, 8)), std::string("Conv/depthwise"));
        QCOMPARE(cls(conv_relu(3, 1, 2)), std::string("Conv/grouped"));
        OnnxBuilder b;
        b.input("x", {1, 64});
        b.initializer("w", {32, 64});
        OnnxBuilder::set_int(b.node("Gemm", {"x", "w"}, {"g"}, "fc"), "transB", 1);
        b.node("Softmax", {"g"}, {"y"}, "softmax");
        b.output("y");
        const auto head = load(b);
        QCOMPARE(cost_class(head, kernel_of(head, {0})), std::string("Gemm/gemv")); // one row
        QCOMPARE(cost_class(head, kernel_of(head, {1})), std::string("Softmax"));
        QCOMPARE(cost_type("Conv/depthwise"), std::string("Conv"));
        QCOMPARE(cost_type("Softmax"), std::string("Softmax"));
    }

    // A decode step's 4-bit products and attention have one query row, as a classifier head
    // does: their classes say so, and a prefill's do not.
    void contribProductsAreVectorsAtADecodeStep() {
        const std::string bytes = cleave::test::GenAiDecoder::build().SerializeAsString();
        const auto classes = [&](bool decode) {
            graph::LoadOptions options;
            (decode ? options.dims.decode : options.dims.prefill) = 64;
            const auto model =
                graph::load_model_from_bytes({bytes.begin(), bytes.end()}, "decoder.onnx", options);
            std::set<std::string> seen;
            for (std::size_t n = 0; n < model.nodes.size(); ++n)
                if (model.nodes[n].op == "MatMulNBits" ||
                    model.nodes[n].op == "GroupQueryAttention")
                    seen.insert(cost_class(model, kernel_of(model, {static_cast<int>(n)})));
            return seen;
        };
        QCOMPARE(classes(true),
                 (std::set<std::string>{"GroupQueryAttention/gemv", "MatMulNBits/gemv"}));
        QCOMPARE(classes(false),
                 (std::set<std::string>{"GroupQueryAttention/gemm", "MatMulNBits/gemm"}));
    }

    // transpose_axes counts the runs of axes a Transpose reorders, unit dims left out: MaxViT's
    // window partition is 5 (ONNX Runtime's element-by-element case), NCHW to NHWC and a matrix
    // transpose 2, a swap of unit dims 1; other ops 0.
    void transposeAxesCountsTheRunsReordered() {
        OnnxBuilder b;
        b.input("window", {1, 96, 8, 4, 8, 4});
        b.input("map", {1, 16, 8, 8});
        b.input("matrix", {8, 64});
        b.input("unit", {1, 1, 4, 8});
        OnnxBuilder::set_ints(b.node("Transpose", {"window"}, {"w"}, "/partition/Transpose"),
                              "perm", {0, 2, 4, 3, 5, 1});
        OnnxBuilder::set_ints(b.node("Transpose", {"map"}, {"m"}, "/nhwc/Transpose"), "perm",
                              {0, 2, 3, 1});
        b.node("Transpose", {"matrix"}, {"t"}, "/matrix/Transpose"); // no perm: reversed
        OnnxBuilder::set_ints(b.node("Transpose", {"unit"}, {"u"}, "/unit/Transpose"), "perm",
                              {1, 0, 2, 3});
        b.node("Relu", {"map"}, {"r"}, "/relu/Relu");
        for (const char* out : {"w", "m", "t", "u", "r"})
            b.output(out);
        const auto model = graph::load_model_from_bytes(b.bytes(), "transposes.onnx");
        const auto& names = kernel_feature_names();
        const auto axes = static_cast<std::size_t>(
            std::find(names.begin(), names.end(), "transpose_axes") - names.begin());
        QVERIFY(axes < names.size());
        QVERIFY(!is_additive_feature("transpose_axes"));
        std::map<std::string, double> found;
        const auto kernels = fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
        for (const auto& kernel : kernels.kernels)
            found[kernel.name] = kernel_features(model, kernel)[axes];
        QCOMPARE(found.at("/partition/Transpose"), 5.0);
        QCOMPARE(found.at("/nhwc/Transpose"), 2.0);
        QCOMPARE(found.at("/matrix/Transpose"), 2.0);
        QCOMPARE(found.at("/unit/Transpose"), 1.0);
        QCOMPARE(found.at("/relu/Relu"), 0.0);
    }

    void transposeBlockIsTheTrailingDimsLeftInPlace() {
        OnnxBuilder b;
        b.input("x", {2, 3, 4, 5});
        OnnxBuilder::set_ints(b.node("Transpose", {"x"}, {"a"}, "swap"), "perm", {1, 0, 2, 3});
        OnnxBuilder::set_ints(b.node("Transpose", {"x"}, {"c"}, "inner"), "perm", {0, 1, 3, 2});
        OnnxBuilder::set_ints(b.node("Transpose", {"x"}, {"i"}, "same"), "perm", {0, 1, 2, 3});
        for (const char* out : {"a", "c", "i"})
            b.output(out);
        const auto model = load(b);
        const auto block = [&](int node) {
            return kernel_features(model, kernel_of(model, {node}))[column("transpose_block")];
        };
        QCOMPARE(block(0), 20.0);  // rows of 4 x 5 copied whole
        QCOMPARE(block(1), 1.0);   // the innermost axis moves
        QCOMPARE(block(2), 120.0); // an identity copies everything at once
    }
};

QTEST_GUILESS_MAIN(KernelFeaturesTest)
#include "kernel_features_test.moc"
