// The "nas9" simulation space: MobileNetV2's 17 blocks, each one of 9 inverted residuals (kernel
// 3, 5 or 7 x expansion 1, 3 or 6) drawn in turn; the description codes the draws, and the
// network built has the kernels and expansions they name.
#include "built_model.hpp"
#include "core/modelgen/nas9_space.hpp"
#include "model_checks.hpp"

#include <QtTest>
#include <algorithm>

using namespace cleave;

class Nas9SpaceTest : public QObject {
    Q_OBJECT

private slots:
    void theDrawsNameEachBlocksKernelAndExpansion() {
        std::mt19937_64 random(11);
        modelgen::RandomChoice draw(random);
        const auto spec = modelgen::nas9_model("nas9_0003", 64, draw);
        // The same engine again: the 17 draws below 9 the space made.
        std::mt19937_64 replay(11);
        std::string code;
        for (int k = 0; k < 17; ++k)
            code += static_cast<char>('0' + replay() % 9);
        QCOMPARE(spec.name, std::string("nas9_0003"));
        QCOMPARE(spec.category, std::string("nas9"));
        QCOMPARE(spec.description,
                 "MobileNetV2 stages, blocks (kernel, expansion) coded " + code + ", input 64");
        QCOMPARE(spec.input_shape, (std::vector<std::int64_t>{1, 3, 64, 64}));

        const auto m = test::built_model(spec);
        test::check_shapes(m);
        // The stem, per block a depthwise conv and a projection (and an expansion unless the
        // expansion is 1), the last 1 x 1; residuals where a stage's later blocks keep the width.
        int expanding = 0;
        for (const char c : code)
            expanding += (c - '0') % 3 != 0 ? 1 : 0;
        const auto count = [&](const std::string& op) {
            return std::count_if(m.nodes.begin(), m.nodes.end(),
                                 [&](const graph::Node& n) { return n.op == op; });
        };
        QCOMPARE(count("Conv"), 1 + 17 * 2 + expanding + 1);
        QCOMPARE(count("Add"), 0 + 1 + 2 + 3 + 2 + 2 + 0);
        QCOMPARE(count("Gemm"), 1);
        QCOMPARE(test::tensor(m, m.outputs[0]).shape.value_or(graph::Shape{}),
                 (graph::Shape{1, 1000}));
        // Block i's depthwise conv: kernel 3 + 2 (c / 3), grouped by the block's input width
        // times the expansion {1, 3, 6}[c % 3].
        const std::vector<std::int64_t> widths{32, 16, 24, 24, 32, 32,  32,  64, 64,
                                               64, 64, 96, 96, 96, 160, 160, 160};
        for (std::size_t i = 0; i < 17; ++i) {
            const int c = code[i] - '0';
            const std::string name = "/features/" + std::to_string(i + 1) + "/depthwise/conv/Conv";
            const int node = m.find_node(name);
            QVERIFY2(node >= 0, name.c_str());
            const auto& conv = m.nodes[static_cast<std::size_t>(node)];
            const std::int64_t kernel = 3 + 2 * (c / 3);
            QCOMPARE(conv.ints_attribute("kernel_shape"),
                     (std::vector<std::int64_t>{kernel, kernel}));
            const std::int64_t expansion = std::vector<std::int64_t>{1, 3, 6}[c % 3];
            QCOMPARE(conv.int_attribute("group", 0), widths[i] * expansion);
        }
        // The stem halves 64 to 32; the stages' strides 2, 2, 2 and 2 to 2.
        const auto shape_of = [&](const std::string& node) {
            return test::output_shape(m, m.nodes.at(static_cast<std::size_t>(m.find_node(node))));
        };
        QCOMPARE(shape_of("/features/0/conv/Conv"), (graph::Shape{1, 32, 32, 32}));
        QCOMPARE(shape_of("/features/18/conv/Conv"), (graph::Shape{1, 1280, 2, 2}));
    }
};

QTEST_GUILESS_MAIN(Nas9SpaceTest)
#include "nas9_space_test.moc"
