// The tflite-gpu rule set against the TFLite GPU delegate: one tiny model per condition of its
// merge rule (Li, Paolieri, Golubchik, ICPE'23 Alg. 3.1) and of its convolution kernel choice
// (Alg. 3.2), on both sides of every GPU family's Winograd thresholds.
#include "core/fusion/kernel_type_selection.hpp"
#include "core/fusion/rule_engine.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "fusion_fixtures.hpp"

#include <QtTest>

using cleave::fusion::find_rule_set;
using cleave::fusion::fuse_with_rules;
using cleave::fusion::KernelGraph;
using cleave::fusion::RuleSet;
using cleave::graph::load_model_from_bytes;
using cleave::graph::Model;
using cleave::test::Fused;
using cleave::test::OnnxBuilder;

namespace {

Fused fuse(const OnnxBuilder& b, const std::string& family = "adreno6xx") {
    RuleSet rules = find_rule_set("tflite-gpu");
    cleave::fusion::choose_gpu_family(rules, family);
    Fused f{load_model_from_bytes(b.bytes(), "tflite.onnx"), {}};
    f.kernels = fuse_with_rules(f.model, rules);
    return f;
}

// x [1, 4, 8, 8] -> 1x1 Conv -> c: the producer of the merge cases.
OnnxBuilder conv_model() {
    OnnxBuilder b;
    b.input("x", {1, 4, 8, 8});
    b.initializer("w", {4, 4, 1, 1});
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    return b;
}

struct ConvShape {
    std::int64_t in = 4, out = 4, height = 8, width = 8; // input size; padding keeps it
    std::int64_t kernel = 3, stride = 1, dilation = 1, group = 1;
};

// One convolution whose "same" padding makes the output as large as the input at stride 1.
OnnxBuilder single_conv(const ConvShape& s) {
    OnnxBuilder b;
    b.input("x", {1, s.in, s.height, s.width});
    b.initializer("w", {s.out, s.in / s.group, s.kernel, s.kernel});
    auto& conv = b.node("Conv", {"x", "w"}, {"y"}, "conv");
    const std::int64_t pad = s.dilation * (s.kernel - 1) / 2;
    OnnxBuilder::set_ints(conv, "pads", {pad, pad, pad, pad});
    OnnxBuilder::set_ints(conv, "strides", {s.stride, s.stride});
    OnnxBuilder::set_ints(conv, "dilations", {s.dilation, s.dilation});
    OnnxBuilder::set_int(conv, "group", s.group);
    b.output("y");
    return b;
}

QString conv_type(const ConvShape& s, const std::string& family) {
    return fuse(single_conv(s), family).types().first();
}

} // namespace

class TfliteGpuRulesTest : public QObject {
    Q_OBJECT

private slots:
    // Alg. 3.1: u links v when u has one output, read only by v, as v's first run-time input,
    // v is elementwise and v's other inputs are already computed.
    void mergesALinkableConsumerOfItsOnlyOutput() {
        OnnxBuilder b = conv_model();
        b.node("Relu", {"c"}, {"out"}, "relu");
        b.output("out");
        const auto f = fuse(b);
        QCOMPARE(f.groups(), QStringList{"Conv+Relu"});
        QCOMPARE(f.types(), QStringList{"Conv2D"});
    }

    void keepsAnOutputWithTwoConsumersApart() {
        OnnxBuilder b = conv_model();
        b.node("Relu", {"c"}, {"r"}, "relu");
        b.node("Sigmoid", {"c"}, {"s"}, "sigmoid");
        b.output("r");
        b.output("s");
        QCOMPARE(fuse(b).groups(), (QStringList{"Conv", "Relu", "Sigmoid"}));
    }

    void keepsAnOutputReadTwiceApart() {
        // The delegate counts readers per input slot: Mul(c, c) reads c twice.
        OnnxBuilder b = conv_model();
        b.node("Mul", {"c", "c"}, {"out"}, "square");
        b.output("out");
        QCOMPARE(fuse(b).groups(), (QStringList{"Conv", "Mul"}));
    }

    void keepsASecondInputApart() {
        OnnxBuilder b = conv_model();
        b.node("Sub", {"x", "c"}, {"out"}, "sub");
        b.output("out");
        QCOMPARE(fuse(b).groups(), (QStringList{"Conv", "Sub"}));
    }

    void keepsANonLinkableConsumerApart() {
        OnnxBuilder b = conv_model();
        b.node("Conv", {"c", "w"}, {"d"}, "conv2");
        auto& pool = b.node("MaxPool", {"d"}, {"out"}, "pool");
        OnnxBuilder::set_ints(pool, "kernel_shape", {2, 2});
        b.output("out");
        QCOMPARE(fuse(b).groups(), (QStringList{"Conv", "Conv", "MaxPool"}));
    }

    void keepsAMultiOutputProducerApart() {
        OnnxBuilder b;
        b.input("x", {1, 8, 4, 4});
        auto& split = b.node("Split", {"x"}, {"a", "b2"}, "split");
        OnnxBuilder::set_int(split, "axis", 1);
        b.node("Relu", {"a"}, {"r"}, "relu");
        b.node("Add", {"r", "b2"}, {"out"}, "add");
        b.output("out");
        QCOMPARE(fuse(b).groups(), (QStringList{"Split", "Relu+Add"}));
    }

    void keepsAGraphOutputApart() {
        OnnxBuilder b = conv_model();
        b.node("Relu", {"c"}, {"out"}, "relu");
        b.output("c");
        b.output("out");
        QCOMPARE(fuse(b).groups(), (QStringList{"Conv", "Relu"}));
    }

    void foldsAChainOfThreeLinkablesIntoOne() {
        OnnxBuilder b = conv_model();
        b.node("Relu", {"c"}, {"r"}, "relu");
        b.node("Sigmoid", {"r"}, {"s"}, "sigmoid");
        b.node("Tanh", {"s"}, {"out"}, "tanh");
        b.output("out");
        QCOMPARE(fuse(b).groups(), QStringList{"Conv+Relu+Sigmoid+Tanh"});
    }

    void constantOperandsAreNotInputs() {
        // The delegate makes a constant operand an attribute: c is Mul's first run-time input.
        OnnxBuilder b = conv_model();
        b.initializer("scale", {1, 4, 1, 1});
        b.node("Mul", {"scale", "c"}, {"out"}, "mul");
        b.output("out");
        QCOMPARE(fuse(b).groups(), QStringList{"Conv+Mul"});
    }

    void addTakesTheInputComputedLastFirst() {
        // Add is associative: the delegate moves the newest input (c, not the graph input x)
        // to the front, so c links although the model lists it second.
        OnnxBuilder b = conv_model();
        b.node("Add", {"x", "c"}, {"out"}, "add");
        b.output("out");
        QCOMPARE(fuse(b).groups(), QStringList{"Conv+Add"});
    }

    void broadcastAddKeepsItsOrder() {
        OnnxBuilder b = conv_model();
        b.input("bias", {1, 4, 1, 1});
        b.node("Add", {"bias", "c"}, {"out"}, "add");
        b.output("out");
        QCOMPARE(fuse(b).groups(), (QStringList{"Conv", "Add"}));
    }

    void waitsForAnOtherInputComputedLater() {
        // Sub(c1, c2) with c2 computed after conv1: when conv1 is linked, c2 is not ready.
        OnnxBuilder b = conv_model();
        b.initializer("w2", {4, 4, 1, 1});
        b.node("Conv", {"x", "w2"}, {"c2"}, "conv2");
        b.node("Sub", {"c", "c2"}, {"out"}, "sub");
        b.output("out");
        QCOMPARE(fuse(b).groups(), (QStringList{"Conv", "Conv", "Sub"}));
    }

    void residualAddLinksIntoTheLaterBranch() {
        // ResNet's downsampling block: the shortcut conv runs after the main branch, so the Add
        // (and its Relu) join the shortcut's kernel.
        OnnxBuilder b = conv_model();
        b.initializer("w2", {4, 4, 1, 1});
        b.node("Conv", {"x", "w2"}, {"c2"}, "shortcut");
        b.node("Add", {"c", "c2"}, {"a"}, "add");
        b.node("Relu", {"a"}, {"out"}, "relu");
        b.output("out");
        QCOMPARE(fuse(b).groups(), (QStringList{"Conv", "Conv+Add+Relu"}));
    }

    void unknownOpStaysApartAsItself() {
        // The delegate does not run an op it does not know: nothing links into it or out of it.
        OnnxBuilder b = conv_model();
        auto* domain = b.model.add_opset_import();
        domain->set_domain("com.example");
        domain->set_version(1);
        b.node("FancyNorm", {"c"}, {"n"}, "fancy").set_domain("com.example");
        b.node("Relu", {"n"}, {"out"}, "relu");
        b.output("out");
        const auto f = fuse(b);
        QCOMPARE(f.groups(), (QStringList{"Conv", "FancyNorm", "Relu"}));
        QCOMPARE(f.types(), (QStringList{"Conv2D", "FancyNorm", "Relu"}));
    }

    // Alg. 3.2: thresholds per family from IsRecommendedForWinograd4x4To6x6, written out here
    // rather than read from the rule file so that a wrong file fails.
    void winogradAtEachThreshold_data() {
        QTest::addColumn<QString>("family");
        QTest::addColumn<int>("src_slices");
        QTest::addColumn<int>("dst_slices");
        QTest::addColumn<int>("tiles");
        QTest::newRow("adreno6xx") << "adreno6xx" << 32 << 32 << 128;
        QTest::newRow("adreno") << "adreno" << 32 << 32 << 64;
        QTest::newRow("amd") << "amd" << 16 << 8 << 32;
        for (const char* family : {"apple", "intel", "mali", "nvidia", "powervr", "other"})
            QTest::newRow(family) << family << 16 << 16 << 32;
    }

    void winogradAtEachThreshold() {
        QFETCH(QString, family);
        QFETCH(int, src_slices);
        QFETCH(int, dst_slices);
        QFETCH(int, tiles);
        const std::string f = family.toStdString();
        // One row of 4x4 output tiles, each threshold met exactly.
        const ConvShape at{4 * src_slices, 4 * dst_slices, 4, 4 * tiles};
        QCOMPARE(conv_type(at, f), QString("Winograd"));

        ConvShape src_below = at;
        src_below.in -= 4;
        QCOMPARE(conv_type(src_below, f), QString("Conv2D"));
        ConvShape dst_below = at;
        dst_below.out -= 4;
        QCOMPARE(conv_type(dst_below, f), QString("Conv2D"));
        ConvShape tiles_below = at;
        tiles_below.width -= 4;
        QCOMPARE(conv_type(tiles_below, f), QString("Conv2D"));

        // Partial slices and tiles count whole: one channel or column past the line below.
        const ConvShape rounded_up{4 * (src_slices - 1) + 1, 4 * (dst_slices - 1) + 1, 4,
                                   4 * (tiles - 1) + 1};
        QCOMPARE(conv_type(rounded_up, f), QString("Winograd"));
    }

    void neverWinogradOutsideThreeByThreeStrideOne_data() {
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::addColumn<int>("dilation");
        QTest::newRow("stride 2") << 3 << 2 << 1;
        QTest::newRow("5x5") << 5 << 1 << 1;
        QTest::newRow("1x1") << 1 << 1 << 1;
        QTest::newRow("dilation 2") << 3 << 1 << 2;
    }

    void neverWinogradOutsideThreeByThreeStrideOne() {
        QFETCH(int, kernel);
        QFETCH(int, stride);
        QFETCH(int, dilation);
        // Far past every family's thresholds: 256 channels, 64x64 output tiles.
        const ConvShape s{256, 256, 256, 256, kernel, stride, dilation, 1};
        for (const char* family : {"adreno6xx", "amd", "mali"})
            QCOMPARE(conv_type(s, family), QString("Conv2D"));
    }

    void winogradRunsAsThreeKernels() {
        // Input transform, batched matmul, output transform.
        const auto f = fuse(single_conv({128, 128, 4, 512}));
        QCOMPARE(f.types(), QStringList{"Winograd"});
        QCOMPARE(f.kernels.kernels[0].launches, 3);
    }

    void depthwiseIsDepthwiseOnEveryFamily() {
        const ConvShape s{256, 256, 256, 256, 3, 1, 1, 256};
        for (const auto& family : cleave::fusion::gpu_families(find_rule_set("tflite-gpu")))
            QCOMPARE(conv_type(s, family), QString("DepthwiseConv2D"));
    }

    void depthwiseWithAChannelMultiplierIsUnsupported() {
        // The delegate takes a depth multiplier other than 1 only for one input channel.
        QCOMPARE(conv_type({8, 16, 8, 8, 3, 1, 1, 8}, "mali"), QString("Unsupported"));
    }

    void groupedConvIsGroupedNotWinograd() {
        QCOMPARE(conv_type({256, 256, 256, 256, 3, 1, 1, 2}, "mali"), QString("GroupedConv2D"));
        QCOMPARE(conv_type({32, 64, 8, 8, 1, 1, 1, 8}, "adreno6xx"), QString("GroupedConv2D"));
    }

    void groupedConvWithUnalignedGroupsIsUnsupported() {
        // 8 groups of 2 input channels: the delegate wants multiples of 4 on both sides.
        QCOMPARE(conv_type({16, 32, 8, 8, 3, 1, 1, 8}, "mali"), QString("Unsupported"));
        QCOMPARE(conv_type({32, 24, 8, 8, 3, 1, 1, 4}, "mali"), QString("Unsupported"));
    }

    void unknownFamilyIsRefused() {
        RuleSet rules = find_rule_set("tflite-gpu");
        QCOMPARE(rules.gpu_family, std::string("adreno6xx"));
        try {
            cleave::fusion::choose_gpu_family(rules, "adreno7");
            QFAIL("accepted");
        } catch (const cleave::InputError& e) {
            QCOMPARE(QString(e.what()),
                     QString("--gpu-family: adreno7: no such GPU family; expected one of adreno, "
                             "adreno6xx, amd, apple, intel, mali, nvidia, other, powervr"));
        }
        RuleSet cpu = find_rule_set("ort-cpu");
        QVERIFY_THROWS_EXCEPTION(cleave::InputError,
                                 cleave::fusion::choose_gpu_family(cpu, "mali"));
    }

    void resnet18IsWinogradOnMaliButNotOnAdreno6xx() {
        // Seven 3x3 stride-1 convs have >= 64 channels and >= 28x28 outputs: enough for Mali
        // (16 slices, 32 tiles), not for Adreno 6xx (32 slices, 128 tiles).
        const Model model =
            cleave::graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
        for (const auto& [family, winograd] : {std::pair{"mali", 7}, std::pair{"adreno6xx", 0}}) {
            RuleSet rules = find_rule_set("tflite-gpu");
            cleave::fusion::choose_gpu_family(rules, family);
            const auto kernels = fuse_with_rules(model, rules);
            std::map<std::string, int> types;
            for (const auto& k : kernels.kernels)
                ++types[k.type];
            QCOMPARE(kernels.kernels.size(), std::size_t(24));
            QCOMPARE(types["Winograd"], winograd);
            QCOMPARE(types["Conv2D"], 20 - winograd);
        }
    }

    void mobilenetV2HasSeventeenDepthwiseKernels() {
        const Model model = cleave::graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) +
                                                      "/mobilenet_v2.onnx");
        const auto kernels = fuse_with_rules(model, find_rule_set("tflite-gpu"));
        std::map<std::string, int> types;
        for (const auto& k : kernels.kernels)
            ++types[k.type];
        QCOMPARE(types["DepthwiseConv2D"], 17);
        QCOMPARE(types["Conv2D"], 35);
        QCOMPARE(types["Winograd"], 0); // its only full 3x3 conv has stride 2
    }
};

QTEST_GUILESS_MAIN(TfliteGpuRulesTest)
#include "tflite_gpu_rules_test.moc"
