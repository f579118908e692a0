// The generated model sets: every benchmark-suite and simulation model loads, its shapes infer
// to what the builder declared, the series hold what they promise (equal MACs, zeroed weights,
// fusible blocks one kernel), and generation is repeatable from a seed.
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/model_specs.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cstring>
#include <fstream>
#include <set>

using namespace cleave;

namespace {

graph::Model built(const modelgen::ModelSpec& spec, std::uint64_t seed = 1) {
    modelgen::NetBuilder b(spec.name, spec.input_shape, seed);
    spec.build(b);
    const std::string bytes = b.model().SerializeAsString();
    return graph::load_model_from_bytes({bytes.begin(), bytes.end()}, spec.name + ".onnx");
}

std::string serialised(const modelgen::ModelSpec& spec, std::uint64_t seed) {
    modelgen::NetBuilder b(spec.name, spec.input_shape, seed);
    spec.build(b);
    return b.model().SerializeAsString();
}

// Every tensor a node writes has a fully known shape, and the graph output has `expected` dims
// when given.
void check_shapes(const graph::Model& m) {
    for (const auto& node : m.nodes)
        for (const int t : node.outputs) {
            const auto& shape = m.tensors[static_cast<std::size_t>(t)].shape;
            QVERIFY2(shape && graph::element_count(shape) > 0,
                     (m.file + ": " + node.name + " has no inferred shape").c_str());
        }
    QCOMPARE(m.outputs.size(), std::size_t{1});
    QCOMPARE(m.inputs.size(), std::size_t{1});
}

std::string first_warning(const graph::Model& m) {
    return m.warnings.empty() ? std::string() : m.warnings.front();
}

const modelgen::ModelSpec& find(const std::vector<modelgen::ModelSpec>& specs,
                                const std::string& name) {
    for (const auto& s : specs)
        if (s.name == name)
            return s;
    throw std::runtime_error("no model " + name);
}

graph::Model loaded(const modelgen::NetBuilder& b) {
    const std::string bytes = b.model().SerializeAsString();
    return graph::load_model_from_bytes({bytes.begin(), bytes.end()}, "built.onnx");
}

const graph::Tensor& tensor(const graph::Model& m, int index) {
    return m.tensors.at(static_cast<std::size_t>(index));
}

} // namespace

class ModelSpecsTest : public QObject {
    Q_OBJECT

private slots:
    void suiteCoversEveryCategoryAndLoads() {
        const auto suite = modelgen::benchmark_suite();
        std::set<std::string> names, categories;
        for (const auto& s : suite) {
            QVERIFY2(names.insert(s.name).second, s.name.c_str());
            categories.insert(s.category);
            const auto m = built(s);
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
            const auto m = built(s);
            if (macs < 0)
                macs = m.macs;
            QCOMPARE(m.macs, macs);
            QVERIFY(m.weight_parameters > last_weights);
            last_weights = m.weight_parameters;
        }
        // MobileNetV2 at width 1.0 and 224: torchvision's 3,504,872 parameters, plus the two
        // bounds of each ReLU6 (Clip) held as initializers.
        const auto mobilenet = built(find(suite, "mobilenet_v2_w100_r224"));
        const auto clips = std::count_if(mobilenet.nodes.begin(), mobilenet.nodes.end(),
                                         [](const graph::Node& n) { return n.op == "Clip"; });
        QCOMPARE(clips, 35);
        QCOMPARE(mobilenet.weight_parameters, 3504872 + 2 * clips);
        // Batch series: the batch is the input's first dim, MACs scale with it.
        const auto b1 = built(find(suite, "batch_resnet_b1"));
        const auto b16 = built(find(suite, "batch_resnet_b16"));
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
            return fusion::detect_kernels(built(find(suite, name)),
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

    void simulationModelsAreRepeatableAndLoad() {
        for (const auto& space : modelgen::kSimulationSpaces) {
            const auto a = modelgen::simulation_models(6, 7, space);
            const auto b = modelgen::simulation_models(6, 7, space);
            const auto c = modelgen::simulation_models(6, 8, space);
            QCOMPARE(a.size(), std::size_t{6});
            std::set<std::string> descriptions;
            for (std::size_t i = 0; i < a.size(); ++i) {
                QCOMPARE(a[i].description, b[i].description);
                QCOMPARE(serialised(a[i], 3), serialised(b[i], 3));
                descriptions.insert(a[i].description);
                const auto m = built(a[i]);
                check_shapes(m);
                QVERIFY2(m.warnings.empty(), (a[i].name + ": " + first_warning(m)).c_str());
            }
            QVERIFY(descriptions.size() >= 5); // different structures
            QVERIFY(a[0].description != c[0].description || a[1].description != c[1].description);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modelgen::simulation_models(1, 1, "x"));
    }

    void netBuilderLayersDeclareTheShapesInferenceFinds() {
        modelgen::NetBuilder b("layers", {1, 16, 8, 8}, 1);
        std::vector<modelgen::Tensor> declared;
        const auto keep = [&](const modelgen::Tensor& t) {
            declared.push_back(t);
            return t;
        };
        const auto x = b.input();
        // Squeeze-excitation's broadcast: [1, 16, 1, 1] x [1, 16, 8, 8].
        const auto gated = keep(b.mul(keep(b.global_avg_pool(x)), x));
        QCOMPARE(gated.shape, (std::vector<std::int64_t>{1, 16, 8, 8}));
        const auto halves = b.split(gated, 1, {4, 12});
        keep(halves[0]);
        keep(halves[1]);
        const auto joined = keep(b.concat({halves[1], keep(b.slice(gated, 1, 8, 16))}, "", 1));
        keep(b.transpose(keep(b.reshape(joined, {1, 2, 10, 8, 8})), {0, 2, 1, 3, 4}));
        // Tokens [1, 64, 16], two heads of 8.
        const auto tokens = keep(b.transpose(keep(b.reshape(x, {1, 16, -1})), {0, 2, 1}));
        const auto normed = keep(b.layer_norm(tokens, 1e-6f));
        const auto q = keep(b.transpose(keep(b.reshape(normed, {1, 64, -1, 8})), {0, 2, 1, 3}));
        const auto k = keep(b.transpose(q, {0, 1, 3, 2}));
        const auto scores = keep(b.scale(keep(b.matmul(q, k)), 2.0f, "Div"));
        QCOMPARE(scores.shape, (std::vector<std::int64_t>{1, 2, 64, 64}));
        keep(b.add(scores, b.parameter("bias", {2, 64, 64}, 0.02)));
        keep(b.squeeze(keep(b.unsqueeze(normed, 0)), 0));
        const auto first = keep(b.gather(normed, 1, 0));
        const auto mean = keep(b.reduce_mean(normed, {1}, false));
        b.output(b.add(first, mean));

        const auto m = loaded(b);
        check_shapes(m);
        QVERIFY2(m.warnings.empty(), first_warning(m).c_str());
        for (const auto& t : declared) {
            const int i = m.find_tensor(t.name);
            QVERIFY2(i >= 0, t.name.c_str());
            QVERIFY2(tensor(m, i).shape == t.shape,
                     (t.name + ": inferred " + graph::shape_to_string(tensor(m, i).shape)).c_str());
        }
        // Named as PyTorch names functional ops: no module of their own.
        QVERIFY(m.find_node("/Transpose") >= 0);
        QVERIFY(m.find_node("/Transpose_1") >= 0);
        QVERIFY(m.find_node("/Split") >= 0);
    }

    void writesFilesAndManifest() {
        QTemporaryDir dir;
        const auto folder = std::filesystem::path(dir.path().toStdString()) / "suite";
        auto specs = modelgen::simulation_models(3, 1, "blocks");
        int calls = 0;
        const auto written =
            modelgen::write_models(specs, folder, 5, [&](int done, int total, const std::string&) {
                ++calls;
                QCOMPARE(total, 3);
                QCOMPARE(done, calls);
            });
        QCOMPARE(written.size(), std::size_t{3});
        QCOMPARE(calls, 3);
        for (const auto& w : written) {
            QVERIFY(std::filesystem::file_size(folder / w.file) == w.bytes);
            check_shapes(graph::load_model(folder / w.file));
        }
        std::ifstream manifest(folder / "manifest.json");
        const std::string text((std::istreambuf_iterator<char>(manifest)), {});
        QVERIFY(text.find("\"cleave-generated-models\"") != std::string::npos);
        QVERIFY(text.find(specs[2].name) != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(ModelSpecsTest)
#include "model_specs_test.moc"
