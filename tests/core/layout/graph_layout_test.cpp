// The graph layout: a chain drawn top to bottom with edges that run downwards, a box for every
// node of ResNet-18, kernel groups around their members with and without dot clusters, sizes
// kept, DenseNet's long implied edges drawn beside the graph, and a cancelled layout stopping
// with cleave::Cancelled; large models and those whose layers repeat laid out in stacked blocks,
// alike blocks alike.
#include "../graph/onnx_builder.hpp"
#include "../modelgen/built_model.hpp"
#include "core/fusion/rule_engine.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/layout/graph_layout.hpp"

#include <QtTest>
#include <algorithm>
#include <atomic>

using cleave::fusion::find_rule_set;
using cleave::fusion::fuse_with_rules;
using cleave::graph::Model;
using cleave::layout::block_kernel_runs;
using cleave::layout::GraphLayout;
using cleave::layout::layout_graph;
using cleave::layout::LayoutOptions;
using cleave::layout::Rect;
using cleave::test::OnnxBuilder;

namespace {

// x -> Relu -> Sigmoid -> Tanh -> Abs -> y
Model chain() {
    OnnxBuilder b;
    b.input("x", {1, 8});
    b.node("Relu", {"x"}, {"a"}, "relu");
    b.node("Sigmoid", {"a"}, {"b"}, "sigmoid");
    b.node("Tanh", {"b"}, {"c"}, "tanh");
    b.node("Abs", {"c"}, {"y"}, "abs");
    b.output("y");
    return cleave::graph::load_model_from_bytes(b.bytes(), "chain.onnx");
}

const Model& resnet18() {
    static const Model model =
        cleave::graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
    return model;
}

const Model& densenet121() {
    static const Model model =
        cleave::graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/densenet121.onnx");
    return model;
}

bool overlap(const Rect& a, const Rect& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

// Every producer above its consumers and no two nodes on top of each other.
void checkLayered(const Model& model, const GraphLayout& layout) {
    for (const auto& edge : layout.edges)
        QVERIFY(layout.nodes[static_cast<std::size_t>(edge.from)].bottom() <
                layout.nodes[static_cast<std::size_t>(edge.to)].y);
    for (std::size_t a = 0; a < model.nodes.size(); ++a)
        for (std::size_t b = a + 1; b < model.nodes.size(); ++b)
            QVERIFY(!overlap(layout.nodes[a], layout.nodes[b]));
}

bool inside(const Rect& outer, const Rect& inner) {
    return outer.contains(inner);
}

// A GPT-2 decoder of `layers` layers (47 nodes each, 10 more after them).
Model decoder(int layers) {
    return cleave::test::built_model(cleave::modelgen::decoder_stack(layers, 32, 2, 8, 10));
}

// Every node has a box inside the bounds, every edge ends at its consumer, and kernel boxes
// hold their members.
void checkDrawn(const Model& model, const GraphLayout& layout,
                const cleave::fusion::KernelGraph* kernels) {
    QCOMPARE(layout.nodes.size(), model.nodes.size());
    for (const auto& r : layout.nodes) {
        QVERIFY(r.width > 0 && r.height > 0);
        QVERIFY(inside(layout.bounds, r));
    }
    for (const auto& edge : layout.edges) {
        QVERIFY(!edge.points.empty());
        const Rect near = [&] {
            Rect r = layout.nodes[static_cast<std::size_t>(edge.to)];
            return Rect{r.x - 1, r.y - 1, r.width + 2, r.height + 2};
        }();
        QVERIFY(inside(near, {edge.arrow_tip.x, edge.arrow_tip.y, 0, 0}));
    }
    if (kernels)
        for (std::size_t k = 0; k < kernels->kernels.size(); ++k)
            for (const int n : kernels->kernels[k].nodes)
                QVERIFY(inside(layout.kernels[k], layout.nodes[static_cast<std::size_t>(n)]));
}

} // namespace

class GraphLayoutTest : public QObject {
    Q_OBJECT

private slots:
    void chainRunsTopToBottom() {
        const Model model = chain();
        const GraphLayout layout = layout_graph(model);
        QCOMPARE(layout.nodes.size(), std::size_t{4});
        checkLayered(model, layout);
        for (std::size_t i = 1; i < layout.nodes.size(); ++i) {
            QVERIFY(layout.nodes[i].y > layout.nodes[i - 1].bottom());
            // One column: each node straight below the one before it.
            QCOMPARE(layout.nodes[i].x + layout.nodes[i].width / 2,
                     layout.nodes[i - 1].x + layout.nodes[i - 1].width / 2);
        }
    }

    void chainEdgesRunDownwards() {
        const Model model = chain();
        const GraphLayout layout = layout_graph(model);
        QCOMPARE(layout.edges.size(), std::size_t{3});
        for (const auto& edge : layout.edges) {
            QCOMPARE(edge.to, edge.from + 1);
            QVERIFY(edge.points.size() >= 4);
            QCOMPARE((edge.points.size() - 1) % 3, std::size_t{0}); // a cubic Bézier spline
            const Rect& from = layout.nodes[static_cast<std::size_t>(edge.from)];
            const Rect& to = layout.nodes[static_cast<std::size_t>(edge.to)];
            QVERIFY(edge.points.front().y >= from.bottom() - 1);
            QVERIFY(edge.arrow_tip.y <= to.y + 1);
            QVERIFY(edge.points.front().y < edge.arrow_tip.y);
        }
    }

    void everyNodeHasABoxInsideTheBounds() {
        const GraphLayout layout = layout_graph(resnet18());
        QCOMPARE(layout.nodes.size(), resnet18().nodes.size());
        QCOMPARE(layout.edges.size(), cleave::fusion::node_edges(resnet18()).size());
        for (const auto& node : layout.nodes) {
            QVERIFY(node.width > 0 && node.height > 0);
            QVERIFY(inside(layout.bounds, node));
        }
        // The first conv sits above the classifier at the end.
        QVERIFY(layout.nodes.front().y < layout.nodes.back().y);
    }

    void givenSizesAreKept() {
        const Model model = chain();
        LayoutOptions options;
        options.node_sizes = {{100, 30}, {60, 20}, {80, 40}, {50, 25}};
        const GraphLayout layout = layout_graph(model, options);
        for (std::size_t i = 0; i < layout.nodes.size(); ++i) {
            QCOMPARE(layout.nodes[i].width, options.node_sizes[i].width);
            QCOMPARE(layout.nodes[i].height, options.node_sizes[i].height);
        }
    }

    void kernelClustersContainTheirNodes() {
        const auto kernels = fuse_with_rules(resnet18(), find_rule_set("ort-cpu"));
        LayoutOptions options;
        options.kernels = &kernels;
        const GraphLayout layout = layout_graph(resnet18(), options);
        QCOMPARE(layout.kernels.size(), kernels.kernels.size());
        for (std::size_t k = 0; k < kernels.kernels.size(); ++k) {
            QVERIFY(inside(layout.bounds, layout.kernels[k]));
            for (const int n : kernels.kernels[k].nodes)
                QVERIFY(inside(layout.kernels[k], layout.nodes[static_cast<std::size_t>(n)]));
        }
        // A cluster holds its own members and nothing else.
        for (std::size_t k = 0; k < kernels.kernels.size(); ++k) {
            if (kernels.kernels[k].nodes.size() < 2)
                continue;
            for (std::size_t n = 0; n < layout.nodes.size(); ++n)
                if (kernels.kernel_of_node[n] != static_cast<int>(k))
                    QVERIFY(!inside(layout.kernels[k], layout.nodes[n]));
        }
    }

    void kernelBoxesWithoutClustersContainTheirNodes() {
        const auto kernels = fuse_with_rules(resnet18(), find_rule_set("ort-cpu"));
        LayoutOptions options;
        options.kernels = &kernels;
        options.kernel_clusters = false;
        const GraphLayout layout = layout_graph(resnet18(), options);
        QCOMPARE(layout.kernels.size(), kernels.kernels.size());
        for (std::size_t k = 0; k < kernels.kernels.size(); ++k)
            for (const int n : kernels.kernels[k].nodes)
                QVERIFY(inside(layout.kernels[k], layout.nodes[static_cast<std::size_t>(n)]));
    }

    void shortGraphsKeepEveryEdgeInDot() {
        const GraphLayout layout = layout_graph(resnet18());
        for (const auto& edge : layout.edges)
            QVERIFY(!edge.beside); // the residual edges span a few ranks only
    }

    // DenseNet's layers read every earlier layer of their block: 965 edges that would cross
    // 26,852 ranks in all. The longest implied ones are drawn beside the graph.
    void denseNetsLongEdgesGoBeside() {
        const auto kernels = fuse_with_rules(densenet121(), find_rule_set("ort-cpu"));
        LayoutOptions options;
        options.kernels = &kernels;
        const GraphLayout layout = layout_graph(densenet121(), options);
        QCOMPARE(layout.nodes.size(), std::size_t{431});
        QCOMPARE(layout.edges.size(), std::size_t{965});
        checkLayered(densenet121(), layout);
        int beside = 0;
        for (const auto& edge : layout.edges) {
            if (!edge.beside)
                continue;
            ++beside;
            // Out of the producer's right side, into the consumer's.
            const Rect& from = layout.nodes[static_cast<std::size_t>(edge.from)];
            const Rect& to = layout.nodes[static_cast<std::size_t>(edge.to)];
            QCOMPARE(edge.points.front().x, from.right());
            QCOMPARE(edge.arrow_tip.x, to.right());
            QVERIFY(edge.points[1].x > from.right());
            QVERIFY(inside(layout.bounds, {edge.points[1].x, edge.points[1].y, 0, 0}));
        }
        QVERIFY(beside > 0);
        QVERIFY(beside < 965);
    }

    void aLargerBudgetKeepsMoreEdgesInDot() {
        LayoutOptions tight;
        tight.virtual_node_budget = 500;
        LayoutOptions loose;
        loose.virtual_node_budget = 3000;
        const auto count = [](const GraphLayout& layout) {
            return std::count_if(layout.edges.begin(), layout.edges.end(),
                                 [](const auto& e) { return e.beside; });
        };
        QVERIFY(count(layout_graph(densenet121(), tight)) >
                count(layout_graph(densenet121(), loose)));
    }

    void cancelledLayoutStops() {
        std::atomic<bool> cancel = true;
        LayoutOptions options;
        options.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(cleave::Cancelled, layout_graph(resnet18(), options));
        // The module is usable again afterwards.
        cancel = false;
        QCOMPARE(layout_graph(resnet18(), options).nodes.size(), resnet18().nodes.size());
    }

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

    void sizesForAnotherModelAreRefused() {
        LayoutOptions options;
        options.node_sizes = {{10, 10}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, layout_graph(chain(), options));
    }
};

QTEST_GUILESS_MAIN(GraphLayoutTest)
#include "graph_layout_test.moc"
