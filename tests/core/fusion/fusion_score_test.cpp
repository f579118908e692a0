// How predicted kernels match a runtime's own: the measured kernel of each node, which edges the
// runtime fused, the confusion counts and kernel counts, and the rates made from them.
#include "../graph/onnx_builder.hpp"
#include "core/fusion/fusion_score.hpp"
#include "core/graph/onnx_import.hpp"

#include <QtTest>

using namespace cleave;
using namespace cleave::fusion;
using cleave::test::OnnxBuilder;

namespace {

// x -> conv -> bn -> relu -> pool, a chain of four nodes and three edges.
graph::Model chain() {
    OnnxBuilder b;
    b.input("x", {1, 4, 8, 8});
    b.initializer("w", {4, 4, 1, 1});
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Sigmoid", {"c"}, {"s"}, "sig");
    b.node("Relu", {"s"}, {"r"}, "relu");
    b.node("GlobalAveragePool", {"r"}, {"y"}, "pool");
    b.output("y");
    return graph::load_model_from_bytes(b.bytes(), "chain.onnx");
}

profile::MeasuredKernel kernel(const std::string& name, std::vector<std::string> covers) {
    return {name, name, "", std::move(covers), std::nullopt};
}

} // namespace

class FusionScoreTest : public QObject {
    Q_OBJECT

private slots:
    void ratesFromTheCounts() {
        FusionScore s;
        s.true_fused = 6;
        s.false_fused = 2;
        s.missed = 3;
        s.true_apart = 9;
        s.kernels_predicted = 12;
        s.kernels_measured = 10;
        QCOMPARE(s.edges(), 20);
        QCOMPARE(s.accuracy(), 15.0 / 20);
        QCOMPARE(s.precision(), 6.0 / 8);
        QCOMPARE(s.recall(), 6.0 / 9);
        QCOMPARE(s.kernel_count_error(), 0.2);
        s.kernels_predicted = 7;
        QCOMPARE(s.kernel_count_error(), -0.3);
    }

    void nothingToJudgeIsPerfect() {
        const FusionScore none;
        QCOMPARE(none.edges(), 0);
        QCOMPARE(none.accuracy(), 1.0);
        QCOMPARE(none.precision(), 1.0);
        QCOMPARE(none.recall(), 1.0);
        QCOMPARE(none.kernel_count_error(), 0.0);
    }

    void scoresAddUp() {
        FusionScore a{1, 2, 3, 4, 5, 6, 7};
        const FusionScore b{10, 20, 30, 40, 50, 60, 70};
        a += b;
        QCOMPARE(a.true_fused, 11);
        QCOMPARE(a.false_fused, 22);
        QCOMPARE(a.missed, 33);
        QCOMPARE(a.true_apart, 44);
        QCOMPARE(a.kernels_predicted, 55);
        QCOMPARE(a.kernels_measured, 66);
        QCOMPARE(a.uncovered_nodes, 77);
    }

    void eachNodeTakesTheFirstKernelNamingIt() {
        const auto model = chain();
        profile::MeasuredRun run;
        run.kernels = {kernel("FusedConv", {"conv", "sig"}), kernel("Relu", {"relu", "sig"}),
                       kernel("Reorder", {})};
        QCOMPARE(measured_kernel_of_node(model, run), (std::vector<int>{0, 0, 1, -1}));
    }

    void anEdgeIsFusedWhenOneKernelCoversBothEnds() {
        const std::vector<Edge> edges{{0, 1, 0}, {1, 2, 0}, {2, 3, 0}, {3, 4, 0}};
        QCOMPARE(measured_fused_edges(edges, {0, 0, 1, -1, -1}),
                 (std::vector<bool>{true, false, false, false})); // -1 is no kernel
    }

    void predictedKernelsAgainstMeasuredOnes() {
        const auto model = chain();
        const auto edges = node_edges(model); // conv->sig, sig->relu, relu->pool
        // The runtime fused conv+sig and ran relu and pool apart, plus a kernel naming no node;
        // the prediction fused sig+relu and relu+pool.
        profile::MeasuredRun run;
        run.kernels = {kernel("FusedConv", {"conv", "sig"}), kernel("Relu", {"relu"}),
                       kernel("Pool", {"pool"}), kernel("Copy", {})};
        auto predicted = group_kernels(model, edges, {false, true, true});
        predicted.kernels[1].launches = 2;
        const auto s = score_fusion(model, predicted, run);
        QCOMPARE(s.true_fused, 0);
        QCOMPARE(s.false_fused, 2);
        QCOMPARE(s.missed, 1);
        QCOMPARE(s.true_apart, 0);
        QCOMPARE(s.kernels_predicted, 3); // conv, then sig+relu+pool launched twice
        QCOMPARE(s.kernels_measured, 4);
        QCOMPARE(s.uncovered_nodes, 0);

        run.kernels.erase(run.kernels.begin() + 2); // the pool is covered by no kernel now
        const auto t = score_fusion(model, group_kernels(model, edges, {true, false, false}), run);
        QCOMPARE(t.true_fused, 1);
        QCOMPARE(t.true_apart, 2);
        QCOMPARE(t.uncovered_nodes, 1);
        QCOMPARE(t.kernels_predicted, 3);
        QCOMPARE(t.kernels_measured, 3);
        QCOMPARE(t.accuracy(), 1.0);
    }
};

QTEST_GUILESS_MAIN(FusionScoreTest)
#include "fusion_score_test.moc"
