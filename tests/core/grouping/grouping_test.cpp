// Balanced grouping: the objective (Arch2End Eq. 6), the feature vectors of devices, the
// incremental move/swap deltas, the exact solver on hand-checked cases and the local search
// against it on random clusters of library devices.
#include "../library_cluster.hpp"
#include "core/device/device_library.hpp"
#include "core/grouping/balanced_grouping.hpp"
#include "core/grouping/device_features.hpp"
#include "core/input_error.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <random>

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

class GroupingTest : public QObject {
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

    void flopsSumsPeakFp32OverProcessingElements() {
        const auto table = grouping::flops_features(test::library_cluster(
            {"jetson-orin-nano", "nvidia-t4", "raspberry-pi-4", "xeon-ort-1t"}));
        QCOMPARE(table.features, (std::vector<std::string>{"fp32_gflops"}));
        QCOMPARE(table.hosts, (std::vector<std::string>{"h1", "h2", "h3", "h4"}));
        QCOMPARE(table.values[0][0], 144.0 + 1280.0); // CPU and GPU
        QCOMPARE(table.values[1][0], 8100.0);
        QCOMPARE(table.values[2][0], 48.0); // the Pi 4's derived 4 x 1.5 GHz x 8
        QCOMPARE(table.values[3][0], 0.0);  // a measured device carries no datasheet figures
        QCOMPARE(table.notes.size(), std::size_t(1));
        QVERIFY(table.notes[0].starts_with("h4 (xeon-ort-1t): no fp32 peak"));
    }

    void configIsTheDatasheetVector() {
        const auto table =
            grouping::config_features(test::library_cluster({"jetson-xavier-nx", "nvidia-v100"}));
        QCOMPARE(table.features,
                 (std::vector<std::string>{"cpu_cores", "cpu_core_ghz", "gpu_sms", "gpu_cuda_cores",
                                           "memory_bandwidth_gbs", "memory_capacity_gib"}));
        const std::vector<double> nx{6, 6 * 1.9, 6, 384, 51.2, 8};
        const std::vector<double> v100{0, 0, 80, 5120, 900, 32};
        for (std::size_t f = 0; f < nx.size(); ++f) {
            QVERIFY(std::abs(table.values[0][f] - nx[f]) < 1e-12);
            QCOMPARE(table.values[1][f], v100[f]);
        }
        QVERIFY(table.notes.empty());
    }

    void normalisingDividesEachFeatureByItsLargestMagnitude() {
        const auto result = grouping::normalised({{2, 0, -4}, {8, 0, 1}});
        QCOMPARE(result, (FeatureMatrix{{0.25, 0, -1}, {1, 0, 0.25}}));
        QCOMPARE(grouping::feature_scales({{2, 0, -4}, {8, 0, 1}}), (std::vector<double>{8, 0, 4}));
    }

    void unknownFeatureSetIsAnInputError() {
        const auto cluster = test::library_cluster({"jetson-nano"});
        try {
            grouping::cluster_features(cluster, "hp");
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.place()), QString("--features"));
            QVERIFY(e.problem().find("expected one of flops, config") != std::string::npos);
        }
    }

    void featuresFileGivesEachHostItsVector() {
        QTemporaryDir dir;
        const auto cluster = test::library_cluster({"jetson-nano", "nvidia-t4"});
        const auto write = [&](const char* text) {
            const std::string path = dir.filePath("f.json").toStdString();
            std::ofstream(path) << text;
            return path;
        };
        auto table =
            grouping::features_from_file(write(R"({"h2": [3, 4], "h1": [1, 2]})"), cluster);
        QCOMPARE(table.values, (FeatureMatrix{{1, 2}, {3, 4}}));
        QCOMPARE(table.features, (std::vector<std::string>{"f0", "f1"}));
        table = grouping::features_from_file(
            write(
                R"({"features": ["hp_resnet", "hp_vgg"], "hosts": {"h1": [1, 2], "h2": [3, 4]}})"),
            cluster);
        QCOMPARE(table.features, (std::vector<std::string>{"hp_resnet", "hp_vgg"}));

        const auto place_of = [&](const char* text) -> QString {
            try {
                grouping::features_from_file(write(text), cluster);
            } catch (const InputError& e) {
                return QString::fromStdString(e.place() + ": " + e.problem());
            }
            return "no error";
        };
        QVERIFY(place_of(R"({"h1": [1, 2]})").startsWith("/h2: missing"));
        QVERIFY(
            place_of(R"({"h1": [1, 2], "h2": [3]})").startsWith("/h2: has 1 numbers; expected 2"));
        QVERIFY(place_of(R"({"h1": [1, "x"], "h2": [3, 4]})")
                    .startsWith("/h1/1: expected a finite number"));
        QVERIFY(place_of(R"({"h1": [1], "h2": [3], "h9": [1]})").startsWith("/h9: not a host"));
        QVERIFY(place_of(R"([1, 2])").startsWith("/: expected an object"));
    }
};

QTEST_GUILESS_MAIN(GroupingTest)
#include "grouping_test.moc"
