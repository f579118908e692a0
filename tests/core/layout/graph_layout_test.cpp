// The graph layout: a chain drawn top to bottom with edges that run downwards, a box for every
// node of ResNet-18, kernel groups around their members with and without dot clusters, sizes
// kept, DenseNet's long implied edges drawn beside the graph, and a cancelled layout stopping
// with cleave::Cancelled. Stacked layouts are stacked_layout_test's.
#include "../graph/onnx_builder.hpp"
#include "core/fusion/rule_engine.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/layout/graph_layout.hpp"
#include "core/task_control.hpp"
#include "layout_checks.hpp"

#include <QtTest>
#include <algorithm>

using cleave::fusion::find_rule_set;
using cleave::fusion::fuse_with_rules;
using cleave::graph::Model;
using cleave::layout::GraphLayout;
using cleave::layout::layout_graph;
using cleave::layout::LayoutOptions;
using cleave::layout::Rect;
using cleave::test::checkLayered;
using cleave::test::inside;
using cleave::test::OnnxBuilder;
using cleave::test::resnet18;

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

const Model& densenet121() {
    static const Model model =
        cleave::graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/densenet121.onnx");
    return model;
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
        cleave::TaskControl cancelled;
        cancelled.cancel();
        LayoutOptions options;
        options.control = &cancelled;
        QVERIFY_THROWS_EXCEPTION(cleave::Cancelled, layout_graph(resnet18(), options));
        // The module is usable again afterwards.
        const cleave::TaskControl running;
        options.control = &running;
        QCOMPARE(layout_graph(resnet18(), options).nodes.size(), resnet18().nodes.size());
    }

    void sizesForAnotherModelAreRefused() {
        LayoutOptions options;
        options.node_sizes = {{10, 10}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, layout_graph(chain(), options));
    }
};

QTEST_GUILESS_MAIN(GraphLayoutTest)
#include "graph_layout_test.moc"
