// Arch2End's Case 2 serving simulation: each group's capacity from its devices' image times, a
// task going to the group's device that finishes it first, a saturated group finishing at its
// capacity, and the spread that shows an unbalanced grouping.
#include "core/grouping/serving_simulation.hpp"

#include <QtTest>
#include <stdexcept>

using namespace cleave;

class ServingSimulationTest : public QObject {
    Q_OBJECT

private slots:
    void aGroupsCapacityIsTheSumOfItsDevicesRates() {
        // 1 ms, 4 ms and 2.5 ms an image: 1000 + 250 + 400 images/s.
        const auto one = grouping::simulate_serving({0, 0, 0}, 1, {1, 4, 2.5}, {.duration_s = 1});
        QCOMPARE(one.groups.size(), std::size_t{1});
        QCOMPARE(one.groups[0].devices, 3);
        QCOMPARE(one.groups[0].images_per_s, 1650.0);
        const auto two = grouping::simulate_serving({0, 1, 1}, 2, {1, 4, 2.5}, {.duration_s = 1});
        QCOMPARE(two.groups[0].images_per_s, 1000.0);
        QCOMPARE(two.groups[1].images_per_s, 650.0);
        QCOMPARE(two.groups[1].devices, 2);
    }

    void aLightLoadGoesToTheFastestDevice() {
        // One task a second of 2 images: the 1 ms device finishes each in 2 ms, the 10 ms one
        // would take 20; no task meets another.
        const auto r = grouping::simulate_serving({0, 0}, 1, {1, 10},
                                                  {.rate_per_s = 1, .duration_s = 20, .batch = 2});
        QVERIFY(r.groups[0].tasks >= 10 && r.groups[0].tasks <= 30);
        QCOMPARE(r.groups[0].mean_latency_ms, 2.0);
        QCOMPARE(r.groups[0].p95_latency_ms, 2.0);
        QCOMPARE(r.mean_latency_ms, 2.0);
        QCOMPARE(r.latency_std_ms, 0.0);
    }

    // 1000 tasks a second for a second, each 10 images of 1 ms: the device falls behind at once
    // and serves 100 tasks a second until the queue is empty.
    void aSaturatedGroupFinishesAtItsCapacity() {
        const grouping::ServingOptions flood{.rate_per_s = 1000, .duration_s = 1, .batch = 10};
        const auto one = grouping::simulate_serving({0}, 1, {1}, flood);
        const int tasks = one.groups[0].tasks;
        QVERIFY(tasks > 900 && tasks < 1100);
        // Busy from the first arrival (within 10 ms) to the last completion.
        const double busy_s = tasks * 0.010;
        QVERIFY(one.groups[0].completion_s >= busy_s);
        QVERIFY(one.groups[0].completion_s <= busy_s + 0.010);
        // Two such devices share the work: half the time.
        const auto pair = grouping::simulate_serving({0, 0}, 1, {1, 1}, flood);
        const double half_s = pair.groups[0].tasks * 0.005;
        QVERIFY(pair.groups[0].completion_s >= half_s);
        QVERIFY(pair.groups[0].completion_s <= half_s + 0.020);
    }

    void servingALightLoadHasNoQueue() {
        // 1 device at 1 ms an image, 20 tasks/s of 1 image: tasks almost never meet.
        const auto r = grouping::simulate_serving({0}, 1, {1.0},
                                                  {.rate_per_s = 20, .duration_s = 50, .batch = 1});
        QVERIFY(r.groups[0].tasks > 800 && r.groups[0].tasks < 1200);
        QVERIFY(r.groups[0].mean_latency_ms >= 1.0 && r.groups[0].mean_latency_ms < 1.05);
        QCOMPARE(r.latency_std_ms, 0.0);
        QCOMPARE(r.groups[0].images_per_s, 1000.0);
    }

    void servingShowsAnUnbalancedGrouping() {
        // Four devices: two fast (1 ms), two slow (4 ms). Balanced: one of each per group.
        const std::vector<double> ms{1, 1, 4, 4};
        const grouping::ServingOptions load{.rate_per_s = 100, .duration_s = 20, .batch = 4};
        const auto balanced = grouping::simulate_serving({0, 1, 0, 1}, 2, ms, load);
        const auto unbalanced = grouping::simulate_serving({0, 0, 1, 1}, 2, ms, load);
        // Per group 50 tasks/s x 16 ms = 0.8 of one slow device: the slow pair queues, the fast
        // pair does not.
        QVERIFY(unbalanced.latency_std_ms > 5 * balanced.latency_std_ms);
        QVERIFY(unbalanced.groups[1].mean_latency_ms > unbalanced.groups[0].mean_latency_ms);
        // The same seed, the same arrivals.
        const auto again = grouping::simulate_serving({0, 1, 0, 1}, 2, ms, load);
        QCOMPARE(again.mean_latency_ms, balanced.mean_latency_ms);
        // Overload: arrivals stop at 20 s, the queue drains later.
        const auto over = grouping::simulate_serving(
            {0, 0, 1, 1}, 2, ms, {.rate_per_s = 400, .duration_s = 20, .batch = 4});
        QVERIFY(over.groups[1].completion_s > 25);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 grouping::simulate_serving({0, 0}, 2, {1, 1}, load));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 grouping::simulate_serving({0, 1}, 2, {1, 0}, load));
    }

    void requestsThatCannotBeServedAreRefused() {
        const grouping::ServingOptions load{.duration_s = 1};
        // One image time per device, groups from 1, a rate, a duration and a batch above 0.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 grouping::simulate_serving({0, 0}, 1, {1}, load));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 grouping::simulate_serving({0}, 0, {1}, load));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 grouping::simulate_serving({0}, 1, {1}, {.rate_per_s = 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 grouping::simulate_serving({0}, 1, {1}, {.duration_s = 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 grouping::simulate_serving({0}, 1, {1}, {.batch = 0}));
        // A device in no group.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 grouping::simulate_serving({0, 2}, 2, {1, 1}, load));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 grouping::simulate_serving({0, -1}, 2, {1, 1}, load));
    }
};

QTEST_GUILESS_MAIN(ServingSimulationTest)
#include "serving_simulation_test.moc"
