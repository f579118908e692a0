// Leaving one device out: the data it needs, and one held-out device of the measured sample
// (tests/data/ort-cpu-xeon-sample.json, every kernel twice as slow) scored by a base trained on
// two others, next to the samples alone and its spec's roofline.
#include "../measured_sample.hpp"
#include "core/device/device_library.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/input_error.hpp"
#include "core/predict/cross_device_evaluation.hpp"

#include <QtTest>

using namespace cleave;
using namespace cleave::predict;

namespace {

// The sample's runs with every kernel taking `factor` times as long.
std::vector<RunData> scaled_runs(double factor) {
    auto runs = cleave::test::prepared_sample().runs;
    for (auto& run : runs) {
        double before = 0, after = 0;
        for (auto& s : run.samples) {
            before += s.us;
            s.us *= factor;
            after += s.us;
        }
        run.kernels_ms += (after - before) / 1000;
        run.e2e_ms += (after - before) / 1000;
    }
    return runs;
}

EvaluatedDevice evaluated(const std::string& id, const std::vector<RunData>& runs,
                          const std::string& machine = "") {
    EvaluatedDevice d{id, DeviceFigures{1, 0, 0, 0}, std::nullopt, {}, machine};
    for (const auto& r : runs)
        d.runs.push_back(&r);
    return d;
}

std::string message_of(const std::function<void()>& f) {
    return cleave::test::input_error_of(f);
}

} // namespace

class CrossDeviceEvaluationTest : public QObject {
    Q_OBJECT

private slots:
    void itNeedsThreeDevicesAndKnownHeldOutIds() {
        const auto method = fusion::find_fusion_method("ort-cpu");
        const std::vector<RunData> none;
        QCOMPARE(
            message_of([&] {
                evaluate_cross_device({evaluated("a", none), evaluated("b", none)}, method, {});
            }),
            std::string(" | --data | leaving one device out needs at least three measured "
                        "devices (a base is trained on two or more)"));
        CrossDeviceEvaluationOptions options;
        options.held_out = {"b", "z"};
        QCOMPARE(message_of([&] {
                     evaluate_cross_device(
                         {evaluated("a", none), evaluated("b", none), evaluated("c", none)}, method,
                         options);
                 }),
                 std::string(" | --held-out | no device 'z' among the data's"));
        // Two thread counts of one machine leave one other device to train on
        options.held_out = {"a"};
        QCOMPARE(message_of([&] {
                     evaluate_cross_device({evaluated("a", none, "xeon"),
                                            evaluated("b", none, "xeon"), evaluated("c", none)},
                                           method, options);
                 }),
                 std::string(" | --data | leaving out machine xeon (a) leaves 1 device of other "
                             "machines; a base is trained on two or more"));
    }

    void aHeldOutDeviceIsScoredByEachMethod() {
        const auto a = scaled_runs(1), b = scaled_runs(0.5), c = scaled_runs(2),
                   c2 = scaled_runs(1.5);
        auto held = evaluated("c", c, "mc");
        held.spec = device::find_device("intel-nuc"); // a spec with a peak and a bandwidth
        CrossDeviceEvaluationOptions options;
        options.samples = {5};
        options.seeds = 2;
        options.device_only_kind = "lasso";
        options.held_out = {"c"};
        options.base.kind = "mlp";
        options.base.descriptor_budgets = {5};
        // c2: the same machine at another thread count, left out with it
        const auto results = evaluate_cross_device(
            {evaluated("a", a), evaluated("b", b), held, evaluated("c2", c2, "mc")},
            fusion::find_fusion_method("ort-cpu"), options);
        QCOMPARE(results.size(), std::size_t{1});
        const auto& r = results[0];
        QCOMPARE(r.id, std::string("c"));
        QCOMPARE(r.machine, std::string("mc"));
        QCOMPARE(r.trained_on, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(r.runs, 5);
        const auto profiled = ProfiledKernels::of(c);
        QCOMPARE(r.timed_kernels, static_cast<int>(profiled.candidates.size()));
        QCOMPARE(r.distinct_kernels, static_cast<int>(profiled.kernels.size()));
        QVERIFY(r.distinct_kernels < r.timed_kernels);
        QVERIFY(r.roofline);
        QCOMPARE(r.roofline->e2e_errors.size(), std::size_t{5});
        QCOMPARE(r.rows.size(), std::size_t{1});
        const auto& row = r.rows[0];
        QCOMPARE(row.samples, 5);
        // The base knows these kernels at unit speed: five of them give the device's speed.
        QVERIFY2(row.cross_device.kernel_mape.mean < 0.5,
                 std::to_string(row.cross_device.kernel_mape.mean).c_str());
        for (const auto* score : {&row.cross_device, &row.descriptor_only, &row.device_only}) {
            QVERIFY(score->kernel_mape.mean > 0);
            QVERIFY(score->e2e_mape.mean > 0);
            QVERIFY(score->kernel_mape.sd >= 0);
        }
    }
};

QTEST_GUILESS_MAIN(CrossDeviceEvaluationTest)
#include "cross_device_evaluation_test.moc"
