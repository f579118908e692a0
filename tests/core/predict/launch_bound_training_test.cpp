// A launch-bound predictor trained on end-to-end times alone: the measured sample's five CNNs
// with their kernel times dropped, as the H100 runs come; the rate of convolutions from the
// runs' kernel lists where they have them, none without.
#include "../measured_sample.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/predict/launch_bound.hpp"
#include "core/predict/launch_bound_training.hpp"

#include <QtTest>
#include <cmath>

using namespace cleave;
using namespace cleave::predict;

namespace {

// The sample's runs, end to end only.
struct Totals : cleave::test::MeasuredSample {
    std::vector<RunData> runs;

    Totals() {
        for (std::size_t i = 0; i < data.runs.size(); ++i) {
            auto r = prepare_run(models[i], data.runs[i]);
            r.samples.clear();
            r.launched_us.clear();
            runs.push_back(std::move(r));
        }
    }
    std::vector<const RunData*> all() const {
        std::vector<const RunData*> out;
        for (const auto& r : runs)
            out.push_back(&r);
        return out;
    }
};

const LaunchBoundParameters& parameters(const Predictor& p, const std::string& cls) {
    return dynamic_cast<const LaunchBoundRegressor&>(*p.classes.at(cls).model).parameters();
}

} // namespace

class LaunchBoundTrainingTest : public QObject {
    Q_OBJECT

private slots:
    void endToEndTimesAloneTrainAPredictor() {
        const Totals totals;
        PredictorTrainingOptions options;
        options.device = "xeon-ort-1t";
        options.kind = kLaunchBoundKind;
        const auto p = train_predictor(totals.all(), options); // no timed kernels: totals
        QCOMPARE(p.kind, std::string("launch-bound"));
        QCOMPARE(p.rules, std::string("ort-cpu"));
        QCOMPARE(p.trained_on.size(), std::size_t{5});
        QVERIFY(p.classes.count("Conv") && p.classes.count(kAllKernels));
        QCOMPARE(parameters(p, "Conv").gflops, 0.0); // no kernel lists: no rate to trust
        const auto method = fusion::find_fusion_method("ort-cpu");
        for (std::size_t i = 0; i < totals.runs.size(); ++i) {
            const auto kernels = fusion::detect_kernels(totals.models[i], method);
            const auto latency = predict_model(p, totals.models[i], kernels);
            for (const auto& k : latency.kernels)
                QVERIFY(k.us > 0);
            // A floor per launch and an overhead cannot follow 1-thread CPU runs, where work
            // dominates: the fit is only as close as launches allow, never negative or absurd.
            const double error = (latency.total_ms - totals.runs[i].e2e_ms) / totals.runs[i].e2e_ms;
            QVERIFY2(std::abs(error) < 0.9,
                     (totals.runs[i].name + " " + std::to_string(error)).c_str());
        }
    }

    void kernelListsGiveTheConvolutionsRate() {
        // Every run lists its convolutions' and matrix products' arithmetic as GEMM kernels
        // taking their FLOPs at 100 GFLOP/s, next to a layout kernel that does no arithmetic.
        Totals totals;
        const auto method = fusion::find_fusion_method("ort-cpu");
        for (std::size_t i = 0; i < totals.runs.size(); ++i) {
            double flops = 0;
            for (const auto& k : fusion::detect_kernels(totals.models[i], method).kernels) {
                const auto type = cost_type(cost_class(totals.models[i], k));
                if (type == "Conv" || type == "Gemm" || type == "MatMul")
                    flops += static_cast<double>(k.flops);
            }
            totals.runs[i].launched_us = {{"sm90_xmma_fprop_implicit_gemm_f32", flops / 100e3},
                                          {"cudnn::nchwToNhwcKernel", 1000.0}};
        }
        PredictorTrainingOptions options;
        options.device = "xeon-ort-1t";
        options.kind = kLaunchBoundKind;
        const auto p = train_predictor(totals.all(), options);
        const double gflops = parameters(p, "Conv").gflops;
        QVERIFY2(std::abs(gflops - 100) < 1, std::to_string(gflops).c_str());
        QCOMPARE(parameters(p, "Gemm").gflops, gflops);
        QCOMPARE(parameters(p, "Relu").gflops, 0.0);
    }

    void kernelListsGiveTheBandwidth() {
        // The listed arithmetic takes 4 us per launch, the FLOPs at 100 GFLOP/s and the bytes of
        // the convolutions and matrix products (weights included) at 50 GB/s, added.
        Totals totals;
        const auto method = fusion::find_fusion_method("ort-cpu");
        for (std::size_t i = 0; i < totals.runs.size(); ++i) {
            double us = 0;
            for (const auto& k : fusion::detect_kernels(totals.models[i], method).kernels) {
                const auto type = cost_type(cost_class(totals.models[i], k));
                if (type == "Conv" || type == "Gemm" || type == "MatMul")
                    us += static_cast<double>(k.launches) * 4.0 +
                          static_cast<double>(k.flops) / 100e3 +
                          static_cast<double>(k.bytes_in + k.bytes_out) / 50e3;
            }
            totals.runs[i].launched_us = {{"sm90_xmma_fprop_implicit_gemm_f32", us}};
        }
        PredictorTrainingOptions options;
        options.device = "xeon-ort-1t";
        options.kind = kLaunchBoundKind;
        const auto p = train_predictor(totals.all(), options);
        const double gflops = parameters(p, "Conv").gflops;
        const double bandwidth = parameters(p, "Relu").bandwidth_gbs;
        QVERIFY2(std::abs(gflops - 100) < 2, std::to_string(gflops).c_str());
        QVERIFY2(std::abs(bandwidth - 50) < 1, std::to_string(bandwidth).c_str());
        QCOMPARE(parameters(p, "Conv").bandwidth_gbs, bandwidth); // one bandwidth for every op
    }

    void opsGroupByHowEagerDispatchesThem() {
        QCOMPARE(eager_group("Conv"), int{kConvolutions});
        QCOMPARE(eager_group("MatMul"), int{kMatrixProducts}); // Linear's product
        QCOMPARE(eager_group("Gemm"), int{kMatrixProducts});
        for (const char* view : {"Reshape", "Flatten", "Transpose", "Slice", "Split", "Unsqueeze",
                                 "Dropout", "Shape"})
            QCOMPARE(eager_group(view), int{kViews});
        for (const char* copy : {"Concat", "Pad", "Resize", "Expand", "DepthToSpace"})
            QCOMPARE(eager_group(copy), int{kCopies});
        QCOMPARE(eager_group("BatchNormalization"), int{kNormalisations});
        QCOMPARE(eager_group("LayerNormalization"), int{kNormalisations});
        QCOMPARE(eager_group("GlobalAveragePool"), int{kPools});
        QCOMPARE(eager_group("Softmax"), int{kReductions});
        for (const char* elementwise : {"Relu", "Sigmoid", "Mul", "Erf", "Cast", "NoSuchOp"})
            QCOMPARE(eager_group(elementwise), int{kElementwise});
    }
};

QTEST_APPLESS_MAIN(LaunchBoundTrainingTest)
#include "launch_bound_training_test.moc"
