// The "blocks" simulation space: a stem, 3 to 5 stages each of one seed architecture's block at a
// drawn width, depth and kernel, then a classifier. The description states the draws; the network
// built has those stages, each halving the map after the first.
#include "built_model.hpp"
#include "core/modelgen/blocks_space.hpp"
#include "core/modelgen/cnn_blocks.hpp"
#include "model_checks.hpp"

#include <QtTest>
#include <algorithm>

using namespace cleave;

namespace {

struct Stage {
    std::string kind;
    int blocks = 0;
};

// The space's draws replayed from the same engine: its description and its stages.
std::pair<std::string, std::vector<Stage>> replayed(std::uint64_t seed, int resolution) {
    std::mt19937_64 random(seed);
    const auto pick = [&](int n) {
        return static_cast<int>(random() % static_cast<std::uint64_t>(n));
    };
    const std::vector<std::string> kinds{"basic", "bottleneck", "inverted", "fire", "dense", "vgg"};
    const int stages = 3 + pick(3);
    std::int64_t channels =
        std::vector<std::int64_t>{16, 24, 32, 48}[static_cast<std::size_t>(pick(4))];
    std::vector<Stage> plan;
    std::string summary;
    for (int s = 0; s < stages; ++s) {
        const auto kind = kinds[static_cast<std::size_t>(pick(6))];
        const int blocks = 1 + pick(3);
        channels = modelgen::divisible(static_cast<double>(channels) * (pick(2) ? 1.5 : 2.0));
        pick(4); // the kernel
        plan.push_back({kind, blocks});
        summary += (summary.empty() ? "" : ", ") + kind + " x" + std::to_string(blocks) + " c" +
                   std::to_string(channels);
    }
    const auto stem = std::vector<std::int64_t>{16, 24, 32}[static_cast<std::size_t>(pick(3))];
    return {"stem " + std::to_string(stem) + "; " + summary + "; input " +
                std::to_string(resolution),
            plan};
}

bool has_node_under(const graph::Model& m, const std::string& scope) {
    for (const auto& node : m.nodes)
        if (node.name.starts_with(scope))
            return true;
    return false;
}

// A node only `kind`'s first block writes.
std::string marker(const std::string& kind) {
    if (kind == "basic")
        return "0/conv2/conv/Conv";
    if (kind == "bottleneck")
        return "0/conv3/conv/Conv";
    if (kind == "inverted")
        return "0/depthwise/conv/Conv";
    if (kind == "fire")
        return "0/expand3x3/Conv";
    if (kind == "dense")
        return "0/conv2/Conv";
    return "0/conv/Conv"; // vgg
}

} // namespace

class BlocksSpaceTest : public QObject {
    Q_OBJECT

private slots:
    void theDescriptionStatesTheDrawnStages() {
        for (const std::uint64_t seed : {3u, 5u, 8u}) {
            std::mt19937_64 random(seed);
            modelgen::RandomChoice draw(random);
            const auto spec = modelgen::blocks_model("blocks_0001", 64, 99, draw);
            const auto [description, plan] = replayed(seed, 64);
            QCOMPARE(spec.name, std::string("blocks_0001"));
            QCOMPARE(spec.category, std::string("blocks"));
            QCOMPARE(spec.description, description);
            QCOMPARE(spec.input_shape, (std::vector<std::int64_t>{1, 3, 64, 64}));

            const auto m = test::built_model(spec);
            test::check_shapes(m);
            QCOMPARE(test::tensor(m, m.outputs[0]).shape.value_or(graph::Shape{}),
                     (graph::Shape{1, 1000}));
            // Every stage with its blocks of its kind, and no more.
            for (std::size_t s = 0; s < plan.size(); ++s) {
                const std::string layer = "/layer" + std::to_string(s + 1) + "/";
                const std::string first = layer + marker(plan[s].kind);
                QVERIFY2(m.find_node(first) >= 0, (description + ": no " + first).c_str());
                QVERIFY(has_node_under(m, layer + std::to_string(plan[s].blocks - 1) + "/"));
                QVERIFY(!has_node_under(m, layer + std::to_string(plan[s].blocks) + "/"));
            }
            QVERIFY(!has_node_under(m, "/layer" + std::to_string(plan.size() + 1) + "/"));
            // The stem halves the map, each stage after the first halves it again.
            const auto pool = std::find_if(m.nodes.begin(), m.nodes.end(), [](const auto& n) {
                return n.op == "GlobalAveragePool";
            });
            QVERIFY(pool != m.nodes.end());
            const auto pooled = test::output_shape(m, *test::producer(m, *pool, 0));
            const std::int64_t side = 64 >> plan.size();
            QCOMPARE(pooled.at(2), side);
            QCOMPARE(pooled.at(3), side);
        }
    }
};

QTEST_GUILESS_MAIN(BlocksSpaceTest)
#include "blocks_space_test.moc"
