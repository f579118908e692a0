// The consistency of measured runs: twin kernels (same class and features) in other runs set each
// kernel's oracle time, a run's speed is its twins' time against their medians elsewhere, and a
// kernel with no twin elsewhere is known exactly.
#include "core/predict/run_consistency.hpp"

#include <QtTest>
#include <cmath>

using namespace cleave;

namespace {

predict::RunData run(const std::string& name, double e2e_ms,
                     std::vector<std::pair<double, double>> kernels /* feature, us */) {
    predict::RunData r;
    r.name = name;
    r.e2e_ms = e2e_ms;
    for (const auto& [feature, us] : kernels)
        r.samples.push_back({"Conv/kxk", {feature}, us});
    return r;
}

} // namespace

class RunConsistencyTest : public QObject {
    Q_OBJECT

private slots:
    void twinsElsewhereSetTheOracleAndTheSpeed() {
        // Kernel 1 is in all three runs; run b runs it twice as slow as a and c. Kernels 2 and 3
        // have no twin elsewhere.
        const auto a = run("a", 2.0, {{1, 1000}, {2, 500}});
        const auto b = run("b", 3.0, {{1, 2000}, {3, 400}});
        const auto c = run("c", 1.2, {{1, 1000}});
        const auto summary = predict::run_consistency({&a, &b, &c});
        QCOMPARE(summary.timed_kernels, 5);
        QCOMPARE(summary.distinct_kernels, 3);
        QCOMPARE(summary.runs.size(), std::size_t(3));
        const auto& rb = summary.runs[1];
        // b's twin elsewhere: the median of a's and c's 1000 us; b took 2000.
        QVERIFY(std::abs(rb.speed_factor - 2.0) < 1e-12);
        QVERIFY(std::abs(rb.twin_share - 2000.0 / 2400.0) < 1e-12);
        QVERIFY(std::abs(rb.oracle_error - (-1.0 / 3.0)) < 1e-12); // 1 ms short of 3 ms
        // a's twins elsewhere: 2000 and 1000, median 1500.
        QVERIFY(std::abs(summary.runs[0].oracle_error - 0.25) < 1e-12);
        QVERIFY(std::abs(summary.runs[0].speed_factor - 1000.0 / 1500.0) < 1e-12);
        QVERIFY(std::abs(summary.oracle_mape - (0.25 + 1.0 / 3.0 + 0.5 / 1.2) / 3) < 1e-12);
    }

    void runsThatAgreeLeaveNoError() {
        const auto a = run("a", 2.0, {{1, 1000}, {2, 300}});
        const auto b = run("b", 2.5, {{1, 1000}, {2, 300}, {4, 700}});
        const auto summary = predict::run_consistency({&a, &b});
        for (const auto& r : summary.runs) {
            QCOMPARE(r.speed_factor, 1.0);
            QCOMPARE(r.oracle_error, 0.0);
        }
        QCOMPARE(summary.oracle_mape, 0.0);
    }

    void aModelsOtherInputSizesAreItsTwinsEndToEnd() {
        // resnet50 at three sizes (4, 4 and 8 ms: a busy host slowed the last); alexnet at one
        // size has no twin and does not count.
        const auto a = run("resnet50 1x3x32x32", 4.0, {});
        const auto b = run("resnet50 1x3x64x64", 4.0, {});
        const auto c = run("resnet50 1x3x96x96", 8.0, {});
        const auto d = run("alexnet 1x3x224x224", 0.8, {});
        const auto sizes = predict::size_consistency({&a, &b, &c, &d});
        QCOMPARE(sizes.models, 1);
        QCOMPARE(sizes.runs, 3);
        // Others' medians: 6, 6 and 4 ms against 4, 4 and 8.
        QVERIFY(std::abs(sizes.other_sizes_mape - (0.5 + 0.5 + 0.5) / 3) < 1e-12);
        // The best single time is 4 ms: 0 + 0 + 0.5 over three runs.
        QVERIFY(std::abs(sizes.best_single_time_mape - 0.5 / 3) < 1e-12);
    }
};

QTEST_APPLESS_MAIN(RunConsistencyTest)
#include "run_consistency_test.moc"
