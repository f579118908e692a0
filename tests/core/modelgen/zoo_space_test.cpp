// The zoo space: its networks load with every shape inferred and fuse, mix every block kind
// (shuffles and attention as exporters write them), are sized without weights as Cleave counts
// them, and run in milliseconds.
#include "built_model.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/modelgen/simulation_spaces.hpp"
#include "model_checks.hpp"

#include <QtTest>
#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace cleave;
using cleave::test::check_shapes;
using cleave::test::consumers;
using cleave::test::first_warning;
using cleave::test::output_shape;
using cleave::test::producer;
using cleave::test::tensor;

namespace {

std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    return {std::istream_iterator<std::string>(in), {}};
}

// The zoo's sample of the tests: 40 networks of one seed, built once.
const std::vector<modelgen::ModelSpec>& zoo_sample() {
    static const auto specs = modelgen::simulation_models(40, 1, "zoo");
    return specs;
}

const graph::Model& zoo_built(const modelgen::ModelSpec& spec) {
    static std::map<std::string, graph::Model> models;
    auto [at, added] = models.try_emplace(spec.name);
    if (added)
        at->second = test::built_model(spec);
    return at->second;
}

} // namespace

class ZooSpaceTest : public QObject {
    Q_OBJECT

private slots:
    void sizingWithoutWeightsCountsWhatCleaveCounts() {
        for (const auto& s : zoo_sample()) {
            modelgen::NetBuilder sizing(s.name, s.input_shape, 0, false);
            s.build(sizing);
            const auto& m = zoo_built(s);
            QCOMPARE(sizing.macs(), m.macs);
            QCOMPARE(sizing.model().graph().node_size(), static_cast<int>(m.nodes.size()));
        }
    }

    void zooNetworksLoadWithEveryShapeAndFuse() {
        std::set<std::string> names;
        for (const auto& s : zoo_sample()) {
            QVERIFY(names.insert(s.name).second);
            QCOMPARE(s.category, std::string("zoo"));
            const auto& m = zoo_built(s);
            check_shapes(m);
            QVERIFY2(m.warnings.empty(), (s.name + ": " + first_warning(m)).c_str());
            QCOMPARE(*tensor(m, m.outputs[0]).shape, (graph::Shape{1, 1000}));
            QVERIFY(m.macs > 0);
            const auto kernels =
                fusion::detect_kernels(m, fusion::find_fusion_method("ort-cpu")).kernels.size();
            QVERIFY(kernels > 0 && kernels < m.nodes.size());
        }
    }

    void zooNetworksMixEveryBlockKind() {
        const std::vector<std::string> kinds{
            "resnext x", "regnet x", "mbconv x", "mobilenet_v3 x", "mnasnet x",   "shufflenet x",
            "dense x",   "fire x",   "maxvit x", "vit encoder",    "bert encoder"};
        // Choices within the kinds, as patterns of the descriptions (a dot for a space): stems,
        // heads, SE in MobileNetV3 (Relu or HardSwish) and RegNetY, ResNeXt's cardinality 32,
        // ViT's pooling, BERT's scale, ShuffleNet's split, kernels of 5, MaxViT's windows.
        const auto options = words("stem.conv stem.resnet stem.squeezenet stem.shufflenet "
                                   "head.classifier head.mobilenet_v3 head.efficientnet "
                                   "head.squeezenet Relu.se; HardSwish.se; g[0-9]+.se; "
                                   "resnext.x.*g32 class.token mean; .div; .mul; Split; Slice; "
                                   "k5.e window[478]");
        std::map<std::string, int> seen;
        std::set<std::string> ops;
        for (const auto& s : zoo_sample()) {
            int kinds_here = 0;
            for (const auto& kind : kinds)
                if (s.description.find(kind) != std::string::npos) {
                    ++seen[kind];
                    ++kinds_here;
                }
            for (const auto& option : options)
                if (std::regex_search(s.description, std::regex(option)))
                    ++seen[option];
            // Stages do not repeat the kind before them: a network of several stages mixes.
            const auto parts = std::count(s.description.begin(), s.description.end(), ';');
            if (parts >= 4)
                QVERIFY2(kinds_here >= 2, s.description.c_str());
            for (const auto& n : zoo_built(s).nodes) {
                ops.insert(n.op);
                if (n.op == "Conv" && n.int_attribute("group", 1) > 1 &&
                    n.ints_attribute("kernel_shape") == std::vector<std::int64_t>{5, 5})
                    ops.insert("depthwise5x5");
            }
        }
        for (const auto& kind : kinds)
            QVERIFY2(seen[kind] >= 2, kind.c_str());
        for (const auto& option : options)
            QVERIFY2(seen[option] >= 1, option.c_str());
        for (const auto& op :
             words("AveragePool BatchNormalization Concat Erf Gather Gemm GlobalAveragePool "
                   "HardSigmoid HardSwish LayerNormalization MatMul MaxPool ReduceMean Reshape "
                   "Sigmoid Slice Softmax Split Squeeze Transpose Unsqueeze depthwise5x5"))
            QVERIFY2(ops.contains(op), op.c_str());
    }

    // ShuffleNetV2's channel shuffle, as torchvision exports it: Concat, Reshape [1, 2, C/2, H,
    // W], Transpose [0, 2, 1, 3, 4], Reshape [1, C, H, W]; stride-1 units cut their input in two.
    void zooShuffleUnitsShuffleAsTorchvisionExports() {
        int shuffles = 0;
        for (const auto& s : zoo_sample()) {
            if (s.description.find("shufflenet x") == std::string::npos)
                continue;
            const auto& m = zoo_built(s);
            for (const auto& n : m.nodes) {
                if (n.op != "Transpose" ||
                    n.ints_attribute("perm") != std::vector<std::int64_t>{0, 2, 1, 3, 4})
                    continue;
                const auto* before = producer(m, n, 0);
                QVERIFY(before && before->op == "Reshape");
                const auto* concat = producer(m, *before, 0);
                QVERIFY(concat && concat->op == "Concat");
                const auto c = output_shape(m, *concat);
                QCOMPARE(output_shape(m, *before), (graph::Shape{1, 2, c[1] / 2, c[2], c[3]}));
                const auto after = consumers(m, n);
                QCOMPARE(after.size(), std::size_t{1});
                QCOMPARE(after[0]->op, std::string("Reshape"));
                QCOMPARE(output_shape(m, *after[0]), c);
                // The unit's halves: a Split, or two Slices of one tensor, or two branches.
                const auto* half = producer(m, *concat, 0);
                QVERIFY(half);
                QVERIFY(half->op == "Split" || half->op == "Slice" || half->op == "Relu");
                ++shuffles;
            }
        }
        QVERIFY(shuffles >= 10);
    }

    // Attention as exporters write it: per head, Q and K^T scaled (or the scores divided), a
    // MatMul of two activations [1, heads, T, T], Softmax, a MatMul with V; pre-norm ViT layers
    // start with LayerNormalization, post-norm BERT layers end with one.
    void zooEncodersAttendAsExportersWrite() {
        int vit = 0, bert = 0;
        for (const auto& s : zoo_sample()) {
            const bool is_vit = s.description.find("vit encoder") != std::string::npos;
            if (!is_vit && s.description.find("bert encoder") == std::string::npos)
                continue;
            const auto& m = zoo_built(s);
            for (const auto& n : m.nodes) {
                if (n.op != "Softmax" || n.name.find("/encoder/") == std::string::npos)
                    continue;
                const auto* scores = producer(m, n, 0);
                QVERIFY(scores);
                if (scores->op == "Div") // BERT's older form: the scores divided by sqrt(d)
                    scores = producer(m, *scores, 0);
                QCOMPARE(scores->op, std::string("MatMul"));
                for (std::size_t i = 0; i < 2; ++i) {
                    const auto* operand = producer(m, *scores, i);
                    QVERIFY2(operand, "Q and K^T are computed");
                    QVERIFY(operand->op == "Mul" || operand->op == "Transpose");
                }
                const auto shape = output_shape(m, *scores);
                QCOMPARE(shape.size(), std::size_t{4});
                QCOMPARE(shape[2], shape[3]);
                const auto next = consumers(m, n);
                QCOMPARE(next.size(), std::size_t{1});
                QCOMPARE(next[0]->op, std::string("MatMul"));
                QVERIFY(producer(m, *next[0], 1) != nullptr); // V, an activation
                (is_vit ? vit : bert) += 1;
            }
            // Every norm of the encoder reads a residual (or the position embedding's) Add.
            int norms = 0;
            for (const auto& n : m.nodes)
                if (n.op == "LayerNormalization" && n.name.find("/encoder/") != std::string::npos) {
                    ++norms;
                    QCOMPARE(n.int_attribute("axis", 0), std::int64_t{-1});
                    const auto* in = producer(m, n, 0);
                    QVERIFY(in && in->op == "Add");
                }
            QVERIFY(norms >= 2);
        }
        QVERIFY(vit >= 3);
        QVERIFY(bert >= 2);
    }

    void zooNetworksRunInMilliseconds() {
        // Sized to take 2 to 80 ms at one thread: at most 2 G multiply-accumulates and 12 M
        // weights (48 MB), at least 20 M multiply-accumulates.
        std::int64_t largest = 0, smallest = std::numeric_limits<std::int64_t>::max();
        for (const auto& s : modelgen::simulation_models(100, 9, "zoo")) {
            modelgen::NetBuilder sizing(s.name, s.input_shape, 0, false);
            s.build(sizing);
            QVERIFY(sizing.parameters() <= 12'000'000);
            largest = std::max(largest, sizing.macs());
            smallest = std::min(smallest, sizing.macs());
        }
        QVERIFY(largest <= 2'000'000'000);
        QVERIFY(smallest >= 20'000'000);
    }
};

QTEST_GUILESS_MAIN(ZooSpaceTest)
#include "zoo_space_test.moc"
