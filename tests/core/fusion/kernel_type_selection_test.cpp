// Kernel types picked once kernels are formed, on a rule set made here: its GPU families and the
// choice of one, the Winograd test's rounded-up slices and tiles, and the type of a kernel
// anchored at a convolution (depthwise, grouped, Winograd, direct) or at anything else.
#include "../graph/onnx_builder.hpp"
#include "core/fusion/kernel_type_selection.hpp"
#include "core/fusion/rule_engine.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"

#include <QtTest>

using namespace cleave;
using namespace cleave::fusion;
using cleave::test::OnnxBuilder;

namespace {

RuleSet typed_rules() {
    ConvKernelTypes types;
    types.ops = {"Conv"};
    types.depthwise = "Depthwise";
    types.grouped = "Grouped";
    types.winograd = "Winograd";
    types.direct = "Direct";
    types.unsupported = "Unsupported";
    types.grouped_multiple = 4;
    types.default_gpu_family = "small";
    types.winograd_thresholds = {{"small", {2, 2, 16}}, {"big", {4, 4, 64}}};
    RuleSet rules;
    rules.name = "typed";
    rules.conv_kernel_types = types;
    return rules;
}

struct Conv {
    std::int64_t in = 8, out = 8, size = 16; // input channels, output channels, height = width
    std::int64_t kernel = 3, stride = 1, group = 1;
    bool weights_from_input = false;   // a run-time tensor rather than an initializer
    bool weights_through_node = false; // an initializer passed through an Identity
};

// One convolution whose padding keeps the size at stride 1.
graph::Model conv_model(const Conv& c) {
    OnnxBuilder b;
    b.input("x", {1, c.in, c.size, c.size});
    const std::vector<std::int64_t> w{c.out, c.in / c.group, c.kernel, c.kernel};
    if (c.weights_from_input)
        b.input("w", w);
    else
        b.initializer(c.weights_through_node ? "w0" : "w", w);
    if (c.weights_through_node)
        b.node("Identity", {"w0"}, {"w"}, "weights");
    auto& conv = b.node("Conv", {"x", "w"}, {"y"}, "conv");
    const auto pad = (c.kernel - 1) / 2;
    OnnxBuilder::set_ints(conv, "pads", {pad, pad, pad, pad});
    OnnxBuilder::set_ints(conv, "strides", {c.stride, c.stride});
    OnnxBuilder::set_int(conv, "group", c.group);
    b.output("y");
    return graph::load_model_from_bytes(b.bytes(), "conv.onnx");
}

std::string type_of(const Conv& c, const RuleSet& rules = typed_rules()) {
    const auto model = conv_model(c);
    return anchor_kernel_type(model, model.find_node("conv"), rules, load_time_constants(model));
}

std::string error_of(RuleSet rules, const std::string& family) {
    try {
        choose_gpu_family(rules, family);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

class KernelTypeSelectionTest : public QObject {
    Q_OBJECT

private slots:
    void familiesAreListedSorted() {
        QCOMPARE(gpu_families(typed_rules()), (std::vector<std::string>{"big", "small"}));
        QVERIFY(gpu_families(RuleSet{}).empty());
    }

    void aFamilyIsChosenByName() {
        auto rules = typed_rules();
        choose_gpu_family(rules, "big");
        QCOMPARE(rules.gpu_family, std::string("big"));
        QCOMPARE(error_of(typed_rules(), "huge"),
                 std::string("--gpu-family: huge: no such GPU family; expected one of big, small"));
        RuleSet untyped;
        untyped.name = "ort-cpu";
        QVERIFY(
            error_of(untyped, "big")
                .starts_with("--gpu-family: big: rule set ort-cpu types no kernels by GPU family"));
    }

    void winogradCountsWholeSlicesAndTiles() {
        const WinogradThresholds t{2, 2, 16};
        QVERIFY(winograd_recommended(t, 8, 8, 16, 16));  // 2 and 2 slices, 4 x 4 tiles
        QVERIFY(winograd_recommended(t, 5, 5, 13, 13));  // rounded up: the same counts
        QVERIFY(!winograd_recommended(t, 4, 8, 16, 16)); // one source slice
        QVERIFY(!winograd_recommended(t, 8, 4, 16, 16)); // one destination slice
        QVERIFY(!winograd_recommended(t, 8, 8, 12, 16)); // 3 x 4 tiles
        QVERIFY(winograd_recommended(t, 8, 8, 4, 64));   // 1 x 16 tiles
    }

    void convolutionsByShape() {
        QCOMPARE(type_of({}), std::string("Winograd")); // past the default family's thresholds
        QCOMPARE(type_of({.in = 4}), std::string("Direct"));
        QCOMPARE(type_of({.stride = 2}), std::string("Direct"));
        QCOMPARE(type_of({.kernel = 1}), std::string("Direct"));
        QCOMPARE(type_of({.kernel = 5}), std::string("Direct"));
        QCOMPARE(type_of({.group = 8}), std::string("Depthwise"));
        QCOMPARE(type_of({.out = 16, .group = 8}), std::string("Unsupported")); // a multiplier of 2
        QCOMPARE(type_of({.in = 16, .out = 16, .group = 4}), std::string("Grouped"));
        QCOMPARE(type_of({.in = 16, .out = 16, .group = 8}),
                 std::string("Unsupported")); // 2 a group
    }

    void theChosenFamilysThresholdsApply() {
        auto rules = typed_rules();
        choose_gpu_family(rules, "big");
        QCOMPARE(type_of({}, rules), std::string("Direct"));
        QCOMPARE(type_of({.in = 16, .out = 16, .size = 32}, rules), std::string("Winograd"));
        rules.gpu_family = "gone"; // a family the section lacks: its default stands in
        QCOMPARE(type_of({}, rules), std::string("Winograd"));
        rules.conv_kernel_types->default_gpu_family = "gone too";
        QCOMPARE(type_of({}, rules), std::string("Conv"));
    }

    void weightsMustBeKnownAtLoadTime() {
        QCOMPARE(type_of({.weights_from_input = true}), std::string("Conv"));
        QCOMPARE(type_of({.weights_through_node = true}), std::string("Winograd"));
    }

    void opsTheSectionDoesNotTypeKeepTheirOp() {
        const auto model = conv_model({});
        const auto constant = load_time_constants(model);
        QCOMPARE(anchor_kernel_type(model, 0, RuleSet{}, constant), std::string("Conv"));
        auto rules = typed_rules();
        rules.conv_kernel_types->ops = {"ConvTranspose"};
        QCOMPARE(anchor_kernel_type(model, 0, rules, constant), std::string("Conv"));
    }
};

QTEST_GUILESS_MAIN(KernelTypeSelectionTest)
#include "kernel_type_selection_test.moc"
