// Balanced device grouping (Arch2End, Case 2): the greedy start, the descent by moves and swaps,
// the seeded local search and the exact solver, on hand-checked cases, against brute force, and
// the local search against the exact optimum on random clusters of library devices.
#include "../library_cluster.hpp"
#include "core/device/device_library.hpp"
#include "core/grouping/balanced_grouping.hpp"
#include "core/grouping/device_features.hpp"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

using namespace cleave;
using grouping::FeatureMatrix;

namespace {

// Every labelled assignment with no empty group: the optimum by brute force.
double brute_force_optimum(const FeatureMatrix& values, int groups) {
    const std::size_t m = values.size();
    std::vector<int> group_of(m, 0);
    double best = std::numeric_limits<double>::infinity();
    for (;;) {
        std::vector<int> size(groups, 0);
        for (const int g : group_of)
            ++size[g];
        if (std::count(size.begin(), size.end(), 0) == 0)
            best = std::min(best, grouping::balance_objective(values, group_of, groups));
        std::size_t i = 0;
        while (i < m && ++group_of[i] == groups)
            group_of[i++] = 0;
        if (i == m)
            return best;
    }
}

bool same_objective(double a, double b) {
    return std::abs(a - b) <= 1e-9 * (1.0 + std::abs(b));
}

std::vector<int> group_sizes(const std::vector<int>& group_of, int groups) {
    std::vector<int> size(groups, 0);
    for (const int g : group_of)
        ++size[g];
    return size;
}

} // namespace

class BalancedGroupingTest : public QObject {
    Q_OBJECT

private slots:
    // 3, 3, 2, 2, 2 into two groups: the best is {3, 3} and {2, 2, 2}, six each. The greedy start
    // (largest first into the lightest group) ends at 7 and 5; one swap of a 3 and a 2 evens them.
    void twoGroupsOfFiveDevicesReachTheKnownBest() {
        const FeatureMatrix values{{3}, {3}, {2}, {2}, {2}};
        const auto greedy = grouping::greedy_grouping(values, 2);
        QCOMPARE(greedy.group_of, (std::vector<int>{0, 1, 0, 1, 0}));
        QCOMPARE(greedy.objective, 1.0);
        std::int64_t steps = 0;
        const auto descended = grouping::descend(values, greedy.group_of, 2, true, &steps);
        QCOMPARE(descended.group_of, (std::vector<int>{0, 0, 1, 1, 1}));
        QCOMPARE(descended.objective, 0.0);
        QCOMPARE(steps, std::int64_t{1});
        const auto search = grouping::balance_local_search(values, 2, {.restarts = 3, .kicks = 5});
        QCOMPARE(search.best.group_of, (std::vector<int>{0, 0, 1, 1, 1}));
        QCOMPARE(search.best.objective, 0.0);
        QCOMPARE(search.starts, 4);
        QCOMPARE(search.starts_reaching_best, 4);
        QCOMPARE(grouping::balance_exact(values, 2).group_of, (std::vector<int>{0, 0, 1, 1, 1}));
        // Taking the first improving move or swap ends there too.
        QCOMPARE(grouping::descend(values, greedy.group_of, 2, false).objective, 0.0);
    }

    void fourDevicesIntoTwoGroupsPairTheLargestWithTheSmallest() {
        // 5 + 2 = 4 + 3: the only split with equal sums.
        const FeatureMatrix values{{5}, {4}, {3}, {2}};
        for (const auto& found :
             {grouping::balance_local_search(values, 2).best, grouping::balance_exact(values, 2)}) {
            QCOMPARE(found.group_of, (std::vector<int>{0, 1, 1, 0}));
            QCOMPARE(found.objective, 0.0);
        }
    }

    void groupsAreNumberedByTheirFirstDevice() {
        QCOMPARE(grouping::canonical_groups({2, 2, 0, 1, 0}), (std::vector<int>{0, 0, 1, 2, 1}));
        QCOMPARE(grouping::canonical_groups({1, 0}), (std::vector<int>{0, 1}));
        QVERIFY(grouping::canonical_groups({}).empty());
    }

    void groupsMustNumberOneToTheDevices() {
        const FeatureMatrix values{{1}, {2}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grouping::greedy_grouping(values, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grouping::greedy_grouping(values, 3));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grouping::balance_local_search(values, 3));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grouping::balance_exact(values, 0));
        // The exact solver stops at kExactMaxDevices.
        const FeatureMatrix many(grouping::kExactMaxDevices + 1, std::vector<double>{1.0});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grouping::balance_exact(many, 2));
    }

    void exactSolverSplitsIntoEqualSums() {
        const FeatureMatrix values{{8}, {7}, {6}, {5}, {4}};
        const auto best = grouping::balance_exact(values, 2);
        QCOMPARE(best.objective, 0.0);
        QCOMPARE(best.group_of, (std::vector<int>{0, 0, 1, 1, 1}));
    }

    void exactSolverPairsComplementaryDevices() {
        // Two CPU-only and two GPU-only devices: each group takes one of each.
        const FeatureMatrix values{{1, 0}, {1, 0}, {0, 1}, {0, 1}};
        const auto best = grouping::balance_exact(values, 2);
        QCOMPARE(best.objective, 0.0);
        QCOMPARE(best.group_of[0] == best.group_of[1], false);
        QCOMPARE(best.group_of[2] == best.group_of[3], false);
    }

    void exactSolverLeavesTheBigDeviceAlone() {
        // {5} {1} {1 1}: sums 5, 1, 2, variance 78/27; {5 1} {1} {1} gives 150/27.
        const FeatureMatrix values{{5}, {1}, {1}, {1}};
        const auto best = grouping::balance_exact(values, 3);
        QVERIFY(same_objective(best.objective, 78.0 / 27.0));
        QCOMPARE(group_sizes(best.group_of, 3)[0], 1);
        // {3} {3 2}: sums 3 and 5, variance 1.
        QVERIFY(same_objective(grouping::balance_exact({{3}, {3}, {2}}, 2).objective, 1.0));
    }

    void exactSolverMatchesBruteForce() {
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> uniform(-1.0, 1.0);
        for (int instance = 0; instance < 60; ++instance) {
            const std::size_t m = 3 + instance % 6;
            const int groups = 1 + instance % 4;
            if (static_cast<std::size_t>(groups) > m)
                continue;
            // Half the instances have negative features, where the bound is off.
            const bool signed_values = instance % 2 == 1;
            FeatureMatrix values(m, std::vector<double>(3));
            for (auto& row : values)
                for (auto& x : row)
                    x = signed_values ? uniform(rng) : std::abs(uniform(rng));
            const auto exact = grouping::balance_exact(values, groups);
            QVERIFY2(same_objective(exact.objective, brute_force_optimum(values, groups)),
                     qPrintable(QString("instance %1").arg(instance)));
            QVERIFY(same_objective(exact.objective,
                                   grouping::balance_objective(values, exact.group_of, groups)));
            QVERIFY(!group_sizes(exact.group_of, groups).empty());
            for (const int size : group_sizes(exact.group_of, groups))
                QVERIFY(size > 0);
        }
    }

    void noGroupIsLeftEmpty() {
        const FeatureMatrix zeros(5, std::vector<double>(2, 0.0));
        for (const auto& grouping :
             {grouping::greedy_grouping(zeros, 3), grouping::balance_local_search(zeros, 3).best,
              grouping::balance_exact(zeros, 3)})
            for (const int size : group_sizes(grouping.group_of, 3))
                QVERIFY(size > 0);
        // One huge device and G = M: every device alone.
        const auto alone = grouping::balance_local_search({{100}, {1}, {1}}, 3).best;
        QCOMPARE(alone.group_of, (std::vector<int>{0, 1, 2}));
    }

    void localSearchIsRepeatableForASeed() {
        std::mt19937_64 rng(3);
        std::uniform_real_distribution<double> uniform(0.0, 1.0);
        FeatureMatrix values(30, std::vector<double>(4));
        for (auto& row : values)
            for (auto& x : row)
                x = uniform(rng);
        const auto a = grouping::balance_local_search(values, 4, {.restarts = 5, .seed = 42});
        const auto b = grouping::balance_local_search(values, 4, {.restarts = 5, .seed = 42});
        QCOMPARE(a.best.group_of, b.best.group_of);
        QCOMPARE(a.best.objective, b.best.objective);
        QCOMPARE(a.steps, b.steps);
        QCOMPARE(a.starts, 6);
    }

    void localSearchReachesTheExactOptimumOnLibraryClusters() {
        // 200 clusters of 6 to 12 library devices drawn with replacement, G in {2, 3, 4},
        // alternately by peak FP32 and by the configuration vector.
        const auto library = device::library_device_ids();
        std::vector<std::string> ids(library.begin(), library.end() - 1); // not this-machine
        std::mt19937_64 rng(2024);
        int reached = 0;
        const int instances = 200;
        for (int instance = 0; instance < instances; ++instance) {
            const std::size_t m = 6 + rng() % 7;
            const int groups = 2 + static_cast<int>(rng() % 3);
            std::vector<std::string> drawn;
            for (std::size_t d = 0; d < m; ++d)
                drawn.push_back(ids[rng() % ids.size()]);
            const auto cluster = test::library_cluster(drawn);
            const auto table = instance % 2 ? grouping::config_features(cluster)
                                            : grouping::flops_features(cluster);
            const auto values = grouping::normalised(table.values);
            const auto search = grouping::balance_local_search(values, groups);
            const auto exact = grouping::balance_exact(values, groups);
            QVERIFY(search.best.objective >= exact.objective - 1e-9);
            if (same_objective(search.best.objective, exact.objective))
                ++reached;
        }
        qInfo("local search reached the exact optimum on %d of %d instances", reached, instances);
        QVERIFY(reached >= instances * 95 / 100);
    }
};

QTEST_GUILESS_MAIN(BalancedGroupingTest)
#include "balanced_grouping_test.moc"
