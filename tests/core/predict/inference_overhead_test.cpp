// The overhead beyond a model's kernels: its five parts come back from runs that follow them,
// the graph's inputs cost nothing, a run slowed by something else for a while does not move
// them, a profiler's cost in the kernel times comes out of the per-kernel part, the fixed and
// output parts never go negative, older files' input/output part still counts both, and the
// graph's input and output bytes are counted from its own tensors.
#include "core/graph/onnx_import.hpp"
#include "core/predict/inference_overhead.hpp"

#include <QtTest>

using namespace cleave::predict;

namespace {

// 150 us fixed, 4 us per kernel, 2% of the kernels' time, 500 us per megabyte of outputs and 300
// more per megabyte of those over 32 MiB; the inputs, whatever their size, cost nothing.
OverheadSample run(double kernels_ms, double kernels, double outputs, double inputs,
                   double slowed = 1, double mapped = 0) {
    const double e2e =
        kernels_ms * 1.02 + (150 + 4 * kernels + 500 * outputs / 1e6 + 300 * mapped / 1e6) / 1000.0;
    return {e2e * slowed, kernels_ms, kernels, {inputs, outputs, mapped}};
}

std::vector<OverheadSample> runs() {
    return {run(2, 1, 1.6e6, 0.6e6),          run(5, 60, 4e3, 0.6e6),
            run(40, 20, 4e3, 2.4e6),          run(9, 150, 0.6e6, 0.2e6),
            run(1, 3, 0.05e6, 4e3),           run(70, 90, 4e3, 0.6e6),
            run(12, 200, 2e6, 0.6e6),         run(3, 30, 0.3e6, 0.6e6),
            run(25, 110, 4e3, 0.15e6),        run(90, 80, 104e6, 4e3, 1, 103e6),
            run(150, 120, 60e6, 4e3, 1, 50e6)};
}

} // namespace

class InferenceOverheadTest : public QObject {
    Q_OBJECT

private slots:
    void partsComeBackFromRunsThatFollowThem() {
        const auto fit = fit_inference_overhead(runs());
        QVERIFY(std::abs(fit.fixed_ms - 0.150) < 1e-6);
        QVERIFY(std::abs(fit.per_kernel_us - 4) < 1e-4);
        QVERIFY(std::abs(fit.kernel_time_share - 0.02) < 1e-6);
        QVERIFY(std::abs(fit.per_output_mb_us - 500) < 1e-3);
        QVERIFY(std::abs(fit.per_mapped_output_mb_us - 300) < 1e-3);
        QCOMPARE(fit.per_io_mb_us, 0.0);
        // 100 kernels, 10 ms of them, 1 MB in and 1 MB out: the input costs nothing.
        QVERIFY(std::abs(fit.ms(100, 10, {1e6, 1e6}) - (0.150 + 0.4 + 0.2 + 0.5)) < 1e-6);
        // 40 MB out in one tensor, mapped afresh: 40 x (500 + 300) us.
        QVERIFY(std::abs(fit.ms(100, 10, {1e6, 40e6, 40e6}) - (0.150 + 0.4 + 0.2 + 32)) < 1e-6);
    }

    void aRunSlowedForAWhileDoesNotMoveThem() {
        auto slowed = runs();
        slowed[5] = run(70, 90, 4e3, 0.6e6, 1.35); // 25 ms more than its kernels and overhead
        const auto fit = fit_inference_overhead(slowed);
        QVERIFY2(std::abs(fit.fixed_ms - 0.150) < 0.01, std::to_string(fit.fixed_ms).c_str());
        QVERIFY2(std::abs(fit.per_kernel_us - 4) < 0.5, std::to_string(fit.per_kernel_us).c_str());
    }

    void aProfilersCostPerKernelComesOutNegative() {
        std::vector<OverheadSample> profiled;
        for (auto r : runs()) {
            r.kernels_ms += 2 * r.kernels / 1000.0; // each kernel timed 2 us slower
            profiled.push_back(r);
        }
        const auto fit = fit_inference_overhead(profiled);
        QVERIFY(std::abs(fit.fixed_ms - 0.150) < 1e-6);
        // 4 us of overhead less the 2 us, which the share had counted 2% more of.
        QVERIFY(std::abs(fit.per_kernel_us - (4 - 2 * 1.02)) < 1e-4);
        QVERIFY(std::abs(fit.kernel_time_share - 0.02) < 1e-6);
        for (auto& r : profiled)
            r.kernels_ms += 5 * r.kernels / 1000.0; // now 7 us more per kernel
        QVERIFY(std::abs(fit_inference_overhead(profiled).per_kernel_us - (4 - 7 * 1.02)) < 1e-4);
    }

    void fixedAndOutputPartsNeverGoNegative() {
        std::vector<OverheadSample> fast;
        for (auto r : runs()) {
            r.e2e_ms = r.kernels_ms - 0.3 - 0.4 * r.io.outputs / 1e6; // faster than its kernels
            fast.push_back(r);
        }
        const auto fit = fit_inference_overhead(fast);
        QCOMPARE(fit.fixed_ms, 0.0);
        QCOMPARE(fit.per_output_mb_us, 0.0);
        QCOMPARE(fit.per_mapped_output_mb_us, 0.0);
        QCOMPARE(fit_inference_overhead({}).fixed_ms, 0.0);
    }

    void anOlderFilesInputOutputPartCountsBoth() {
        InferenceOverhead older;
        older.fixed_ms = 0.1;
        older.per_io_mb_us = 300;
        QVERIFY(std::abs(older.ms(50, 5, {0.6e6, 4e3}) - (0.1 + 0.3 * 0.604)) < 1e-9);
    }

    void ioBytesAreTheGraphsInputsAndOutputs() {
        const auto model =
            cleave::graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
        const auto io = graph_io_bytes(model);
        QCOMPARE(io.inputs, 3.0 * 224 * 224 * 4);
        QCOMPARE(io.outputs, 1000.0 * 4);
        QCOMPARE(io.mapped_outputs, 0.0);
    }
};

QTEST_GUILESS_MAIN(InferenceOverheadTest)
#include "inference_overhead_test.moc"
