// The convolutional blocks of the generated sets, each built alone on a [1, 16, 8, 8] map and
// imported: the nodes each writes in torchvision's order, its output shape as shape inference
// finds it, and its multiply-accumulates worked out by hand.
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/cnn_blocks.hpp"
#include "model_checks.hpp"

#include <QtTest>
#include <functional>

using namespace cleave;
using modelgen::NetBuilder;
using modelgen::Tensor;

namespace {

struct Built {
    graph::Model model;
    std::int64_t macs = 0;
    std::int64_t parameters = 0;
    std::vector<std::int64_t> shape; // as the block declared it
};

// `block` on a [1, 16, 8, 8] input, its result the graph output.
Built build(const std::function<Tensor(NetBuilder&, const Tensor&)>& block,
            std::vector<std::int64_t> input = {1, 16, 8, 8}) {
    NetBuilder b("block", std::move(input), 1);
    const auto y = block(b, b.input());
    b.output(y);
    const std::string bytes = b.model().SerializeAsString();
    return {graph::load_model_from_bytes({bytes.begin(), bytes.end()}, "block.onnx"), b.macs(),
            b.parameters(), y.shape};
}

std::vector<std::string> ops(const graph::Model& m) {
    std::vector<std::string> out;
    for (const auto& node : m.nodes)
        out.push_back(node.op);
    return out;
}

using Ops = std::vector<std::string>;
using Shape = std::vector<std::int64_t>;

// The inferred output shape equals the declared one.
void check_output(const Built& built, const Shape& expected) {
    test::check_shapes(built.model);
    QVERIFY2(built.model.warnings.empty(), test::first_warning(built.model).c_str());
    QCOMPARE(built.shape, expected);
    const auto& out = test::tensor(built.model, built.model.outputs[0]);
    QCOMPARE(out.shape.value_or(graph::Shape{}), graph::Shape(expected.begin(), expected.end()));
}

} // namespace

class CnnBlocksTest : public QObject {
    Q_OBJECT

private slots:
    void channelsRoundToMultiplesOfEight() {
        QCOMPARE(modelgen::divisible(37.5), std::int64_t{40});
        QCOMPARE(modelgen::divisible(100), std::int64_t{104});
        QCOMPARE(modelgen::divisible(20), std::int64_t{24});
        // Never below the divisor, nor more than 10% below the channels asked.
        QCOMPARE(modelgen::divisible(3), std::int64_t{8});
        QCOMPARE(modelgen::divisible(11.9), std::int64_t{16});
        QCOMPARE(modelgen::divisible(39, 16), std::int64_t{48});
        QCOMPARE(modelgen::divisible(44, 16), std::int64_t{48});
    }

    void convBnActIsThreeNodesUnderItsScope() {
        const auto built = build([](NetBuilder& b, const Tensor& x) {
            return modelgen::conv_bn_act(b, x, 32, 3, 2, 1, "Relu", "stem");
        });
        QCOMPARE(ops(built.model), (Ops{"Conv", "BatchNormalization", "Relu"}));
        QVERIFY(built.model.find_node("/stem/conv/Conv") >= 0);
        check_output(built, {1, 32, 4, 4});
        // 32 x 4 x 4 outputs, each 16 x 3 x 3 products; 32 x 16 x 3 x 3 weights and 4 x 32 BN.
        QCOMPARE(built.macs, std::int64_t{32 * 4 * 4 * 16 * 9});
        QCOMPARE(built.parameters, std::int64_t{32 * 16 * 9 + 4 * 32});
        // No activation: two nodes.
        QCOMPARE(ops(build([](NetBuilder& b, const Tensor& x) {
                         return modelgen::conv_bn_act(b, x, 16, 1, 1, 1, "", "proj");
                     }).model),
                 (Ops{"Conv", "BatchNormalization"}));
    }

    void basicBlockProjectsOnlyWhereTheShapeChanges() {
        const auto same = build(
            [](NetBuilder& b, const Tensor& x) { return modelgen::basic_block(b, x, 16, 1, "0"); });
        QCOMPARE(ops(same.model), (Ops{"Conv", "BatchNormalization", "Relu", "Conv",
                                       "BatchNormalization", "Add", "Relu"}));
        check_output(same, {1, 16, 8, 8});
        QCOMPARE(same.macs, std::int64_t{2 * 16 * 8 * 8 * 16 * 9});
        const auto down = build(
            [](NetBuilder& b, const Tensor& x) { return modelgen::basic_block(b, x, 32, 2, "0"); });
        QCOMPARE(down.model.nodes.size(), std::size_t{9});
        QVERIFY(down.model.find_node("/0/downsample/conv/Conv") >= 0);
        check_output(down, {1, 32, 4, 4});
        // conv1 16 -> 32 at stride 2, conv2 32 -> 32, the 1 x 1 projection 16 -> 32.
        QCOMPARE(down.macs, std::int64_t{32 * 4 * 4 * (16 * 9 + 32 * 9 + 16)});
    }

    void bottleneckNarrowsToAQuarter() {
        const auto built = build(
            [](NetBuilder& b, const Tensor& x) { return modelgen::bottleneck(b, x, 64, 1, "0"); });
        // 1 x 1 to 16, 3 x 3, 1 x 1 to 64, the projection, Add, Relu.
        QCOMPARE(built.model.nodes.size(), std::size_t{12});
        check_output(built, {1, 64, 8, 8});
        QCOMPARE(built.macs, std::int64_t{8 * 8 * (16 * 16 + 16 * 16 * 9 + 64 * 16 + 64 * 16)});
    }

    void invertedResidualExpandsFiltersAndProjects() {
        const auto built = build([](NetBuilder& b, const Tensor& x) {
            return modelgen::inverted_residual(b, x, 16, 1, 6, 3, "1");
        });
        QCOMPARE(ops(built.model),
                 (Ops{"Conv", "BatchNormalization", "Clip", "Conv", "BatchNormalization", "Clip",
                      "Conv", "BatchNormalization", "Add"}));
        check_output(built, {1, 16, 8, 8});
        // The depthwise 3 x 3 is grouped by its 96 channels.
        const auto& depthwise = built.model.nodes[3];
        QCOMPARE(depthwise.int_attribute("group", 0), std::int64_t{96});
        QCOMPARE(built.macs, std::int64_t{8 * 8 * (96 * 16 + 96 * 9 + 16 * 96)});
        // Expansion 1 has no expanding conv; a stride or a width change no residual.
        const auto thin = build([](NetBuilder& b, const Tensor& x) {
            return modelgen::inverted_residual(b, x, 24, 2, 1, 5, "2");
        });
        QCOMPARE(ops(thin.model),
                 (Ops{"Conv", "BatchNormalization", "Clip", "Conv", "BatchNormalization"}));
        check_output(thin, {1, 24, 4, 4});
        QCOMPARE(thin.model.nodes[0].ints_attribute("kernel_shape"),
                 (std::vector<std::int64_t>{5, 5}));
    }

    void fireConcatenatesItsTwoExpands() {
        const auto built =
            build([](NetBuilder& b, const Tensor& x) { return modelgen::fire(b, x, 32, "fire2"); });
        QCOMPARE(ops(built.model), (Ops{"Conv", "Relu", "Conv", "Relu", "Conv", "Relu", "Concat"}));
        check_output(built, {1, 32, 8, 8});
        // Squeeze to 8, then 16 by 1 x 1 and 16 by 3 x 3.
        QCOMPARE(built.macs, std::int64_t{8 * 8 * (8 * 16 + 16 * 8 + 16 * 8 * 9)});
    }

    void denseLayerGrowsItsInput() {
        const auto built = build([](NetBuilder& b, const Tensor& x) {
            return modelgen::dense_layer(b, x, 8, "denselayer1");
        });
        QCOMPARE(ops(built.model), (Ops{"BatchNormalization", "Relu", "Conv", "BatchNormalization",
                                        "Relu", "Conv", "Concat"}));
        check_output(built, {1, 24, 8, 8});
        QCOMPARE(built.macs, std::int64_t{8 * 8 * (32 * 16 + 8 * 32 * 9)});
        const auto transition = build([](NetBuilder& b, const Tensor& x) {
            return modelgen::dense_transition(b, x, 8, "transition1");
        });
        QCOMPARE(ops(transition.model), (Ops{"BatchNormalization", "Relu", "Conv", "AveragePool"}));
        check_output(transition, {1, 8, 4, 4});
    }

    void squeezeExcitationGatesTheMap() {
        const auto built = build([](NetBuilder& b, const Tensor& x) {
            return modelgen::squeeze_excitation(b, x, 4, "Relu", "Sigmoid");
        });
        QCOMPARE(ops(built.model),
                 (Ops{"GlobalAveragePool", "Conv", "Relu", "Conv", "Sigmoid", "Mul"}));
        check_output(built, {1, 16, 8, 8});
        QCOMPARE(built.macs, std::int64_t{4 * 16 + 16 * 4});
        QVERIFY(built.model.find_node("/se/fc1/Conv") >= 0);
    }

    void classifierPoolsFlattensAndClassifies() {
        const auto built =
            build([](NetBuilder& b, const Tensor& x) { return modelgen::classifier(b, x, 10); });
        QCOMPARE(ops(built.model), (Ops{"GlobalAveragePool", "Flatten", "Gemm"}));
        check_output(built, {1, 10});
        QCOMPARE(built.macs, std::int64_t{16 * 10});
        QCOMPARE(built.parameters, std::int64_t{16 * 10 + 10});
    }

    void groupedBottleneckAndMobileBlockKeepTheirShapes() {
        const auto grouped = build([](NetBuilder& b, const Tensor& x) {
            return modelgen::grouped_bottleneck(b, x, 32, 16, 4, 2, true, "block1");
        });
        // Projection, a, b (grouped by 4), squeeze-excitation, c, Add, Relu.
        QCOMPARE(grouped.model.nodes.size(), std::size_t{2 + 3 + 3 + 6 + 2 + 2});
        check_output(grouped, {1, 32, 4, 4});
        QCOMPARE(grouped.model.nodes[5].int_attribute("group", 0), std::int64_t{4});
        const auto mobile = build([](NetBuilder& b, const Tensor& x) {
            return modelgen::mobile_block(b, x, 16, 64, 5, 1, "Silu", 4, "Silu", "Sigmoid", "3");
        });
        // Expand (Silu: Sigmoid and Mul), depthwise, SE (its Silu two nodes), project, Add.
        QCOMPARE(mobile.model.nodes.size(), std::size_t{4 + 4 + 7 + 2 + 1});
        check_output(mobile, {1, 16, 8, 8});
    }

    void shuffleUnitSplitsOrSlicesThenShuffles() {
        const Ops shuffle{"Reshape", "Transpose", "Reshape"};
        const auto split = build([](NetBuilder& b, const Tensor& x) {
            return modelgen::shuffle_unit(b, x, 16, 1, true, "stage2.1");
        });
        auto expected = Ops{"Split",
                            "Conv",
                            "BatchNormalization",
                            "Relu",
                            "Conv",
                            "BatchNormalization",
                            "Conv",
                            "BatchNormalization",
                            "Relu",
                            "Concat"};
        expected.insert(expected.end(), shuffle.begin(), shuffle.end());
        QCOMPARE(ops(split.model), expected);
        check_output(split, {1, 16, 8, 8});
        const auto sliced = build([](NetBuilder& b, const Tensor& x) {
            return modelgen::shuffle_unit(b, x, 16, 1, false, "stage2.1");
        });
        QCOMPARE(sliced.model.nodes.size(), std::size_t{14});
        QCOMPARE(sliced.model.nodes[0].op, std::string("Slice"));
        // Down-sampling: two branches on the whole input.
        const auto down = build([](NetBuilder& b, const Tensor& x) {
            return modelgen::shuffle_unit(b, x, 32, 2, true, "stage2.0");
        });
        QCOMPARE(down.model.nodes.size(), std::size_t{5 + 8 + 1 + 3});
        check_output(down, {1, 32, 4, 4});
    }
};

QTEST_GUILESS_MAIN(CnnBlocksTest)
#include "cnn_blocks_test.moc"
