// Kernels from fused edges: node-to-node edges in consumer order, node groups that refuse a merge
// making a cycle or joining two parts, kernels in a topological order of the contracted graph,
// and each kernel's costs summed over its nodes with only what crosses its edge counted as moved
// (and of a rotary op's position tables, only the rows it reads).
#include "../graph/genai_decoder.hpp"
#include "../graph/onnx_builder.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/graph/onnx_import.hpp"

#include <QtTest>

using namespace cleave;
using namespace cleave::fusion;
using cleave::test::OnnxBuilder;

namespace {

graph::Model load(const OnnxBuilder& b) {
    return graph::load_model_from_bytes(b.bytes(), "kernels.onnx");
}

// x [1, 4, 8, 8] -> Conv (w [4, 4, 3, 3], pads 1) -> c -> Relu -> y.
graph::Model conv_relu() {
    OnnxBuilder b;
    b.input("x", {1, 4, 8, 8});
    b.initializer("w", {4, 4, 3, 3});
    OnnxBuilder::set_ints(b.node("Conv", {"x", "w"}, {"c"}, "conv"), "pads", {1, 1, 1, 1});
    b.node("Relu", {"c"}, {"y"}, "relu");
    b.output("y");
    return load(b);
}

// x -> a (Relu) -> b (Sigmoid) -> Add(a, b): the diamond where a and the Add are joined through b.
graph::Model diamond() {
    OnnxBuilder b;
    b.input("x", {1, 16});
    b.node("Relu", {"x"}, {"a"}, "first");
    b.node("Sigmoid", {"a"}, {"b"}, "middle");
    b.node("Add", {"a", "b"}, {"y"}, "last");
    b.output("y");
    return load(b);
}

} // namespace

class KernelGraphTest : public QObject {
    Q_OBJECT

private slots:
    void edgesComeOncePerProducerInConsumerOrder() {
        OnnxBuilder b;
        b.input("x", {1, 8});
        OnnxBuilder::set_int(b.node("Split", {"x"}, {"p", "q"}, "split"), "axis", 1); // 0
        b.node("Relu", {"p"}, {"r"}, "relu");                                         // 1
        // 2: reads the Split's two outputs, q first
        OnnxBuilder::set_int(b.node("Concat", {"q", "r", "p"}, {"y"}, "cat"), "axis", 1);
        b.output("y");
        const auto model = load(b);
        const auto edges = node_edges(model);
        QCOMPARE(edges.size(), std::size_t{3});
        QCOMPARE(edges[0].from, 0);
        QCOMPARE(edges[0].to, 1);
        QCOMPARE(model.tensors[static_cast<std::size_t>(edges[0].tensor)].name, std::string("p"));
        QCOMPARE(edges[1].from, 0); // the first tensor that links split and cat: q
        QCOMPARE(edges[1].to, 2);
        QCOMPARE(model.tensors[static_cast<std::size_t>(edges[1].tensor)].name, std::string("q"));
        QCOMPARE(edges[2].from, 1);
        QCOMPARE(edges[2].to, 2);
    }

    void aMergeThroughAThirdGroupIsRefused() {
        const auto model = diamond();
        NodeGroups groups(model);
        QVERIFY(!groups.merge(0, 2)); // first -> middle -> last would loop through middle
        QVERIFY(groups.find(0) != groups.find(2));
        QVERIFY(groups.merge(0, 1));
        QVERIFY(groups.merge(1, 2)); // now middle is inside: no cycle
        QCOMPARE(groups.find(0), groups.find(2));
        QCOMPARE(groups.members(groups.find(2)), (std::vector<int>{0, 1, 2}));
        QVERIFY(groups.merge(2, 0)); // already one group
    }

    void aMergeAcrossPartsIsRefused() {
        const auto model = diamond();
        const std::vector<int> parts{0, 1, 1};
        NodeGroups groups(model, parts);
        QVERIFY(!groups.merge(0, 1));
        QVERIFY(groups.merge(1, 2));
        QCOMPARE(groups.members(groups.find(1)), (std::vector<int>{1, 2}));
        QCOMPARE(groups.members(groups.find(0)), std::vector<int>{0});
    }

    void kernelsFollowTheContractedGraphNotTheirFirstNode() {
        // {p, add} starts at node 0 but reads s of {q, s}, which must run first.
        OnnxBuilder b;
        b.input("a", {1, 8});
        b.input("b", {1, 8});
        b.node("Relu", {"a"}, {"p"}, "p");       // 0
        b.node("Relu", {"b"}, {"q"}, "q");       // 1
        b.node("Sigmoid", {"q"}, {"s"}, "s");    // 2
        b.node("Add", {"p", "s"}, {"y"}, "add"); // 3
        b.output("y");
        const auto model = load(b);
        const auto edges = node_edges(model); // q->s, p->add, s->add
        QCOMPARE(edges.size(), std::size_t{3});
        const auto g = group_kernels(model, edges, {true, true, false});
        QCOMPARE(g.kernels.size(), std::size_t{2});
        QCOMPARE(g.kernels[0].nodes, (std::vector<int>{1, 2}));
        QCOMPARE(g.kernels[0].name, std::string("q"));
        QCOMPARE(g.kernels[0].type, std::string("Relu"));
        QCOMPARE(g.kernels[1].nodes, (std::vector<int>{0, 3}));
        QCOMPARE(g.kernel_of_node, (std::vector<int>{1, 0, 0, 1}));
        QCOMPARE(g.fused, (std::vector<bool>{true, true, false}));
    }

    void aRefusedFusionLeavesTheEdgeApart() {
        const auto model = diamond();
        const auto edges = node_edges(model); // first->middle, first->last, middle->last
        const auto g = group_kernels(model, edges, {false, true, false});
        QCOMPARE(g.kernels.size(), std::size_t{3});
        QCOMPARE(g.fused, (std::vector<bool>{false, false, false}));
    }

    void costsSumOverTheKernelsNodes() {
        const auto model = conv_relu();
        const auto edges = node_edges(model);
        const auto fused = group_kernels(model, edges, {true});
        QCOMPARE(fused.kernels.size(), std::size_t{1});
        const auto& k = fused.kernels[0];
        QCOMPARE(k.name, std::string("conv"));
        QCOMPARE(k.type, std::string("Conv"));
        QCOMPARE(k.macs, std::int64_t{4 * 8 * 8 * 4 * 3 * 3});     // 9216
        QCOMPARE(k.flops, std::int64_t{2 * 9216 + 4 * 8 * 8});     // the Conv's, then the Relu's
        QCOMPARE(k.weight_bytes, std::int64_t{4 * 4 * 3 * 3 * 4}); // 576
        QCOMPARE(k.bytes_in, std::int64_t{1024 + 576});            // x and w; c stays inside
        QCOMPARE(k.bytes_out, std::int64_t{1024});                 // y only
        QCOMPARE(k.launches, 1);

        const auto apart = group_kernels(model, edges, {false});
        QCOMPARE(apart.kernels.size(), std::size_t{2});
        QCOMPARE(apart.kernels[0].bytes_in, std::int64_t{1024 + 576});
        QCOMPARE(apart.kernels[0].bytes_out, std::int64_t{1024}); // c, to the Relu's kernel
        QCOMPARE(apart.kernels[1].bytes_in, std::int64_t{1024});
        QCOMPARE(apart.kernels[1].weight_bytes, std::int64_t{0});
        QCOMPARE(apart.kernels[1].macs, std::int64_t{0});
        QCOMPARE(apart.kernels[1].flops, std::int64_t{256});
    }

    void aTensorReadTwiceIsMovedOnce() {
        OnnxBuilder b;
        b.input("x", {1, 32});
        b.node("Mul", {"x", "x"}, {"y"}, "square");
        b.output("y");
        const auto model = load(b);
        const auto g = group_kernels(model, node_edges(model), {});
        QCOMPARE(g.kernels.size(), std::size_t{1});
        QCOMPARE(g.kernels[0].bytes_in, std::int64_t{128});
        QCOMPARE(g.kernels[0].bytes_out, std::int64_t{128});
    }

    void aRotaryTableIsStoredWholeAndReadInRows() {
        OnnxBuilder b = test::GenAiDecoder::microsoft_builder();
        b.input("x", {1, 3, 32});
        b.input("positions", {1, 3}, onnx::TensorProto::INT64);
        b.initializer("cos", {1024, 4});
        b.initializer("sin", {1024, 4});
        test::GenAiDecoder::microsoft(
            b.node("RotaryEmbedding", {"x", "positions", "cos", "sin"}, {"y"}, "rotary"));
        b.output("y");
        const auto model = load(b);
        const auto g = group_kernels(model, node_edges(model), {});
        QCOMPARE(g.kernels.size(), std::size_t{1});
        QCOMPARE(g.kernels[0].weight_bytes, std::int64_t{2 * 1024 * 4 * 4}); // as stored
        QCOMPARE(g.kernels[0].bytes_in, std::int64_t{384 + 24 + 2 * 3 * 4 * 4});
    }

    void typesComeFromTheGivenFunction() {
        const auto model = conv_relu();
        NodeGroups groups(model);
        QVERIFY(groups.merge(0, 1));
        const auto g = make_kernel_graph(model, node_edges(model), groups, [&](int root) {
            return "FusedConv@" + std::to_string(groups.members(root).size());
        });
        QCOMPARE(g.kernels.size(), std::size_t{1});
        QCOMPARE(g.kernels[0].type, std::string("FusedConv@2"));
        QCOMPARE(g.fused, std::vector<bool>{true});
    }
};

QTEST_GUILESS_MAIN(KernelGraphTest)
#include "kernel_graph_test.moc"
