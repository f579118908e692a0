// The balance of a grouping (Arch2End Eq. 6): the summed population variance of the groups'
// feature sums, the sums themselves, and the move and swap deltas GroupState keeps in O(F).
#include "core/grouping/group_balance.hpp"

#include <QtTest>
#include <cmath>
#include <random>
#include <stdexcept>

using namespace cleave;
using grouping::FeatureMatrix;

class GroupBalanceTest : public QObject {
    Q_OBJECT

private slots:
    void objectiveIsSummedPopulationVarianceOfGroupSums() {
        const FeatureMatrix one{{1}, {2}, {3}};
        QCOMPARE(grouping::balance_objective(one, {0, 0, 1}, 2), 0.0); // sums 3, 3
        QCOMPARE(grouping::balance_objective(one, {0, 1, 1}, 2), 4.0); // sums 1, 5
        // Two features add: sums (1, 10) and (5, 2): variances 4 and 16.
        const FeatureMatrix two{{1, 10}, {2, 0}, {3, 2}};
        QCOMPARE(grouping::balance_objective(two, {0, 1, 1}, 2), 20.0);
    }

    void groupSumsAddEachGroupsFeatures() {
        const FeatureMatrix two{{1, 10}, {2, 0}, {3, 2}};
        QCOMPARE(grouping::group_sums(two, {0, 1, 1}, 2),
                 (std::vector<std::vector<double>>{{1, 10}, {5, 2}}));
        // A group without devices sums to zero; one group has no variance.
        QCOMPARE(grouping::group_sums(two, {1, 1, 1}, 2),
                 (std::vector<std::vector<double>>{{0, 0}, {6, 12}}));
        QCOMPARE(grouping::balance_objective(two, {0, 0, 0}, 1), 0.0);
    }

    void aMoveAndASwapChangeTheObjectiveByTheirDelta() {
        // Sums (1, 10) and (5, 2): objective 4 + 16 = 20.
        const FeatureMatrix two{{1, 10}, {2, 0}, {3, 2}};
        grouping::GroupState state(two, {0, 1, 1}, 2);
        QCOMPARE(state.groups(), 2);
        QCOMPARE(state.devices(), std::size_t{3});
        QCOMPARE(state.size(0), 1);
        QCOMPARE(state.size(1), 2);
        QCOMPARE(state.sum(1, 0), 5.0);
        QCOMPARE(state.sum(1, 1), 2.0);
        QCOMPARE(state.objective(), 20.0);
        // Device 0 joining group 1: sums (0, 0) and (6, 12), objective 9 + 36 = 45.
        QCOMPARE(state.move_delta(0, 1), 25.0);
        // Devices 0 and 1 trading groups: sums (2, 0) and (4, 12), objective 1 + 36 = 37.
        QCOMPARE(state.swap_delta(0, 1), 17.0);
        state.swap(0, 1);
        QCOMPARE(state.group_of(), (std::vector<int>{1, 0, 1}));
        QCOMPARE(state.objective(), 37.0);
        QCOMPARE(state.sum(0, 0), 2.0);
        QCOMPARE(state.sum(1, 1), 12.0);
        state.move(2, 0);
        QCOMPARE(state.group_of(), (std::vector<int>{1, 0, 0}));
        QCOMPARE(state.size(0), 2);
        QCOMPARE(state.size(1), 1);
        // Sums (5, 2) and (1, 10) again.
        QCOMPARE(state.objective(), 20.0);
        state.refresh();
        QCOMPARE(state.objective(), 20.0);
    }

    void aStateRefusesGroupsItCannotHold() {
        const FeatureMatrix one{{1}, {2}, {3}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grouping::GroupState(one, {0, 1}, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grouping::GroupState(one, {0, 1, 2}, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grouping::GroupState(one, {0, -1, 1}, 2));
    }

    void deltasEqualFullRecomputation() {
        std::mt19937_64 rng(11);
        std::uniform_real_distribution<double> uniform(0.0, 1.0);
        const int groups = 4;
        FeatureMatrix values(20, std::vector<double>(5));
        for (auto& row : values)
            for (auto& x : row)
                x = uniform(rng);
        std::vector<int> start(values.size());
        for (std::size_t d = 0; d < start.size(); ++d)
            start[d] = static_cast<int>(d % groups);
        grouping::GroupState state(values, start, groups);
        for (int step = 0; step < 2000; ++step) {
            const std::size_t d = rng() % values.size();
            const double before = grouping::balance_objective(values, state.group_of(), groups);
            double delta = 0;
            if (step % 2 == 0) {
                const int to = static_cast<int>(rng() % groups);
                if (to == state.group_of()[d])
                    continue;
                delta = state.move_delta(d, to);
                state.move(d, to);
            } else {
                const std::size_t e = rng() % values.size();
                if (state.group_of()[e] == state.group_of()[d])
                    continue;
                delta = state.swap_delta(d, e);
                state.swap(d, e);
            }
            const double after = grouping::balance_objective(values, state.group_of(), groups);
            QVERIFY(std::abs(after - before - delta) < 1e-9);
            QVERIFY(std::abs(state.objective() - after) < 1e-9);
        }
        const auto sums = grouping::group_sums(values, state.group_of(), groups);
        for (int g = 0; g < groups; ++g)
            for (std::size_t f = 0; f < 5; ++f)
                QVERIFY(std::abs(state.sum(g, f) - sums[g][f]) < 1e-9);
    }
};

QTEST_GUILESS_MAIN(GroupBalanceTest)
#include "group_balance_test.moc"
