// Parts of a split model that would wait on each other: a pipeline whose parts only wait on
// earlier ones runs; a part that waits, through others, on itself is named with its cycle in the
// order the tensors flow.
#include "core/partition/waiting_cycle.hpp"

#include <QtTest>
#include <algorithm>

using cleave::partition::waiting_cycle;
using Waits = std::vector<std::pair<int, int>>;

namespace {

// Each part of `cycle` feeds the next and the last the first: the next waits on it.
bool flows(const std::vector<int>& cycle, const Waits& waits) {
    for (std::size_t i = 0; i < cycle.size(); ++i) {
        const std::pair<int, int> wait{cycle[(i + 1) % cycle.size()], cycle[i]};
        if (std::find(waits.begin(), waits.end(), wait) == waits.end())
            return false;
    }
    return !cycle.empty();
}

} // namespace

class WaitingCycleTest : public QObject {
    Q_OBJECT

private slots:
    void aThreeStagePipelineHasNoCycle() {
        // Stage 1 waits on stage 0, stage 2 on stage 1, and on stage 0 for a skip connection.
        QVERIFY(waiting_cycle(3, {{1, 0}, {2, 1}, {2, 0}}).empty());
        // Parts that wait on nothing, and repeated waits, are no cycle either.
        QVERIFY(waiting_cycle(3, {}).empty());
        QVERIFY(waiting_cycle(3, {{1, 0}, {1, 0}, {2, 1}, {2, 1}}).empty());
    }

    void aStageThatFeedsAnEarlierOneClosesACycle() {
        // Stage 0 waits on stage 2's output: 1 feeds 2, 2 feeds 0, 0 feeds 1.
        const Waits waits{{1, 0}, {2, 1}, {0, 2}};
        const auto cycle = waiting_cycle(3, waits);
        QCOMPARE(cycle, (std::vector<int>{1, 2, 0}));
        QVERIFY(flows(cycle, waits));
    }

    void theCycleLeavesOutPartsBesideIt() {
        // A PE that runs a segment before and after another's: parts 1 and 2 wait on each other;
        // 0 feeds the cycle and 3 reads from it, neither in it.
        const Waits waits{{1, 0}, {2, 1}, {1, 2}, {3, 2}};
        const auto cycle = waiting_cycle(4, waits);
        QCOMPARE(cycle, (std::vector<int>{2, 1}));
        QVERIFY(flows(cycle, waits));
    }

    void scratchIsReusedAcrossCalls() {
        cleave::partition::WaitingScratch scratch;
        const Waits cyclic{{1, 0}, {2, 1}, {0, 2}};
        QCOMPARE(waiting_cycle(3, cyclic, scratch), (std::vector<int>{1, 2, 0}));
        // A smaller, acyclic question after it is answered afresh.
        QVERIFY(waiting_cycle(2, {{1, 0}}, scratch).empty());
        QCOMPARE(waiting_cycle(3, cyclic, scratch), (std::vector<int>{1, 2, 0}));
    }
};

QTEST_APPLESS_MAIN(WaitingCycleTest)
#include "waiting_cycle_test.moc"
