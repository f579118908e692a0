// The launch-bound model: its per-launch form, the joint fit on end-to-end totals (recovering
// the floor, the overhead and a rate from totals made by known parameters, keeping a known
// rate and a known bandwidth), the per-kernel Regressor's fit, its file round trip and the files it refuses.
#include "core/predict/kernel_features.hpp"
#include "core/predict/launch_bound.hpp"
#include "core/predict/regressor.hpp"

#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>

using namespace cleave::predict;

namespace {

// Totals of `count` runs, each a random mix of launches of two groups (floors 20 and 30 us,
// group 0 bound by its FLOPs at 50 TFLOP/s) plus a 400 us overhead.
std::vector<LaunchBoundTotal> made_totals(int count, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> launches(20, 400);
    std::uniform_real_distribution<double> log_flops(4, 10); // 10 kFLOP .. 10 GFLOP
    std::vector<LaunchBoundTotal> totals;
    for (int r = 0; r < count; ++r) {
        LaunchBoundTotal t;
        t.us = 400;
        const int n = launches(random);
        for (int k = 0; k < n; ++k) {
            const int group = k % 3 == 0 ? 1 : 0;
            const double flops = group == 0 ? std::pow(10.0, log_flops(random)) : 1e4;
            t.kernels.push_back({group, 1.0, flops, 1e5});
            t.us += group == 0 ? std::max(20.0, flops / 50e6) : 30.0;
        }
        totals.push_back(std::move(t));
    }
    return totals;
}

std::string load_error(const nlohmann::json& model) {
    LaunchBoundRegressor r;
    try {
        r.load(model.dump(), kernel_feature_names().size());
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

class LaunchBoundTest : public QObject {
    Q_OBJECT

private slots:
    void aLaunchCostsItsFloorOrItsWork() {
        const LaunchBoundParameters p{20, 50000, 2000};        // 20 us, 50 TFLOP/s, 2 TB/s
        QCOMPARE(launch_bound_us(p, 1e6, 1e5), 20.0);          // 0.02 us of work: the floor
        QCOMPARE(launch_bound_us(p, 5e9, 1e5), 100.0);         // 5 GFLOP at 50 TFLOP/s
        QCOMPARE(launch_bound_us(p, 1e6, 4e8), 200.0);         // 400 MB at 2 TB/s
        QCOMPARE(launch_bound_us({20, 0, 0}, 5e9, 4e8), 20.0); // no rate: never bound by work
    }

    void fitRecoversFloorsOverheadAndRateFromTotals() {
        LaunchBoundFitOptions options;
        options.groups = 2;
        options.compute_bound = {true, false};
        options.floor_ridge = 0; // the two groups' floors differ for real here
        const auto fit = fit_launch_bound(made_totals(60, 1), options);
        QVERIFY2(fit.training_mape < 1e-3, std::to_string(fit.training_mape).c_str());
        QVERIFY2(std::abs(fit.overhead_us - 400) < 4, std::to_string(fit.overhead_us).c_str());
        QVERIFY(std::abs(fit.groups[0].floor_us - 20) < 0.2);
        QVERIFY(std::abs(fit.groups[1].floor_us - 30) < 0.3);
        QVERIFY2(std::abs(fit.groups[0].gflops - 50000) < 500,
                 std::to_string(fit.groups[0].gflops).c_str());
        QCOMPARE(fit.groups[1].gflops, 0.0);
    }

    void aKnownRateIsKept() {
        LaunchBoundFitOptions options;
        options.groups = 2;
        options.compute_bound = {false, false};
        options.known_gflops = {50000, 0};
        options.floor_ridge = 0;
        const auto fit = fit_launch_bound(made_totals(40, 2), options);
        QCOMPARE(fit.groups[0].gflops, 50000.0);
        QVERIFY(fit.training_mape < 1e-3);
        QVERIFY(std::abs(fit.groups[0].floor_us - 20) < 0.2);
    }

    void aKnownBandwidthIsKept() {
        // Group 1 moves 100 MB per launch: 50 us at 2 TB/s, above its 30 us floor.
        auto totals = made_totals(40, 3);
        for (auto& t : totals)
            for (auto& k : t.kernels)
                if (k.group == 1) {
                    k.bytes = 1e8;
                    t.us += 20;
                }
        LaunchBoundFitOptions options;
        options.groups = 2;
        options.compute_bound = {true, false};
        options.known_bandwidth_gbs = 2000;
        options.floor_ridge = 0;
        const auto fit = fit_launch_bound(totals, options);
        QCOMPARE(fit.groups[1].bandwidth_gbs, 2000.0);
        QCOMPARE(fit.groups[0].bandwidth_gbs, 2000.0);
        QVERIFY2(fit.training_mape < 1e-3, std::to_string(fit.training_mape).c_str());
        QVERIFY(std::abs(fit.groups[0].floor_us - 20) < 0.2);
    }

    void theRidgePullsFloorsTogether() {
        LaunchBoundFitOptions options;
        options.groups = 2;
        options.compute_bound = {true, false};
        options.floor_ridge = 100;
        const auto fit = fit_launch_bound(made_totals(60, 1), options);
        QVERIFY(std::abs(fit.groups[0].floor_us - fit.groups[1].floor_us) < 1);
        QVERIFY(fit.shared_floor_us > 15);
    }

    void aFreeGroupsFloorSitsBelowTheSharedOne() {
        // Launches of a kernel (group 0, 20 us) and of a view (group 1, 3 us) in random mixes,
        // plus 400 us: the ridge holds group 0 at the shared floor, and group 1, free of it, goes
        // below.
        std::mt19937 random(4);
        std::uniform_int_distribution<int> launches(20, 400);
        std::vector<LaunchBoundTotal> totals;
        for (int r = 0; r < 60; ++r) {
            LaunchBoundTotal t;
            t.us = 400;
            for (int g = 0; g < 2; ++g) {
                const int n = launches(random);
                t.kernels.push_back({g, static_cast<double>(n), 0.0, 0.0});
                t.us += n * (g == 0 ? 20.0 : 3.0);
            }
            totals.push_back(std::move(t));
        }
        LaunchBoundFitOptions options;
        options.groups = 2;
        options.compute_bound = {false, false};
        options.floor_ridge = 100;
        options.floor_ridge_factors = {1, 0};
        const auto fit = fit_launch_bound(totals, options);
        QVERIFY2(std::abs(fit.groups[1].floor_us - 3) < 0.1,
                 std::to_string(fit.groups[1].floor_us).c_str());
        QVERIFY2(std::abs(fit.groups[0].floor_us - 20) < 0.2,
                 std::to_string(fit.groups[0].floor_us).c_str());
        QVERIFY(fit.training_mape < 1e-3);
    }

    void badTotalsAreRefused() {
        LaunchBoundFitOptions options;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fit_launch_bound({}, options));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 fit_launch_bound({{{{0, 1, 0, 0}}, -1.0}}, options));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 fit_launch_bound({{{{3, 1, 0, 0}}, 10.0}}, options));
    }

    void regressorFitsKernelsSavesAndLoads() {
        // Kernel samples: 25 us floor, 40 TFLOP/s beyond it.
        const auto& names = kernel_feature_names();
        const auto columns = names.size();
        const auto flops = static_cast<std::size_t>(std::find(names.begin(), names.end(), "flops") -
                                                    names.begin());
        RegressionSamples samples;
        samples.feature_names = names;
        for (int i = 0; i < 200; ++i) {
            std::vector<double> row(columns, 0.0);
            row[flops] = std::pow(10.0, 5 + 5.0 * i / 200);
            samples.x.insert(samples.x.end(), row.begin(), row.end());
            samples.y.push_back(std::max(25.0, row[flops] / 40e6));
            ++samples.rows;
        }
        auto fitted = make_regressor("launch-bound", "--kind");
        fitted->fit(samples, 1);
        for (std::size_t i = 0; i < samples.rows; i += 20)
            QVERIFY(std::abs(fitted->predict(&samples.x[i * columns]) - samples.y[i]) <
                    0.01 * samples.y[i]);
        auto loaded = make_regressor("launch-bound", "--kind");
        loaded->load(fitted->save(), columns);
        for (std::size_t i = 0; i < samples.rows; i += 7)
            QCOMPARE(loaded->predict(&samples.x[i * columns]),
                     fitted->predict(&samples.x[i * columns]));
        const auto kinds = regressor_kinds();
        QVERIFY(std::find(kinds.begin(), kinds.end(), "launch-bound") != kinds.end());
    }

    void badFilesSayWhatIsWrong() {
        const nlohmann::json good{{"floor_us", 20}, {"gflops", 50000}, {"bandwidth_gbs", 0}};
        QCOMPARE(load_error(good), std::string("no error"));
        auto without = good;
        without.erase("gflops");
        QCOMPARE(load_error(without),
                 std::string("/: missing \"gflops\"; expected a number >= 0 (0: no such bound)"));
        auto negative = good;
        negative["bandwidth_gbs"] = -1;
        QVERIFY(load_error(negative).starts_with("/bandwidth_gbs: expected a number >= 0"));
        auto no_floor = good;
        no_floor["floor_us"] = 0;
        QCOMPARE(load_error(no_floor),
                 std::string("/floor_us: expected a number > 0 (us, the launch floor), found 0"));
        QVERIFY(load_error(nlohmann::json::array()).starts_with("/: expected an object"));
        LaunchBoundRegressor r;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, r.load(good.dump(), 3));
    }
};

QTEST_APPLESS_MAIN(LaunchBoundTest)
#include "launch_bound_test.moc"
