// Warm-ups are run untimed, a round whose coefficient of variation is above the limit is
// measured again, and when no round is steady the steadiest is reported.
#include "core/profile/measurement_rounds.hpp"

#include <QtTest>

namespace {

using cleave::profile::ProfileOptions;

// A model whose timed runs take the given times in turn; counts the warm-ups.
struct ScriptedRuns {
    std::vector<double> ms;
    int warmups = 0;
    int timed = 0;
    double operator()(int i) {
        if (i < 0) {
            ++warmups;
            return 100;
        }
        [&] { QCOMPARE(i, timed); }();
        return ms.at(static_cast<std::size_t>(timed++));
    }
};

ProfileOptions three_by_three() {
    ProfileOptions options;
    options.warmups = 2;
    options.repeats = 3;
    options.max_rounds = 3;
    options.max_cv = 0.05;
    return options;
}

} // namespace

class MeasurementRoundsTest : public QObject {
    Q_OBJECT

private slots:
    void steadyFirstRoundIsTheOnlyOne() {
        ScriptedRuns runs{{10, 10.2, 9.9}};
        const auto measured = cleave::profile::measure_rounds(three_by_three(), std::ref(runs));
        QCOMPARE(runs.warmups, 2);
        QCOMPARE(runs.timed, 3);
        QCOMPARE(measured.rounds, 1);
        QCOMPARE(measured.round, 1);
        QCOMPARE(measured.e2e_ms, (std::vector<double>{10, 10.2, 9.9}));
    }

    void roundAboveTheLimitIsMeasuredAgain() {
        // cv of {10, 14, 10} is 0.204; of {10, 10.1, 10} 0.006
        ScriptedRuns runs{{10, 14, 10, 10, 10.1, 10}};
        std::vector<std::string> lines;
        const cleave::TaskControl control(
            [&](const cleave::TaskProgress& report) { lines.emplace_back(report.stage); });
        auto options = three_by_three();
        options.control = &control;
        const auto measured = cleave::profile::measure_rounds(options, std::ref(runs));
        QCOMPARE(runs.timed, 6);
        QCOMPARE(measured.rounds, 2);
        QCOMPARE(measured.round, 2);
        QCOMPARE(measured.first_run, 3);
        QCOMPARE(measured.e2e_ms, (std::vector<double>{10, 10.1, 10}));
        QVERIFY(measured.cv < 0.05);
        QCOMPARE(lines.size(), std::size_t{3});
        QVERIFY2(lines[1].ends_with("cv 20.4% > 5.0%, again"), lines[1].c_str());
    }

    void withNoSteadyRoundTheSteadiestIsKept() {
        ScriptedRuns runs{{10, 14, 10, 10, 12, 10, 10, 16, 10}};
        const auto measured = cleave::profile::measure_rounds(three_by_three(), std::ref(runs));
        QCOMPARE(runs.timed, 9);
        QCOMPARE(measured.rounds, 3);
        QCOMPARE(measured.round, 2);
        QCOMPARE(measured.first_run, 3);
        QVERIFY(measured.cv > 0.05);
    }
};

QTEST_GUILESS_MAIN(MeasurementRoundsTest)
#include "measurement_rounds_test.moc"
