// The stacked layout: a large model laid out in blocks by name scope, alike blocks alike; a
// smaller one whose layers repeat stacked too, a block per layer (and the same blocks as runs of
// kernels for the Partition tab); ResNet-18 cut into its stages' blocks below the limit.
#include "core/fusion/rule_engine.hpp"
#include "core/layout/graph_layout.hpp"
#include "layout_checks.hpp"

#include <QtTest>
#include <algorithm>

using cleave::fusion::find_rule_set;
using cleave::fusion::fuse_with_rules;
using cleave::graph::Model;
using cleave::layout::block_kernel_runs;
using cleave::layout::GraphLayout;
using cleave::layout::layout_graph;
using cleave::layout::LayoutOptions;
using cleave::test::checkDrawn;
using cleave::test::checkLayered;
using cleave::test::decoder;
using cleave::test::inside;
using cleave::test::resnet18;

class StackedLayoutTest : public QObject {
    Q_OBJECT

private slots:
    // Above flat_node_limit the model is laid out in blocks by name scope, stacked: a decoder's
    // layers are one block each, every one drawn as the first, one under another.
    void largeModelsStackAlikeBlocks() {
        const Model model = decoder(45); // 2,125 nodes
        QVERIFY(model.nodes.size() > LayoutOptions{}.flat_node_limit);
        const auto kernels = fuse_with_rules(model, find_rule_set("ort-cpu"));
        LayoutOptions options;
        options.kernels = &kernels;
        const GraphLayout layout = layout_graph(model, options);
        checkLayered(model, layout);
        checkDrawn(model, layout, &kernels);
        // Every node in one block, inside its rectangle; a block per layer, named by its scope.
        std::vector<int> seen(model.nodes.size(), 0);
        for (const auto& block : layout.blocks)
            for (const int n : block.nodes) {
                ++seen[static_cast<std::size_t>(n)];
                QVERIFY(inside(block.rect, layout.nodes[static_cast<std::size_t>(n)]));
            }
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](int count) { return count == 1; }));
        QCOMPARE(layout.blocks[3].name, std::string("transformer/h.3"));
        QCOMPARE(layout.blocks[3].nodes.size(), std::size_t{47});
        QVERIFY(layout_graph(resnet18()).blocks.empty());
        // Node i of layer L sits where node i of layer 0 does, moved down by L pitches; all but
        // the last, whose residual sum runs in the final norm's SkipLayerNormalization, a kernel
        // across the block's edge, so that block is not alike and is laid out by itself.
        const auto at = [&](int layer, int i) {
            return layout.nodes[static_cast<std::size_t>(47 * layer + i)];
        };
        QVERIFY(model.nodes[47].name.find("/h.1/") != std::string::npos);
        const double pitch = at(1, 0).y - at(0, 0).y;
        QVERIFY(pitch > 0);
        for (int layer = 1; layer < 44; ++layer)
            for (int i = 0; i < 47; ++i) {
                QCOMPARE(at(layer, i).x, at(0, i).x);
                QVERIFY(std::abs(at(layer, i).y - (at(0, i).y + layer * pitch)) < 1e-6);
            }
    }

    // Below the limit a model whose layers repeat under name scopes is stacked too, a block per
    // layer, so that its layers fold; one whose scopes do not repeat is laid out whole, and so
    // is the decoder when repeats are switched off.
    void repeatedLayersAreStackedBelowTheLimit() {
        const Model model = decoder(12); // 574 nodes
        QVERIFY(model.nodes.size() < LayoutOptions{}.flat_node_limit);
        const GraphLayout layout = layout_graph(model);
        checkLayered(model, layout);
        checkDrawn(model, layout, nullptr);
        int layers = 0;
        for (const auto& block : layout.blocks)
            if (block.name.rfind("transformer/h.", 0) == 0) {
                QCOMPARE(block.name, "transformer/h." + std::to_string(layers));
                QVERIFY(block.nodes.size() >= 47);
                ++layers;
            }
        QCOMPARE(layers, 12);
        // Each layer under the one before.
        for (std::size_t b = 1; b < layout.blocks.size(); ++b)
            QVERIFY(layout.blocks[b].rect.y >= layout.blocks[b - 1].rect.bottom());
        QVERIFY(layout_graph(resnet18()).blocks.empty());
        QVERIFY(layout_graph(decoder(3)).blocks.empty()); // three layers are not a stack
        // The same blocks as runs of kernels, for the Partition tab: every kernel in one, in
        // order, a layer's kernels in the run of its scope.
        const auto kernels = fuse_with_rules(model, find_rule_set("ort-cpu"));
        const auto runs = block_kernel_runs(model, kernels);
        int end = 0, named = 0;
        for (const auto& run : runs) {
            QCOMPARE(run.begin, end);
            QVERIFY(run.end > run.begin);
            end = run.end;
            for (int k = run.begin; k < run.end; ++k)
                for (const int n : kernels.kernels[static_cast<std::size_t>(k)].nodes)
                    if (model.nodes[static_cast<std::size_t>(n)].name.find("/h.") !=
                        std::string::npos) {
                        QVERIFY2(run.name.rfind("transformer/h.", 0) == 0, run.name.c_str());
                        ++named;
                    }
        }
        QCOMPARE(end, static_cast<int>(kernels.kernels.size()));
        QVERIFY(named > 12 * 20);
        const auto resnet_kernels = fuse_with_rules(resnet18(), find_rule_set("ort-cpu"));
        QVERIFY(block_kernel_runs(resnet18(), resnet_kernels).empty());
        LayoutOptions whole;
        whole.repeated_blocks = 0;
        QVERIFY(layout_graph(model, whole).blocks.empty());
    }

    // A model cut into blocks below the limit: ResNet-18 by its stages' scopes, the kernels of
    // each block drawn as dot clusters there.
    void blocksFollowNameScopes() {
        const auto kernels = fuse_with_rules(resnet18(), find_rule_set("ort-cpu"));
        LayoutOptions options;
        options.kernels = &kernels;
        options.flat_node_limit = 10;
        const GraphLayout layout = layout_graph(resnet18(), options);
        checkLayered(resnet18(), layout);
        checkDrawn(resnet18(), layout, &kernels);
        // Stages one under another: all of layer1 above all of layer2.
        double layer1_bottom = 0, layer2_top = 1e300;
        for (std::size_t n = 0; n < resnet18().nodes.size(); ++n) {
            const auto& name = resnet18().nodes[n].name;
            if (name.rfind("/layer1/", 0) == 0)
                layer1_bottom = std::max(layer1_bottom, layout.nodes[n].bottom());
            if (name.rfind("/layer2/", 0) == 0)
                layer2_top = std::min(layer2_top, layout.nodes[n].y);
        }
        QVERIFY(layer1_bottom < layer2_top);
    }
};

QTEST_GUILESS_MAIN(StackedLayoutTest)
#include "stacked_layout_test.moc"
