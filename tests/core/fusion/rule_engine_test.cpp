// The fusion engine on models built for each rule, and on ResNet-18 against what ONNX Runtime
// measured (40 kernels).
#include "../graph/genai_decoder.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/fusion/rule_engine.hpp"
#include "core/graph/onnx_import.hpp"
#include "fusion_fixtures.hpp"

#include <QtTest>

using cleave::fusion::find_rule_set;
using cleave::fusion::fuse_with_rules;
using cleave::fusion::KernelGraph;
using cleave::graph::load_model_from_bytes;
using cleave::graph::Model;
using cleave::test::Fused;
using cleave::test::OnnxBuilder;

namespace {

Fused fuse(const OnnxBuilder& b, const char* rules,
           const cleave::graph::LoadOptions& options = {}) {
    Fused f{load_model_from_bytes(b.bytes(), "fusion.onnx", options), {}};
    f.kernels = fuse_with_rules(f.model, find_rule_set(rules));
    return f;
}

// LayerNorm of `in` into `out` as exporters write it below opset 17 (GPT-2): nine nodes.
void decomposed_layer_norm(OnnxBuilder& b, const std::string& in, const std::string& out) {
    for (const char* c : {"two", "eps", "gamma", "beta"})
        b.initializer(c, {});
    b.node("ReduceMean", {in}, {"mean"}, "mean");
    b.node("Sub", {in, "mean"}, {"d"}, "centre");
    b.node("Pow", {"d", "two"}, {"d2"}, "square");
    b.node("ReduceMean", {"d2"}, {"var"}, "variance");
    b.node("Add", {"var", "eps"}, {"ve"}, "epsilon");
    b.node("Sqrt", {"ve"}, {"sd"}, "root");
    b.node("Div", {"d", "sd"}, {"n"}, "normalise");
    b.node("Mul", {"n", "gamma"}, {"ns"}, "scale");
    b.node("Add", {"ns", "beta"}, {out}, "shift");
}

// x -> Conv -> BatchNormalization -> act, returning the act's output name.
std::string conv_bn(OnnxBuilder& b, const std::string& in, const std::string& prefix,
                    const char* act) {
    b.initializer(prefix + "w", {4, 4, 3, 3});
    auto& conv = b.node("Conv", {in, prefix + "w"}, {prefix + "c"}, prefix + "conv");
    OnnxBuilder::set_ints(conv, "pads", {1, 1, 1, 1});
    for (const char* p : {"s", "b", "m", "v"})
        b.initializer(prefix + p, {4});
    b.node("BatchNormalization",
           {prefix + "c", prefix + "s", prefix + "b", prefix + "m", prefix + "v"}, {prefix + "n"},
           prefix + "bn");
    if (!act)
        return prefix + "n";
    b.node(act, {prefix + "n"}, {prefix + "a"}, prefix + "act");
    return prefix + "a";
}

} // namespace

class RuleEngineTest : public QObject {
    Q_OBJECT

private slots:
    void opsNoRuleNamesAreReportedAndLeftAlone() {
        // Softsign is in no ort-cpu rule: it stays its own kernel and is reported as unknown,
        // while the Conv+BN+Relu before it fuses as usual.
        OnnxBuilder b;
        b.input("x", {1, 4, 8, 8});
        b.node("Softsign", {conv_bn(b, "x", "a", "Relu")}, {"s"}, "softsign");
        b.node("Relu", {"s"}, {"y"}, "relu");
        b.output("y");
        const auto f = fuse(b, "ort-cpu");
        QCOMPARE(f.groups(), (QStringList{"Conv+BatchNormalization+Relu", "Softsign", "Relu"}));
        const auto unmatched =
            cleave::fusion::unmatched_ops(f.model, cleave::fusion::find_fusion_method("ort-cpu"));
        QCOMPARE(unmatched, std::vector<std::string>{"Softsign"});
    }

    void convBatchNormReluIsOneFusedConv() {
        OnnxBuilder b;
        b.input("x", {1, 4, 8, 8});
        b.output(conv_bn(b, "x", "a", "Relu"));
        const auto f = fuse(b, "ort-cpu");
        QCOMPARE(f.groups(), QStringList{"Conv+BatchNormalization+Relu"});
        QCOMPARE(f.types(), QStringList{"FusedConv"});
        QCOMPARE(f.kernels.kernels[0].weight_bytes, std::int64_t(4 * (4 * 4 * 9 + 4 * 4)));
    }

    void activationOfASharedOutputStaysApart() {
        // Conv+BN output read by Sigmoid and Mul (SiLU): the runtime cannot fold the Sigmoid in.
        OnnxBuilder b;
        b.input("x", {1, 4, 8, 8});
        const auto y = conv_bn(b, "x", "a", nullptr);
        b.node("Sigmoid", {y}, {"s"}, "sigmoid");
        b.node("Mul", {y, "s"}, {"out"}, "mul");
        b.output("out");
        const auto f = fuse(b, "ort-cpu");
        QCOMPARE(f.groups(), (QStringList{"Conv+BatchNormalization", "Sigmoid+Mul"}));
        QCOMPARE(f.types(), (QStringList{"Conv", "QuickGelu"}));
    }

    void gatingMulIsNotSilu() {
        // Squeeze-and-excitation: x * sigmoid(z) with z computed from x is not x * sigmoid(x).
        OnnxBuilder b;
        b.input("x", {1, 4, 8, 8});
        b.node("GlobalAveragePool", {"x"}, {"z"}, "pool");
        b.node("Sigmoid", {"z"}, {"s"}, "sigmoid");
        b.node("Mul", {"x", "s"}, {"out"}, "mul");
        b.output("out");
        QCOMPARE(fuse(b, "ort-cpu").groups(), (QStringList{"GlobalAveragePool", "Sigmoid", "Mul"}));
    }

    void loadTimeConstantsJoinTheirConsumer() {
        // ShuffleNet's split point: Shape -> Gather -> Div folded into the Slice that uses it.
        OnnxBuilder b;
        b.input("x", {1, 8, 4, 4});
        b.node("Shape", {"x"}, {"shape"}, "shape");
        b.int64_initializer("one", {1});
        b.int64_initializer("two", {2});
        b.int64_initializer("zero", {0});
        b.node("Gather", {"shape", "one"}, {"c"}, "gather");
        b.node("Div", {"c", "two"}, {"half"}, "div");
        b.node("Slice", {"x", "zero", "half", "one"}, {"out"}, "slice");
        b.output("out");
        const auto f = fuse(b, "ort-cpu");
        QCOMPARE(f.groups(), QStringList{"Shape+Gather+Div+Slice"});
        QCOMPARE(f.types(), QStringList{"Slice"});
    }

    void siblingSlicesBecomeOneSplit() {
        OnnxBuilder b;
        b.input("x", {1, 8, 4, 4});
        b.int64_initializer("zero", {0});
        b.int64_initializer("four", {4});
        b.int64_initializer("eight", {8});
        b.int64_initializer("axis", {1});
        b.node("Slice", {"x", "zero", "four", "axis"}, {"left"}, "left");
        b.node("Slice", {"x", "four", "eight", "axis"}, {"right"}, "right");
        b.node("Add", {"left", "right"}, {"out"}, "add");
        b.output("out");
        const auto f = fuse(b, "ort-cpu");
        QCOMPARE(f.groups(), (QStringList{"Slice+Slice", "Add"}));
        QCOMPARE(f.types().first(), QString("Split"));
    }

    void scalesSharingAComputedConstantJoinTheirMatMul() {
        // Scaled dot-product attention as PyTorch exports it: q and k^T each multiplied by
        // sqrt(1 / sqrt(d)), both scales computed at load time from one Shape. MatMulScaleFusion
        // makes all of it one FusedMatMul (the constants with it).
        OnnxBuilder b;
        b.input("q", {1, 2, 4, 8});
        b.input("kt", {1, 2, 8, 4});
        b.node("Shape", {"q"}, {"shape"}, "shape");
        b.int64_initializer("last", {3});
        b.node("Gather", {"shape", "last"}, {"d"}, "gather");
        OnnxBuilder::set_int(b.node("Cast", {"d"}, {"df"}, "cast"), "to", 1);
        b.node("Sqrt", {"df"}, {"root"}, "root");
        b.node("Reciprocal", {"root"}, {"inverse"}, "inverse");
        b.node("Sqrt", {"inverse"}, {"scale_q"}, "scale_q");
        b.node("Sqrt", {"inverse"}, {"scale_k"}, "scale_k");
        b.node("Mul", {"q", "scale_q"}, {"qs"}, "mul_q");
        b.node("Mul", {"kt", "scale_k"}, {"ks"}, "mul_k");
        b.node("MatMul", {"qs", "ks"}, {"scores"}, "scores");
        b.node("Softmax", {"scores"}, {"y"}, "softmax");
        b.output("y");
        const auto f = fuse(b, "ort-cpu");
        QCOMPARE(f.types(), (QStringList{"FusedMatMul", "Softmax"}));
    }

    void matMulScaledByATensorIsNotFused() {
        OnnxBuilder b;
        b.input("q", {1, 2, 4, 8});
        b.input("kt", {1, 2, 8, 4});
        b.input("gate", {1, 2, 4, 8});
        b.node("Mul", {"q", "gate"}, {"qs"}, "mul_q");
        b.node("MatMul", {"qs", "kt"}, {"y"}, "scores");
        b.output("y");
        QCOMPARE(fuse(b, "ort-cpu").groups(), (QStringList{"Mul", "MatMul"}));
    }

    void biasAddFusesOnlyWithAMatrixOfWeights() {
        // MatMulAddFusion needs Gemm's B, a matrix: a batched product plus a mask stays apart.
        OnnxBuilder b;
        b.input("x", {1, 4, 8});
        b.initializer("w", {8, 6});
        b.initializer("bias", {6});
        b.node("MatMul", {"x", "w"}, {"h"}, "linear");
        b.node("Add", {"h", "bias"}, {"hb"}, "bias_add");
        b.input("kt", {1, 6, 4});
        b.node("MatMul", {"hb", "kt"}, {"s"}, "scores");
        b.initializer("mask", {1, 4, 4});
        b.node("Add", {"s", "mask"}, {"y"}, "mask_add");
        b.output("y");
        QCOMPARE(fuse(b, "ort-cpu").groups(), (QStringList{"MatMul+Add", "MatMul", "Add"}));
    }

    void decomposedLayerNormIsOneLayerNormalization() {
        // LayerNorm as exporters write it below opset 17 (GPT-2), then a product that reads it.
        OnnxBuilder b;
        b.input("x", {1, 4, 8});
        b.initializer("w", {8, 8});
        decomposed_layer_norm(b, "x", "ln");
        b.node("MatMul", {"ln", "w"}, {"y"}, "linear");
        b.output("y");
        const auto f = fuse(b, "ort-cpu");
        QCOMPARE(f.types(), (QStringList{"LayerNormalization", "MatMul"}));
        QCOMPARE(f.groups().front().count('+'), 8);
    }

    void decomposedRmsNormIsOneSimplifiedLayerNormalization() {
        // RMSNorm as Llama-style decoders are exported: x / sqrt(mean(x^2) + eps) * gamma.
        OnnxBuilder b;
        b.input("x", {1, 4, 8});
        for (const char* c : {"two", "eps"})
            b.initializer(c, {});
        b.initializer("gamma", {8});
        b.initializer("w", {8, 8});
        b.node("Pow", {"x", "two"}, {"x2"}, "square");
        b.node("ReduceMean", {"x2"}, {"ms"}, "mean");
        b.node("Add", {"ms", "eps"}, {"mse"}, "epsilon");
        b.node("Sqrt", {"mse"}, {"rms"}, "root");
        b.node("Div", {"x", "rms"}, {"n"}, "normalise");
        b.node("Mul", {"n", "gamma"}, {"ln"}, "scale");
        b.node("MatMul", {"ln", "w"}, {"y"}, "linear");
        b.output("y");
        const auto f = fuse(b, "ort-cpu");
        QCOMPARE(f.types(), (QStringList{"SimplifiedLayerNormalization", "MatMul"}));
        QCOMPARE(f.groups().front(), QString("Pow+ReduceMean+Add+Sqrt+Div+Mul"));
    }

    void aResidualAfterAProductIsNoGemmBias() {
        // MatMulAddFusion takes a bias Gemm broadcasts, not a residual of the product's shape.
        for (const bool bias : {true, false}) {
            OnnxBuilder b;
            b.input("x", {1, 4, 8});
            b.initializer("w", {8, 8});
            b.initializer("b", {8});
            b.node("MatMul", {"x", "w"}, {"p"}, "o_proj");
            b.node("Add", {"p", bias ? "b" : "x"}, {"y"}, bias ? "bias" : "residual");
            b.output("y");
            QCOMPARE(fuse(b, "ort-cpu").groups(),
                     bias ? QStringList{"MatMul+Add"} : (QStringList{"MatMul", "Add"}));
        }
    }

    void aBiasAfterASymbolic3dInputStaysApart() {
        // MatMulAddFusion reshapes a 3-D input around the Gemm with constant shapes: it needs the
        // input's shape at load, which a dim the file leaves symbolic withholds.
        for (const bool symbolic : {true, false}) {
            OnnxBuilder b;
            b.input("x", {symbolic ? -1 : 1, 4, 8});
            b.initializer("w", {8, 8});
            b.initializer("b", {8});
            b.node("MatMul", {"x", "w"}, {"p"}, "q_proj");
            b.node("Add", {"p", "b"}, {"y"}, "bias");
            b.output("y");
            cleave::graph::LoadOptions options;
            options.input_shapes["x"] = {1, 4, 8};
            QCOMPARE(fuse(b, "ort-cpu", options).groups(),
                     symbolic ? (QStringList{"MatMul", "Add"}) : QStringList{"MatMul+Add"});
        }
    }

    void aBiasVectorJoinsMatMulNBits() {
        // MatMulNBitsFusion takes an Add of a bias of shape [N] as the bias input; not a residual.
        for (const bool bias : {true, false}) {
            OnnxBuilder b = cleave::test::GenAiDecoder::microsoft_builder();
            b.input("x", {1, 4, 32});
            b.initializer("b", {32});
            cleave::test::GenAiDecoder::matmul(b, "q_proj", "x", 32, 32, "p");
            b.node("Add", {"p", bias ? "b" : "x"}, {"y"}, "add");
            b.output("y");
            const auto f = fuse(b, "ort-cpu");
            QCOMPARE(f.groups(),
                     bias ? QStringList{"MatMulNBits+Add"} : (QStringList{"MatMulNBits", "Add"}));
        }
    }

    void shapesOfASymbolicInputAreComputedAtRunTime() {
        // The runtime reads the file, where x's first dim is symbolic: Shape(x) runs, whatever
        // Cleave bound; with the dim fixed in the file it folds at load.
        for (const bool symbolic : {true, false}) {
            OnnxBuilder b;
            b.input("x", {symbolic ? -1 : 2, 4});
            b.node("Relu", {"x"}, {"r"}, "relu");
            b.node("Shape", {"x"}, {"s"}, "shape");
            b.node("Reshape", {"r", "s"}, {"y"}, "reshape");
            b.output("y");
            cleave::graph::LoadOptions options;
            options.input_shapes["x"] = {2, 4};
            const auto f = fuse(b, "ort-cpu", options);
            QCOMPARE(f.model.tensors[static_cast<std::size_t>(f.model.inputs[0])].symbolic_in_file,
                     symbolic);
            QCOMPARE(f.groups(), symbolic ? (QStringList{"Relu", "Shape", "Reshape"})
                                          : (QStringList{"Relu", "Shape+Reshape"}));
        }
    }

    void tanhGeluIsOneFastGelu() {
        // 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))) as GPT-2 exports it.
        OnnxBuilder b;
        b.input("x", {1, 4, 8});
        for (const char* c : {"half", "three", "k", "root", "one"})
            b.initializer(c, {});
        b.node("Mul", {"x", "half"}, {"h"}, "half_x");
        b.node("Pow", {"x", "three"}, {"cube"}, "cube");
        b.node("Mul", {"cube", "k"}, {"kc"}, "kc");
        b.node("Add", {"x", "kc"}, {"inner"}, "inner");
        b.node("Mul", {"inner", "root"}, {"scaled"}, "scaled");
        b.node("Tanh", {"scaled"}, {"t"}, "tanh");
        b.node("Add", {"t", "one"}, {"t1"}, "plus_one");
        b.node("Mul", {"h", "t1"}, {"y"}, "product");
        b.output("y");
        const auto f = fuse(b, "ort-cpu");
        QCOMPARE(f.types(), QStringList{"FastGelu"});
        QCOMPARE(f.kernels.kernels.front().nodes.size(), std::size_t(8));
    }

    void fastGeluStopsBeforeAGatedProduct() {
        // Gemma's GeGLU: FastGelu(gate) * up; the product with the up projection runs apart.
        OnnxBuilder b;
        b.input("g", {1, 4, 8});
        b.input("up", {1, 4, 8});
        for (const char* c : {"half", "three", "k", "root", "one"})
            b.initializer(c, {});
        b.node("Mul", {"g", "half"}, {"h"}, "half_x");
        b.node("Pow", {"g", "three"}, {"cube"}, "cube");
        b.node("Mul", {"cube", "k"}, {"kc"}, "kc");
        b.node("Add", {"g", "kc"}, {"inner"}, "inner");
        b.node("Mul", {"inner", "root"}, {"scaled"}, "scaled");
        b.node("Tanh", {"scaled"}, {"t"}, "tanh");
        b.node("Add", {"t", "one"}, {"t1"}, "plus_one");
        b.node("Mul", {"h", "t1"}, {"gelu"}, "product");
        b.node("Mul", {"gelu", "up"}, {"y"}, "gated");
        b.output("y");
        const auto f = fuse(b, "ort-cpu");
        QCOMPARE(f.types(), (QStringList{"FastGelu", "Mul"}));
        QCOMPARE(f.kernels.kernels.front().nodes.size(), std::size_t(8));
    }

    void twoScalesOfAProductAreOneFusedMatMul() {
        // Gemma 2's attention: the scores scaled, then divided by the soft cap.
        OnnxBuilder b;
        b.input("q", {1, 2, 4, 8});
        b.input("k", {1, 2, 8, 4});
        for (const char* c : {"scale", "cap"})
            b.initializer(c, {});
        b.node("MatMul", {"q", "k"}, {"s"}, "scores");
        b.node("Mul", {"s", "scale"}, {"ss"}, "scale");
        b.node("Div", {"ss", "cap"}, {"c"}, "softcap");
        b.node("Tanh", {"c"}, {"y"}, "tanh");
        b.output("y");
        QCOMPARE(fuse(b, "ort-cpu").groups(), (QStringList{"MatMul+Mul+Div", "Tanh"}));
    }

    void contiguousReshapesAreOne() {
        OnnxBuilder b;
        b.input("x", {1, 4, 6});
        b.int64_initializer("flat", {1, 24});
        b.int64_initializer("heads", {1, 4, 2, 3});
        b.node("Reshape", {"x", "flat"}, {"f"}, "flatten");
        b.node("Reshape", {"f", "heads"}, {"h"}, "split_heads");
        b.node("Relu", {"h"}, {"y"}, "relu");
        b.output("y");
        QCOMPARE(fuse(b, "ort-cpu").groups(), (QStringList{"Reshape+Reshape", "Relu"}));
    }

    void castToItsOwnTypeJoinsItsConsumer() {
        OnnxBuilder b;
        b.input("s", {1, 2, 4, 4});
        b.input("v", {1, 2, 4, 8});
        b.node("Softmax", {"s"}, {"p"}, "softmax");
        OnnxBuilder::set_int(b.node("Cast", {"p"}, {"pf"}, "cast"), "to", 1);
        b.node("MatMul", {"pf", "v"}, {"y"}, "context");
        b.output("y");
        QCOMPARE(fuse(b, "ort-cpu").groups(), (QStringList{"Softmax", "Cast+MatMul"}));
    }

    void convScaledPerChannelFoldsIntoItsWeights() {
        // A layer scale (one constant per channel) after Conv + BN; a Mul by a computed tensor
        // (squeeze-and-excitation) stays a kernel of its own.
        OnnxBuilder b;
        b.input("x", {1, 4, 8, 8});
        b.initializer("gamma", {4, 1, 1});
        b.node("Mul", {"gamma", conv_bn(b, "x", "a", nullptr)}, {"scaled"}, "layer_scale");
        b.input("gate", {1, 4, 8, 8});
        b.node("Mul", {conv_bn(b, "scaled", "b", nullptr), "gate"}, {"y"}, "gated");
        b.output("y");
        QCOMPARE(fuse(b, "ort-cpu").groups(),
                 (QStringList{"Conv+BatchNormalization+Mul", "Conv+BatchNormalization", "Mul"}));
    }

    void transposeBackToChannelsFirstRunsWithItsLayerScale() {
        // ConvNeXt: NHWC -> NCHW, then a scale per channel, one kernel once ONNX Runtime's layout
        // transformer has pushed the Transpose through the Mul; a scale by one value is not.
        OnnxBuilder b;
        b.input("x", {1, 8, 8, 4});
        b.initializer("gamma", {4, 1, 1});
        b.initializer("half", {});
        OnnxBuilder::set_ints(b.node("Transpose", {"x"}, {"t"}, "to_nchw"), "perm", {0, 3, 1, 2});
        b.node("Mul", {"t", "gamma"}, {"scaled"}, "layer_scale");
        OnnxBuilder::set_ints(b.node("Transpose", {"scaled"}, {"u"}, "to_nhwc"), "perm",
                              {0, 2, 3, 1});
        b.node("Mul", {"u", "half"}, {"y"}, "half");
        b.output("y");
        QCOMPARE(fuse(b, "ort-cpu").groups(), (QStringList{"Transpose+Mul", "Transpose", "Mul"}));
        // A last stage: the scaled map only reaches a pool, no Transpose to cancel with, so the
        // layout transformer leaves the Transpose where it is.
        OnnxBuilder c;
        c.input("x", {1, 8, 8, 4});
        c.input("r", {1, 4, 8, 8});
        c.initializer("gamma", {4, 1, 1});
        OnnxBuilder::set_ints(c.node("Transpose", {"x"}, {"t"}, "to_nchw"), "perm", {0, 3, 1, 2});
        c.node("Mul", {"gamma", "t"}, {"scaled"}, "layer_scale");
        c.node("Add", {"scaled", "r"}, {"sum"}, "residual");
        c.node("GlobalAveragePool", {"sum"}, {"y"}, "pool");
        c.output("y");
        QCOMPARE(fuse(c, "ort-cpu").groups(),
                 (QStringList{"Transpose", "Mul", "Add", "GlobalAveragePool"}));
    }

    void equalConstantsShareOneThatRunsInNoKernel() {
        // Eight Reshapes, each between two Relus, each with a shape target of its own: two sets of
        // four equal ones. ONNX Runtime 1.30 (BASIC and above) kept c6_gdga of the first and
        // c7_dhhd of the second, each then read by four kernels and so run in none; the others
        // go with their own Reshape.
        OnnxBuilder b;
        b.input("x", {1, 32});
        const std::vector<std::string> names{"c0_cbeb", "c1_hhhg", "c2_dbha", "c3_ggah",
                                             "c4_edbf", "c5_aaaa", "c6_gdga", "c7_dhhd"};
        std::string prev = "x";
        for (std::size_t i = 0; i < names.size(); ++i) {
            auto& c = b.node("Constant", {}, {names[i]}, names[i] + "_node");
            auto* value = c.add_attribute();
            value->set_name("value");
            value->set_type(onnx::AttributeProto::TENSOR);
            auto* t = value->mutable_t();
            t->set_data_type(onnx::TensorProto::INT64);
            const std::vector<std::int64_t> shape =
                i % 2 == 0 ? std::vector<std::int64_t>{1, 8, 4} : std::vector<std::int64_t>{1, 32};
            t->add_dims(static_cast<std::int64_t>(shape.size()));
            for (const auto d : shape)
                t->add_int64_data(d);
            const auto n = std::to_string(i);
            b.node("Reshape", {prev, names[i]}, {"r" + n}, "reshape" + n);
            b.node("Relu", {"r" + n}, {"y" + n}, "relu" + n);
            prev = "y" + n;
        }
        b.output(prev);
        const auto f = fuse(b, "ort-cpu");
        QStringList apart;
        for (std::size_t e = 0; e < f.kernels.edges.size(); ++e) {
            const auto& from = f.model.nodes[static_cast<std::size_t>(f.kernels.edges[e].from)];
            if (from.op == "Constant" && !f.kernels.fused[e])
                apart << QString::fromStdString(from.name);
        }
        QCOMPARE(apart, (QStringList{"c6_gdga_node", "c7_dhhd_node"}));
        // Costs and drawing keep each with its own Reshape: 16 kernels, no Constant alone.
        QCOMPARE(f.kernels.kernels.size(), std::size_t{16});
    }

    void reshapeMovingOnlyUnitDimsMergesTheTransposesAroundIt() {
        // MaxViT's last stage, a window the whole 7 x 7 map: the departition's Transpose, its
        // Reshape to NCHW and the next partition's Reshape (one Reshape, same rank, only dims of
        // size 1 moved) and that partition's Transpose run as one Transpose.
        OnnxBuilder b;
        b.input("x", {1, 1, 1, 7, 7, 8});
        b.int64_initializer("nchw", {1, 8, 7, 7});
        b.int64_initializer("grid", {1, 8, 7, 1, 7, 1});
        OnnxBuilder::set_ints(b.node("Transpose", {"x"}, {"d"}, "departition"), "perm",
                              {0, 5, 1, 3, 2, 4});
        b.node("Reshape", {"d", "nchw"}, {"m"}, "to_map");
        b.node("Reshape", {"m", "grid"}, {"g"}, "to_grid");
        OnnxBuilder::set_ints(b.node("Transpose", {"g"}, {"p"}, "partition"), "perm",
                              {0, 2, 4, 3, 5, 1});
        b.node("Relu", {"p"}, {"y"}, "relu");
        b.output("y");
        QCOMPARE(fuse(b, "ort-cpu").groups(),
                 (QStringList{"Transpose+Reshape+Reshape+Transpose", "Relu"}));
        // A Reshape that changes the rank is no Transpose: it stays apart.
        OnnxBuilder c;
        c.input("x", {1, 1, 1, 7, 7, 8});
        c.int64_initializer("nchw", {1, 8, 7, 7});
        OnnxBuilder::set_ints(c.node("Transpose", {"x"}, {"d"}, "departition"), "perm",
                              {0, 5, 1, 3, 2, 4});
        c.node("Reshape", {"d", "nchw"}, {"m"}, "to_map");
        c.node("Relu", {"m"}, {"y"}, "relu");
        c.output("y");
        QCOMPARE(fuse(c, "ort-cpu").groups(), (QStringList{"Transpose", "Reshape", "Relu"}));
    }

    void attentionTransposesAndHeadReshapesRunInTheMatMul() {
        // torchvision's attention: q and k each a Transpose (L, N*H, d) -> (N*H, L, d), a Reshape
        // of the batch dims to (N, H, L, d), k a Transpose of the last two, both scaled, then the
        // product: one FusedMatMul; the Reshape that split the heads stays a kernel.
        OnnxBuilder b;
        b.input("q", {16, 1, 32});
        b.input("k", {16, 4, 8});
        b.int64_initializer("heads", {16, 4, 8});
        b.int64_initializer("batch", {1, 4, 16, 8});
        b.initializer("scale", {});
        b.node("Reshape", {"q", "heads"}, {"qh"}, "split_heads");
        OnnxBuilder::set_ints(b.node("Transpose", {"qh"}, {"qt"}, "q_t"), "perm", {1, 0, 2});
        b.node("Reshape", {"qt", "batch"}, {"qb"}, "q_batch");
        b.node("Mul", {"qb", "scale"}, {"qs"}, "q_scale");
        OnnxBuilder::set_ints(b.node("Transpose", {"k"}, {"kt"}, "k_t"), "perm", {1, 0, 2});
        b.node("Reshape", {"kt", "batch"}, {"kb"}, "k_batch");
        OnnxBuilder::set_ints(b.node("Transpose", {"kb"}, {"kT"}, "k_T"), "perm", {0, 1, 3, 2});
        b.node("Mul", {"kT", "scale"}, {"ks"}, "k_scale");
        b.node("MatMul", {"qs", "ks"}, {"y"}, "scores");
        b.output("y");
        const auto f = fuse(b, "ort-cpu");
        QCOMPARE(f.groups(),
                 (QStringList{"Reshape",
                              "Transpose+Reshape+Mul+Transpose+Reshape+Transpose+Mul+MatMul"}));
        QCOMPARE(f.types().back(), QString("FusedMatMul"));
        // A Transpose that splits the batch dims (BERT's (0, 2, 1, 3)) stays apart.
        OnnxBuilder c;
        c.input("q", {1, 16, 4, 8});
        c.input("k", {1, 4, 8, 16});
        OnnxBuilder::set_ints(c.node("Transpose", {"q"}, {"qt"}, "q_t"), "perm", {0, 2, 1, 3});
        c.node("MatMul", {"qt", "k"}, {"y"}, "scores");
        c.output("y");
        QCOMPARE(fuse(c, "ort-cpu").groups(), (QStringList{"Transpose", "MatMul"}));
    }

    void transposeOfGathersMovesPastTheirSplit() {
        // Swin's q, k, v: the Transpose of the stacked projections moves past the Split the
        // Gathers become; k's own Transpose takes the one moved onto it and no longer folds into
        // the product.
        OnnxBuilder b;
        b.input("qkv", {4, 16, 3, 2, 8});
        for (const char* i : {"i0", "i1", "i2"})
            b.initializer(i, {}, onnx::TensorProto::INT64, 8);
        OnnxBuilder::set_ints(b.node("Transpose", {"qkv"}, {"t"}, "permute"), "perm",
                              {2, 0, 3, 1, 4});
        b.node("Gather", {"t", "i0"}, {"q"}, "q");
        b.node("Gather", {"t", "i1"}, {"k"}, "k");
        b.node("Gather", {"t", "i2"}, {"v"}, "v");
        OnnxBuilder::set_ints(b.node("Transpose", {"k"}, {"kT"}, "k_T"), "perm", {0, 1, 3, 2});
        b.node("MatMul", {"q", "kT"}, {"s"}, "scores");
        b.node("MatMul", {"s", "v"}, {"y"}, "context");
        b.output("y");
        QCOMPARE(fuse(b, "ort-cpu").groups(), (QStringList{"Transpose+Gather", "Gather+Transpose",
                                                           "Gather", "MatMul", "MatMul"}));
    }

    void transposeOfAnUnbindMovesPastItsSplit() {
        // timm's Swin takes q, k, v apart with unbind: a Split and a Squeeze of each part. The
        // Transpose runs with the Split; the one moved onto k merges into k's own Transpose,
        // whose merged permutation [0, 2, 3, 1] no MatMul takes, so it runs alone.
        OnnxBuilder b;
        b.input("qkv", {4, 16, 3, 2, 8});
        b.int64_initializer("sizes", {1, 1, 1});
        b.int64_initializer("axes", {0});
        OnnxBuilder::set_ints(b.node("Transpose", {"qkv"}, {"t"}, "permute"), "perm",
                              {2, 0, 3, 1, 4});
        b.node("Split", {"t", "sizes"}, {"q3", "k3", "v3"}, "unbind");
        b.node("Squeeze", {"q3", "axes"}, {"q"}, "q");
        b.node("Squeeze", {"k3", "axes"}, {"k"}, "k");
        b.node("Squeeze", {"v3", "axes"}, {"v"}, "v");
        OnnxBuilder::set_ints(b.node("Transpose", {"k"}, {"kT"}, "k_T"), "perm", {0, 1, 3, 2});
        b.node("MatMul", {"q", "kT"}, {"s"}, "scores");
        b.node("MatMul", {"s", "v"}, {"y"}, "context");
        b.output("y");
        QCOMPARE(fuse(b, "ort-cpu").groups(),
                 (QStringList{"Transpose+Split", "Squeeze", "Squeeze", "Squeeze", "Transpose",
                              "MatMul", "MatMul"}));

        // Without the unbind k's Transpose folds into the product as before.
        OnnxBuilder c;
        c.input("q", {4, 2, 16, 8});
        c.input("k", {4, 2, 16, 8});
        OnnxBuilder::set_ints(c.node("Transpose", {"k"}, {"kT"}, "k_T"), "perm", {0, 1, 3, 2});
        c.node("MatMul", {"q", "kT"}, {"y"}, "scores");
        c.output("y");
        QCOMPARE(fuse(c, "ort-cpu").groups(), (QStringList{"Transpose+MatMul"}));
    }

    void transposeMovesPastASplitReshapeIntoTheNextTranspose() {
        // MaxViT's departition: swap, split the dims, permute: the swap runs with the Reshape.
        OnnxBuilder b;
        b.input("x", {1, 4, 16, 8});
        b.int64_initializer("windows", {1, 16, 2, 2, 8});
        OnnxBuilder::set_ints(b.node("Transpose", {"x"}, {"s"}, "swap"), "perm", {0, 2, 1, 3});
        b.node("Reshape", {"s", "windows"}, {"w"}, "split");
        OnnxBuilder::set_ints(b.node("Transpose", {"w"}, {"p"}, "permute"), "perm",
                              {0, 4, 1, 2, 3});
        b.node("Relu", {"p"}, {"y"}, "relu");
        b.output("y");
        QCOMPARE(fuse(b, "ort-cpu").groups(),
                 (QStringList{"Transpose+Reshape", "Transpose", "Relu"}));
    }

    void residualAddJoinsOnlyA3dLayerNorm() {
        // SkipLayerNormalization needs 3-D inputs: a residual sum read by a decomposed LayerNorm
        // (its mean and its difference) joins it; a 4-D one (Swin's last norm) stays apart.
        for (const int rank : {3, 4}) {
            OnnxBuilder b;
            const std::vector<std::int64_t> dims = rank == 3
                                                       ? std::vector<std::int64_t>{1, 4, 8}
                                                       : std::vector<std::int64_t>{1, 2, 2, 8};
            b.input("x", dims);
            b.input("r", dims);
            b.node("Add", {"x", "r"}, {"sum"}, "residual");
            decomposed_layer_norm(b, "sum", "y");
            b.output("y");
            const auto f = fuse(b, "ort-cpu");
            if (rank == 3)
                QCOMPARE(f.types(), QStringList{"SkipLayerNormalization"});
            else
                QCOMPARE(f.types(), (QStringList{"Add", "LayerNormalization"}));
        }
    }

    void mergeThatWouldMakeACycleIsRefused() {
        // conv -> relu -> add and conv -> add: conv and add in one kernel, relu outside it, would
        // be a cycle; with relu inside it is fine.
        OnnxBuilder b;
        b.input("x", {1, 4, 8, 8});
        b.initializer("w", {4, 4, 1, 1});
        b.node("Conv", {"x", "w"}, {"c"}, "conv");
        b.node("Relu", {"c"}, {"r"}, "relu");
        b.node("Add", {"c", "r"}, {"out"}, "add");
        b.output("out");
        const Model model = load_model_from_bytes(b.bytes(), "cycle.onnx");
        cleave::fusion::NodeGroups groups(model);
        QVERIFY(!groups.merge(0, 2));
        QVERIFY(groups.find(0) != groups.find(2));
        QVERIFY(groups.merge(0, 1));
        QVERIFY(groups.merge(1, 2));
        QCOMPARE(groups.members(groups.find(0)), (std::vector<int>{0, 1, 2}));
    }

    void resnet18MatchesTheRuntimesFortyKernels() {
        const Model model =
            cleave::graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
        const auto kernels = fuse_with_rules(model, find_rule_set("ort-cpu"));
        QCOMPARE(kernels.kernels.size(), std::size_t(40));
        std::map<std::string, int> types;
        for (const auto& k : kernels.kernels)
            ++types[k.type];
        QCOMPARE(types["FusedConv"], 9); // conv + bn + relu
        QCOMPARE(types["Conv"], 11);     // conv + bn before a residual add
        QCOMPARE(types["Add"], 8);
        std::int64_t macs = 0;
        for (const auto& k : kernels.kernels)
            macs += k.macs;
        QCOMPARE(macs, model.macs);
    }
};

QTEST_GUILESS_MAIN(RuleEngineTest)
#include "rule_engine_test.moc"
