// The benchmark suite: every model loads with its shapes inferred, and the series hold what they
// promise (equal MACs, zeroed weights, fusible blocks one kernel).
#include "built_model.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/modelgen/benchmark_suite.hpp"
#include "model_checks.hpp"

#include <QtTest>
#include <algorithm>
#include <cstring>
#include <set>

using namespace cleave;
using cleave::test::check_shapes;
using cleave::test::first_warning;

namespace {

const modelgen::ModelSpec& find(const std::vector<modelgen::ModelSpec>& specs,
                                const std::string& name) {
    for (const auto& s : specs)
        if (s.name == name)
            return s;
    throw std::runtime_error("no model " + name);
}

} // namespace

class BenchmarkSuiteTest : public QObject {
    Q_OBJECT

private slots:
    void suiteCoversEveryCategoryAndLoads() {
        const auto suite = modelgen::benchmark_suite();
        std::set<std::string> names, categories;
        for (const auto& s : suite) {
            QVERIFY2(names.insert(s.name).second, s.name.c_str());
            categories.insert(s.category);
            const auto m = test::built_model(s);
            check_shapes(m);
            QVERIFY2(m.warnings.empty(), (s.name + ": " + first_warning(m)).c_str());
            QVERIFY(m.macs > 0);
        }
        QCOMPARE(categories, (std::set<std::string>{"activation", "affinity", "batch", "fusion",
                                                    "memory", "mobilenet", "scale", "sparsity"}));
        QVERIFY(suite.size() >= 45);
    }

    void seriesHoldWhatTheyPromise() {
        const auto suite = modelgen::benchmark_suite();
        // Memory series: equal MACs, weights traded for activations.
        std::int64_t macs = -1, last_weights = 0;
        for (const auto& s : suite) {
            if (s.category != "memory")
                continue;
            const auto m = test::built_model(s);
            if (macs < 0)
                macs = m.macs;
            QCOMPARE(m.macs, macs);
            QVERIFY(m.weight_parameters > last_weights);
            last_weights = m.weight_parameters;
        }
        // MobileNetV2 at width 1.0 and 224: torchvision's 3,504,872 parameters, plus the two
        // bounds of each ReLU6 (Clip) held as initializers.
        const auto mobilenet = test::built_model(find(suite, "mobilenet_v2_w100_r224"));
        const auto clips = std::count_if(mobilenet.nodes.begin(), mobilenet.nodes.end(),
                                         [](const graph::Node& n) { return n.op == "Clip"; });
        QCOMPARE(clips, 35);
        QCOMPARE(mobilenet.weight_parameters, 3504872 + 2 * clips);
        // Batch series: the batch is the input's first dim, MACs scale with it.
        const auto b1 = test::built_model(find(suite, "batch_resnet_b1"));
        const auto b16 = test::built_model(find(suite, "batch_resnet_b16"));
        QCOMPARE(b16.macs, 16 * b1.macs);
        // 90% sparsity: about 90% of the conv weights are zero.
        modelgen::NetBuilder sparse("s", {1, 128, 28, 28}, 1);
        find(suite, "sparsity_conv3x3_90").build(sparse);
        const auto& w = sparse.model().graph().initializer(0);
        const auto count = w.raw_data().size() / sizeof(float);
        std::vector<float> values(count);
        std::memcpy(values.data(), w.raw_data().data(), w.raw_data().size());
        const auto zeros = static_cast<double>(std::count(values.begin(), values.end(), 0.0f));
        QVERIFY(std::abs(zeros / static_cast<double>(count) - 0.9) < 0.01);
        // Fusible blocks, as the shipped rule sets fuse them: ONNX Runtime's CPU provider folds
        // BN and a following Relu or Clip into the conv, fuses Sigmoid + Mul into one SiLU
        // kernel of its own and leaves a residual Add alone; the tensorrt-like rules take the Add
        // and the Relu into the conv too.
        const auto kernels = [&](const char* name, const char* rules) {
            return fusion::detect_kernels(test::built_model(find(suite, name)),
                                          fusion::find_fusion_method(rules))
                .kernels.size();
        };
        QCOMPARE(kernels("fusion_conv_bn", "ort-cpu"), std::size_t{1});
        QCOMPARE(kernels("fusion_conv_bn_relu", "ort-cpu"), std::size_t{1});
        QCOMPARE(kernels("fusion_conv_relu6", "ort-cpu"), std::size_t{1});
        QCOMPARE(kernels("fusion_conv_silu", "ort-cpu"), std::size_t{2});
        QCOMPARE(kernels("fusion_conv_bn_add_relu", "ort-cpu"), std::size_t{3});
        QCOMPARE(kernels("fusion_conv_bn_add_relu", "tensorrt-like"), std::size_t{1});
    }
};

QTEST_GUILESS_MAIN(BenchmarkSuiteTest)
#include "benchmark_suite_test.moc"
