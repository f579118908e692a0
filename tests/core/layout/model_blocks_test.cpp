// Block detection: the scopes of a node's name, a decoder's layers as blocks of their scope (a
// scope too big for one block split by its sub-scopes, a kernel's nodes kept in one block),
// repeated blocks found where enough layers are alike, and kernels in runs of their blocks.
#include "core/fusion/rule_engine.hpp"
#include "core/layout/model_blocks.hpp"
#include "layout_checks.hpp"

#include <QtTest>
#include <map>
#include <string_view>

using cleave::fusion::find_rule_set;
using cleave::fusion::fuse_with_rules;
using cleave::fusion::node_edges;
using cleave::graph::Model;
using cleave::layout::kernel_runs;
using cleave::layout::ModelBlocks;
using cleave::layout::name_scopes;
using cleave::layout::repeated_blocks;
using cleave::layout::scope_blocks;
using cleave::test::decoder;
using cleave::test::resnet18;

namespace {

// Per block, how many nodes it holds.
std::map<std::string, std::size_t> sizes_by_name(const ModelBlocks& blocks) {
    std::map<std::string, std::size_t> sizes;
    for (const int b : blocks.of_node)
        ++sizes[blocks.names.at(static_cast<std::size_t>(b))];
    return sizes;
}

} // namespace

class ModelBlocksTest : public QObject {
    Q_OBJECT

private slots:
    void nameScopesAreTheNameBeforeItsLastPart() {
        const std::string attention = "/transformer/h.3/attn/c_attn/MatMul";
        QCOMPARE(name_scopes(attention),
                 (std::vector<std::string_view>{"transformer", "h.3", "attn", "c_attn"}));
        const std::string bare = "MatMul", rooted = "/MatMul", doubled = "layer1//conv/Conv";
        QVERIFY(name_scopes(bare).empty());
        QVERIFY(name_scopes(rooted).empty());
        QCOMPARE(name_scopes(doubled), (std::vector<std::string_view>{"layer1", "conv"}));
    }

    // A GPT-2 decoder's layers are one block each, named by their scope, every node in one.
    void decoderLayersAreBlocksOfTheirScope() {
        const Model model = decoder(45);
        const auto blocks = scope_blocks(model, node_edges(model), {}, 400);
        QCOMPARE(blocks.of_node.size(), model.nodes.size());
        const auto sizes = sizes_by_name(blocks);
        for (int layer = 0; layer < 45; ++layer) {
            const auto name = "transformer/h." + std::to_string(layer);
            QCOMPARE(sizes.at(name), std::size_t{47});
            QCOMPARE(blocks.names[static_cast<std::size_t>(
                         blocks.of_node[static_cast<std::size_t>(47 * layer)])],
                     name);
        }
    }

    // Where a scope holds more than max_nodes, its sub-scopes are the blocks.
    void largeScopesSplitBySubScopes() {
        const Model model = decoder(2);
        const auto blocks = scope_blocks(model, node_edges(model), {}, 20);
        for (const auto& [name, size] : sizes_by_name(blocks)) {
            QVERIFY2(size <= 20, name.c_str());
            if (name.rfind("transformer/h.", 0) == 0)
                QVERIFY2(name.size() > std::string("transformer/h.0").size(), name.c_str());
        }
    }

    void aKernelsNodesShareABlock() {
        const Model model = decoder(4);
        const auto kernels = fuse_with_rules(model, find_rule_set("ort-cpu"));
        std::vector<std::vector<int>> groups;
        for (const auto& k : kernels.kernels)
            groups.push_back(k.nodes);
        const auto blocks = scope_blocks(model, kernels.edges, groups, 400);
        for (const auto& members : groups)
            for (const int n : members)
                QCOMPARE(blocks.of_node[static_cast<std::size_t>(n)],
                         blocks.of_node[static_cast<std::size_t>(members.front())]);
    }

    // As many layers alike as asked for make a stack, fewer do not; ResNet-18's units (7 to 10
    // nodes) are too small, and 0 asks for none.
    void repeatedBlocksNeedEnoughLayersAlike() {
        const auto repeated = [](const Model& model, std::size_t repeats) {
            return repeated_blocks(model, node_edges(model), {}, repeats).has_value();
        };
        QVERIFY(repeated(decoder(4), 4));
        QVERIFY(!repeated(decoder(3), 4));
        QVERIFY(repeated(decoder(5), 5));
        QVERIFY(!repeated(decoder(4), 5));
        QVERIFY(!repeated(decoder(12), 0));
        QVERIFY(!repeated(resnet18(), 4));
    }

    // Kernels in the kernel graph's order, a run for each stretch in one block: a block met
    // again after another starts a run of its own.
    void kernelRunsFollowTheBlocksInKernelOrder() {
        cleave::fusion::KernelGraph kernels;
        for (const auto& nodes : std::vector<std::vector<int>>{{0}, {1, 2}, {3}, {4}, {5}}) {
            cleave::fusion::Kernel kernel;
            kernel.nodes = nodes;
            kernels.kernels.push_back(kernel);
        }
        const ModelBlocks blocks{{0, 0, 0, 1, 1, 0}, {"a", "b"}};
        const auto runs = kernel_runs(kernels, blocks);
        QCOMPARE(runs.size(), std::size_t{3});
        QCOMPARE(runs[0].name, std::string("a"));
        QCOMPARE(runs[0].begin, 0);
        QCOMPARE(runs[0].end, 2);
        QCOMPARE(runs[1].name, std::string("b"));
        QCOMPARE(runs[1].begin, 2);
        QCOMPARE(runs[1].end, 4);
        QCOMPARE(runs[2].name, std::string("a"));
        QCOMPARE(runs[2].begin, 4);
        QCOMPARE(runs[2].end, 5);
    }
};

QTEST_GUILESS_MAIN(ModelBlocksTest)
#include "model_blocks_test.moc"
