// The Partition tab's opening and balanced mappings on the hand-computable four-kernel model:
// the least slowest segment over a given PE order, and the best of the hosts' fastest PEs.
#include "core/partition/balanced_mapping.hpp"
#include "tiny_partition_model.hpp"

#include <QtTest>

using namespace cleave;

namespace {

// Per PE (h1 cpu, h1 gpu, h2 cpu, h2 gpu, h3 cpu, h3 gpu) and kernel, in ms.
std::vector<std::vector<double>> latencies() {
    return {{100, 100, 100, 100}, {1, 2, 3, 4},         {100, 100, 100, 100},
            {10, 20, 30, 40},     {100, 100, 100, 100}, {0.5, 0.5, 0.5, 0.5}};
}

} // namespace

class BalancedMappingTest : public QObject {
    Q_OBJECT

private slots:
    void slowestSegmentIsLeast() {
        // h2's GPU first: it takes kernel 0 (10 ms), h1's GPU the rest (9 ms); any lower limit
        // leaves kernel 0 to h1, which then cannot take all four.
        auto mapping = partition::balanced_mapping(latencies(), {3, 1});
        QCOMPARE(mapping.points, (std::vector<int>{1}));
        QCOMPARE(mapping.pes, (std::vector<int>{3, 1}));
        // h1's GPU first runs everything in 10 ms: h2 would only add to it and is left out.
        mapping = partition::balanced_mapping(latencies(), {1, 3});
        QVERIFY(mapping.points.empty());
        QCOMPARE(mapping.pes, (std::vector<int>{1}));
        QVERIFY(partition::balanced_mapping(latencies(), {}).pes.empty());
    }

    void splitsGoBetweenBlocksWhenThatCostsLittle() {
        // Twenty 1 ms kernels on two equal PEs: anywhere, the split is at 10. Where one tensor
        // crosses only at 9 and 12 (block ends), 9 costs the slowest segment 10%: taken. Where
        // it crosses only at 5 and 15, a block split would cost 50%: the split stays at 10.
        const std::vector<std::vector<double>> ms(2, std::vector<double>(20, 1.0));
        std::vector<int> crossing(21, 2);
        crossing.front() = crossing.back() = 0;
        QCOMPARE(partition::balanced_mapping(ms, {0, 1}).points, std::vector<int>{10});
        crossing[9] = crossing[12] = 1;
        QCOMPARE(partition::balanced_mapping(ms, {0, 1}, crossing).points, std::vector<int>{9});
        crossing[9] = crossing[12] = 2;
        crossing[5] = crossing[15] = 1;
        QCOMPARE(partition::balanced_mapping(ms, {0, 1}, crossing).points, std::vector<int>{10});
    }

    void defaultIsTheFastestHostsBestSplit() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        const auto cluster = test::tiny_cluster();
        auto ms = latencies();
        const partition::MappingCosts costs(model, kernels, cluster, ms);
        // h3's GPU runs the model in 2 ms: nothing split beats it.
        auto mapping = partition::default_mapping(costs, cluster, ms);
        QVERIFY(mapping.points.empty());
        QCOMPARE(mapping.pes, (std::vector<int>{5}));
        // Without latencies for h3, h1's GPU (10 ms) is the fastest; h2's GPU cannot help it.
        ms[4].clear();
        ms[5].clear();
        mapping = partition::default_mapping(costs, cluster, ms);
        QCOMPARE(mapping.pes, (std::vector<int>{1}));
        // No PE with latencies: no mapping.
        for (auto& row : ms)
            row.clear();
        QVERIFY(partition::default_mapping(costs, cluster, ms).pes.empty());
    }
};

QTEST_GUILESS_MAIN(BalancedMappingTest)
#include "balanced_mapping_test.moc"
