// Split points that cut a model into parts of about equal node counts: each cut at the kernel
// boundary nearest to s x nodes / parts, with room left for the cuts still to come.
#include "core/input_error.hpp"
#include "core/partition/equal_node_points.hpp"
#include "tiny_partition_model.hpp"

#include <QtTest>

using namespace cleave;

namespace {

// A kernel graph whose kernel k holds sizes[k] nodes (only the counts matter here).
fusion::KernelGraph kernels_of_sizes(const std::vector<int>& sizes) {
    fusion::KernelGraph graph;
    int node = 0;
    for (const int size : sizes) {
        fusion::Kernel kernel;
        for (int i = 0; i < size; ++i)
            kernel.nodes.push_back(node++);
        graph.kernels.push_back(kernel);
    }
    return graph;
}

QString parts_error(const fusion::KernelGraph& kernels, int parts) {
    try {
        partition::equal_node_points(kernels, parts);
    } catch (const InputError& e) {
        return QString::fromStdString(e.place() + ": " + e.problem());
    }
    return "no error";
}

} // namespace

class EqualNodePointsTest : public QObject {
    Q_OBJECT

private slots:
    void equalKernelsSplitIntoEqualParts() {
        // Nine one-node kernels into 3 parts of 3 nodes.
        const auto nine = kernels_of_sizes(std::vector<int>(9, 1));
        QCOMPARE(partition::equal_node_points(nine, 3), (std::vector<int>{3, 6}));
        // Into 9: every kernel a part of its own.
        QCOMPARE(partition::equal_node_points(nine, 9), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
        // One part: no cut.
        QVERIFY(partition::equal_node_points(nine, 1).empty());
    }

    void cutsFallAtTheNearestKernelBoundary() {
        // Kernels of 1, 3, 1, 1, 2 nodes (8): half is 4 nodes, after the second kernel.
        const auto graph = kernels_of_sizes({1, 3, 1, 1, 2});
        QCOMPARE(partition::equal_node_points(graph, 2), (std::vector<int>{2}));
        // Thirds at 8/3 and 16/3 nodes: boundaries hold 1, 4, 5, 6 nodes; 4 and 5 are nearest.
        QCOMPARE(partition::equal_node_points(graph, 3), (std::vector<int>{2, 3}));
    }

    void laterCutsKeepRoomAfterABigKernel() {
        // A 4-node kernel then four of one node (8): quarters at 2, 4, 6 nodes. The first cut
        // can only follow the big kernel (4 nodes), the others each one kernel further.
        const auto graph = kernels_of_sizes({4, 1, 1, 1, 1});
        QCOMPARE(partition::equal_node_points(graph, 4), (std::vector<int>{1, 2, 3}));
        QCOMPARE(partition::equal_node_points(graph, 2), (std::vector<int>{1}));
    }

    void aTieKeepsTheEarlierBoundary() {
        // Three kernels of 2 nodes: half (3 nodes) is 1 node from either boundary.
        QCOMPARE(partition::equal_node_points(kernels_of_sizes({2, 2, 2}), 2),
                 (std::vector<int>{1}));
    }

    void theFourKernelModelSplitsInHalves() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        QCOMPARE(partition::equal_node_points(kernels, 2), (std::vector<int>{2}));
        QCOMPARE(partition::equal_node_points(kernels, 4), (std::vector<int>{1, 2, 3}));
    }

    void partsOutsideOneToKernelsNameTheFlag() {
        const auto graph = kernels_of_sizes({1, 1, 1});
        QCOMPARE(parts_error(graph, 0),
                 QString("--parts: 0 parts: expected 1 to 3 (the model has 3 kernels)"));
        QCOMPARE(parts_error(graph, 4),
                 QString("--parts: 4 parts: expected 1 to 3 (the model has 3 kernels)"));
    }
};

QTEST_GUILESS_MAIN(EqualNodePointsTest)
#include "equal_node_points_test.moc"
