// Training latency predictors: a measured run prepared as samples, the rows and indicator columns
// models read, one model per cost class with enough samples or one over every kernel, the
// overhead, error summaries, and families predicted by predictors that never saw them.
#include "../graph/onnx_builder.hpp"
#include "../measured_sample.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/predict/predictor_training.hpp"

#include <QtTest>
#include <set>

using namespace cleave;
using namespace cleave::predict;
using cleave::test::OnnxBuilder;

namespace {

const cleave::test::PreparedSample& sample() {
    return cleave::test::prepared_sample();
}

// x [1, 16] -> Relu -> HardSwish -> y.
graph::Model relu_hardswish() {
    OnnxBuilder b;
    b.input("x", {1, 16});
    b.node("Relu", {"x"}, {"r"}, "relu");
    b.node("HardSwish", {"r"}, {"y"}, "hs");
    b.output("y");
    return graph::load_model_from_bytes(b.bytes(), "tiny.onnx");
}

// `count` samples of `cls` whose time is 2 us + MACs / 100.
std::vector<KernelSample> samples_of(const std::string& cls, int count) {
    std::vector<KernelSample> out;
    const auto macs = static_cast<std::size_t>(
        std::find(kernel_feature_names().begin(), kernel_feature_names().end(), "macs") -
        kernel_feature_names().begin());
    for (int i = 1; i <= count; ++i) {
        KernelSample s{cls, std::vector<double>(kernel_feature_names().size(), 0), 0};
        s.features[macs] = 1000.0 * i;
        s.us = 2 + s.features[macs] / 100;
        out.push_back(std::move(s));
    }
    return out;
}

RunData run_of(std::vector<KernelSample> samples) {
    RunData r;
    r.name = "profiled";
    r.samples = std::move(samples);
    return r;
}

} // namespace

class PredictorTrainingTest : public QObject {
    Q_OBJECT

private slots:
    void aRunIsPreparedAsSamplesPerLaunch() {
        const auto model = relu_hardswish();
        profile::MeasuredRun run;
        run.model = "tiny_net";
        run.input_shape = {1, 16};
        run.threads = 4;
        run.dtype = "float32";
        run.e2e_ms = {0.3, 0.1, 0.2};
        run.kernels.push_back({"relu", "Relu", "", {"relu"}, 2.0});
        run.kernels.push_back({"HardSigmoid_1", "HardSigmoid", "", {}, 3.0});
        run.kernels.push_back({"Mul_2", "Mul", "", {"hs"}, 5.0});
        run.kernels.push_back({"untimed", "Copy", "", {}, std::nullopt});
        const auto d = prepare_run(model, run);
        QCOMPARE(d.name, std::string("tiny_net 1x16"));
        QCOMPARE(d.family, std::string("tiny"));
        QCOMPARE(d.threads, 4);
        QCOMPARE(d.dtype, std::string("float32"));
        QCOMPARE(d.model, &model);
        QCOMPARE(d.e2e_ms, 0.2); // the median
        QCOMPARE(d.kernels_ms, 0.01);
        QCOMPARE(d.kernel_count, 3); // the Relu, and the HardSwish launched twice
        QCOMPARE(d.io.inputs, 64.0);
        QCOMPARE(d.io.outputs, 64.0);
        QCOMPARE(d.launched_us.size(), std::size_t{3});
        QCOMPARE(d.launched_us[1].first, std::string("HardSigmoid_1"));
        QCOMPARE(d.samples.size(), std::size_t{2});
        QCOMPARE(d.samples[0].model_class, std::string("Relu"));
        QCOMPARE(d.samples[0].us, 2.0);
        QCOMPARE(d.samples[1].model_class, std::string("HardSwish"));
        QCOMPARE(d.samples[1].us, 4.0); // 8 us over its two launches
        QCOMPARE(d.samples[1].features.size(), kernel_feature_names().size());
    }

    void samplesAreTheRuntimesTimedKernels() {
        const auto& s = sample();
        QCOMPARE(s.runs.size(), std::size_t{5});
        for (const auto& r : s.runs) {
            QVERIFY2(!r.samples.empty(), r.name.c_str());
            double sum_us = 0;
            for (const auto& k : r.samples)
                sum_us += k.us;
            // Nearly all of a CNN's kernel time maps onto node groups of the model.
            QVERIFY2(sum_us / 1000 > 0.95 * r.kernels_ms, r.name.c_str());
            QVERIFY(r.e2e_ms >= r.kernels_ms * 0.95);
        }
        const auto& resnet = *std::find_if(s.runs.begin(), s.runs.end(),
                                           [](const RunData& r) { return r.family == "resnet"; });
        QCOMPARE(resnet.name, std::string("resnet18 1x3x224x224"));
        std::set<std::string> classes;
        for (const auto& k : resnet.samples)
            classes.insert(k.model_class);
        QVERIFY(classes.count("Conv/kxk"));
        QVERIFY(classes.count("Gemm/gemv"));
    }

    void threadsFromTheDeviceId() {
        QCOMPARE(device_threads("xeon-ort-4t"), 4);
        QCOMPARE(device_threads("xeon-ort-16t"), 16);
        QCOMPARE(device_threads("nvidia-t4"), 0);
        QCOMPARE(device_threads("4t-board"), 0);
    }

    void rowsAreTheFeaturesThenTheIndicators() {
        Predictor p;
        p.features = kernel_feature_names();
        p.features.push_back(std::string(kClassColumn) + "Conv/kxk");
        p.features.push_back(std::string(kTypeColumn) + "Conv");
        const auto conv = samples_of("Conv/kxk", 1);
        const auto relu = samples_of("Relu", 2);
        const auto rows = regression_samples(p, {&conv[0], &relu[1]});
        const auto n = p.features.size();
        QCOMPARE(rows.feature_names, p.features);
        QCOMPARE(rows.rows, std::size_t{2});
        QCOMPARE(rows.x.size(), 2 * n);
        QCOMPARE(rows.x[0], 1000.0);
        QCOMPARE(rows.x[n - 2], 1.0);
        QCOMPARE(rows.x[n - 1], 1.0);
        QCOMPARE(rows.x[n], 2000.0);
        QCOMPARE(rows.x[2 * n - 2], 0.0);
        QCOMPARE(rows.x[2 * n - 1], 0.0);
        QCOMPARE(rows.y, (std::vector<double>{12, 22}));
    }

    void indicatorsForClassesAndTypesWithEnoughSamples() {
        std::vector<KernelSample> all;
        for (const auto& [cls, count] : std::vector<std::pair<std::string, int>>{
                 {"Conv/kxk", 2}, {"Conv/1x1", 1}, {"Relu", 3}, {"Gemm/gemv", 1}})
            for (auto& s : samples_of(cls, count))
                all.push_back(std::move(s));
        std::vector<const KernelSample*> pointers;
        for (const auto& s : all)
            pointers.push_back(&s);
        QCOMPARE(indicator_columns(pointers, 2),
                 (std::vector<std::string>{"type=Conv", "class=Conv/kxk", "type=Relu"}));
        QCOMPARE(indicator_columns(pointers, 1),
                 (std::vector<std::string>{"type=Conv", "class=Conv/1x1", "class=Conv/kxk",
                                           "type=Gemm", "class=Gemm/gemv", "type=Relu"}));
        QVERIFY(indicator_columns(pointers, 4).empty());
    }

    void aModelPerClassWithEnoughSamples() {
        auto samples = samples_of("Conv/kxk", 4);
        for (auto& s : samples_of("Conv/1x1", 2))
            samples.push_back(std::move(s));
        for (auto& s : samples_of("Relu", 3))
            samples.push_back(std::move(s));
        const auto run = run_of(samples);
        PredictorTrainingOptions options;
        options.device = "board";
        options.min_class_samples = 3;
        const auto p = train_predictor({&run}, options);
        QCOMPARE(p.device, std::string("board"));
        QCOMPARE(p.kind, std::string("lasso"));
        QCOMPARE(p.rules, std::string("ort-cpu"));
        QCOMPARE(p.trained_on, std::vector<std::string>{"profiled"});
        QCOMPARE(p.features, kernel_feature_names());
        std::map<std::string, int> counts;
        for (const auto& [key, model] : p.classes)
            counts[key] = model.samples;
        QCOMPARE(counts,
                 (std::map<std::string, int>{{"*", 9}, {"Conv", 6}, {"Conv/kxk", 4}, {"Relu", 3}}));
        // Every class fits its own samples: 2 us + MACs / 100.
        const auto latency = predict_features(p, samples[2].features, "Conv/kxk");
        QCOMPARE(latency.model_class, std::string("Conv/kxk"));
        QVERIFY(std::abs(latency.us - 32) < 0.01);
        QCOMPARE(predict_features(p, samples[4].features, "Conv/1x1").model_class,
                 std::string("Conv"));
    }

    void otherKindsShareOneModelOverEveryKernel() {
        auto samples = samples_of("Conv/kxk", 8);
        for (auto& s : samples_of("Relu", 6))
            samples.push_back(std::move(s));
        const auto run = run_of(samples);
        PredictorTrainingOptions options;
        options.kind = "mlp";
        options.min_class_samples = 7;
        const auto p = train_predictor({&run}, options);
        QCOMPARE(p.classes.size(), std::size_t{1});
        QCOMPARE(p.classes.at(kAllKernels).samples, 14);
        QCOMPARE(p.features.size(), kernel_feature_names().size() + 2);
        QCOMPARE(p.features[p.features.size() - 2], std::string("type=Conv"));
        QCOMPARE(p.features.back(), std::string("class=Conv/kxk"));
    }

    void runsWithoutTimedKernelsAreRefused() {
        const auto run = run_of({});
        try {
            train_predictor({&run}, PredictorTrainingOptions{});
            QFAIL("trained on nothing");
        } catch (const InputError& e) {
            QCOMPARE(e.place(), std::string("--data"));
        }
    }

    void overheadIsFixedPlusPerKernel() {
        std::vector<RunData> runs(3);
        const int kernels[] = {10, 50, 200};
        const double kernels_ms[] = {5, 8, 20};
        for (int i = 0; i < 3; ++i) {
            runs[i].kernel_count = kernels[i];
            runs[i].kernels_ms = kernels_ms[i];
            // 200 us fixed, 10 us per kernel
            runs[i].e2e_ms = kernels_ms[i] + 0.2 + kernels[i] * 0.010;
            runs[i].samples.push_back(
                {"Relu", std::vector<double>(kernel_feature_names().size(), 1), 3});
        }
        std::vector<const RunData*> all{&runs[0], &runs[1], &runs[2]};
        PredictorTrainingOptions options;
        options.min_class_samples = 1;
        const auto p = train_predictor(all, options);
        QVERIFY(std::abs(p.overhead_ms - 0.2) < 1e-9);
        QVERIFY(std::abs(p.overhead_per_kernel_us - 10) < 1e-9);
        QVERIFY(std::abs(p.overhead_kernel_time_share) < 1e-9);
        // Runs faster than their kernels (timed with a profiler's cost in them) give no negative
        // fixed overhead; the per-kernel part and the share take the difference.
        for (auto& r : runs)
            r.e2e_ms = r.kernels_ms - 0.1;
        const auto q = train_predictor(all, options);
        QCOMPARE(q.overhead_ms, 0.0);
        for (const auto& r : runs)
            QVERIFY(q.overhead_per_kernel_us * r.kernel_count / 1000 +
                        q.overhead_kernel_time_share * r.kernels_ms <
                    0);
    }

    void profiledKernelsWithTheOverheadOfOtherRuns() {
        std::vector<RunData> runs(3);
        const int kernels[] = {10, 50, 200};
        const double kernels_ms[] = {5, 8, 20};
        for (int i = 0; i < 3; ++i) {
            runs[i].kernel_count = kernels[i];
            runs[i].kernels_ms = kernels_ms[i];
            // 500 us fixed, 2 us per kernel
            runs[i].e2e_ms = kernels_ms[i] + 0.5 + kernels[i] * 0.002;
        }
        PredictorTrainingOptions options;
        options.min_class_samples = 3;
        const auto p = train_predictor_on_samples(samples_of("Relu", 5),
                                                  {&runs[0], &runs[1], &runs[2]}, options);
        QCOMPARE(p.trained_on, std::vector<std::string>{"5 profiled kernels"});
        QCOMPARE(p.classes.at("Relu").samples, 5);
        QVERIFY(std::abs(p.overhead_ms - 0.5) < 1e-9);
        QVERIFY(std::abs(p.overhead_per_kernel_us - 2) < 1e-9);
    }

    void errorsSummarised() {
        const auto s = summarise_errors({0.02, -0.08, 0.12, -0.3});
        QCOMPARE(s.count, 4);
        QCOMPARE(s.mape, 0.13);
        QCOMPARE(s.rmspe, std::sqrt((0.0004 + 0.0064 + 0.0144 + 0.09) / 4));
        QCOMPARE(s.within_5, 0.25);
        QCOMPARE(s.within_10, 0.5);
        QCOMPARE(s.within_15, 0.75);
        QCOMPARE(s.max_error, 0.3);
        const auto none = summarise_errors({});
        QCOMPARE(none.count, 0);
        QCOMPARE(none.mape, 0.0);
    }

    void summedFeaturesAddUpEveryKernel() {
        const auto& names = summed_feature_names();
        QCOMPARE(names.size(), kernel_feature_names().size() + 1);
        QCOMPARE(names.back(), std::string("kernels"));
        const auto model = relu_hardswish();
        auto kernels = fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
        QCOMPARE(kernels.kernels.size(), std::size_t{2});
        const auto sum = summed_kernel_features(model, kernels);
        const auto a = kernel_features(model, kernels.kernels[0]);
        const auto b = kernel_features(model, kernels.kernels[1]);
        for (std::size_t j = 0; j < a.size(); ++j)
            QCOMPARE(sum[j], a[j] + b[j]);
        QCOMPARE(sum.back(), 1.0 + kernels.kernels[1].launches);
    }

    void lassoPredictsFamiliesItNeverSaw() {
        const auto method = fusion::find_fusion_method("ort-cpu");
        PredictorTrainingOptions options;
        options.device = "xeon-ort-1t";
        options.min_class_samples = 8;
        const auto families = leave_family_out(sample().runs, method, options);
        QCOMPARE(families.size(), std::size_t{5});
        std::vector<double> errors;
        for (const auto& f : families) {
            QCOMPARE(f.runs.size(), std::size_t{1});
            const auto& r = f.runs[0];
            QVERIFY(r.predicted_ms > 0);
            errors.push_back((r.predicted_ms - r.run->e2e_ms) / r.run->e2e_ms);
        }
        // Five families are little to learn from; what was measured with them: 24.6% pooled.
        const auto summary = summarise_errors(errors);
        QVERIFY2(summary.mape < 0.35, std::to_string(summary.mape).c_str());
        QVERIFY(summary.max_error < 0.7);
    }

    void foldsPredictEveryFamilyOnce() {
        PredictorTrainingOptions options;
        options.min_class_samples = 8;
        const auto families =
            leave_family_out(sample().runs, fusion::find_fusion_method("ort-cpu"), options, {}, 2);
        std::set<std::string> seen;
        for (const auto& f : families) {
            QVERIFY2(seen.insert(f.family).second, f.family.c_str());
            QCOMPARE(f.runs.size(), std::size_t{1});
            QCOMPARE(f.runs[0].run->family, f.family);
            QCOMPARE(f.runs[0].kernel_errors.size(), f.runs[0].run->samples.size());
        }
        QCOMPARE(seen.size(), std::size_t{5});
    }
};

QTEST_GUILESS_MAIN(PredictorTrainingTest)
#include "predictor_training_test.moc"
