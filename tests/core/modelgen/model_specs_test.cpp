// The generated model sets: every benchmark-suite and simulation model loads, its shapes infer
// to what the builder declared, the series hold what they promise (equal MACs, zeroed weights,
// fusible blocks one kernel), and generation is repeatable from a seed.
#include "built_model.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/model_specs.hpp"
#include "core/profile/measured_dataset.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace cleave;

namespace {

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

// The node that writes input `i` of `node`, or nullptr for inputs and initializers.
const graph::Node* producer(const graph::Model& m, const graph::Node& node, std::size_t i) {
    const int p = tensor(m, node.inputs.at(i)).producer;
    return p < 0 ? nullptr : &m.nodes[static_cast<std::size_t>(p)];
}

std::vector<const graph::Node*> consumers(const graph::Model& m, const graph::Node& node) {
    std::vector<const graph::Node*> out;
    for (const int c : m.consumers_of(node))
        out.push_back(&m.nodes[static_cast<std::size_t>(c)]);
    return out;
}

graph::Shape output_shape(const graph::Model& m, const graph::Node& node) {
    return tensor(m, node.outputs.at(0)).shape.value_or(graph::Shape{});
}

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

class ModelSpecsTest : public QObject {
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
                const auto m = test::built_model(a[i]);
                check_shapes(m);
                QVERIFY2(m.warnings.empty(), (a[i].name + ": " + first_warning(m)).c_str());
            }
            QVERIFY(descriptions.size() >= 5); // different structures
            QVERIFY(a[0].description != c[0].description || a[1].description != c[1].description);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modelgen::simulation_models(1, 1, "x"));
    }

    // A transformer-space network is named after its family, numbered across the space, so
    // that training can hold a family out (profile::model_family reads it from the name).
    void transformerNetworksAreNamedAfterTheirFamily() {
        const auto models = modelgen::simulation_models(24, 5, "transformer");
        std::set<std::string> families;
        for (std::size_t i = 0; i < models.size(); ++i) {
            const auto& s = models[i];
            const auto family = s.description.substr(0, s.description.find(' '));
            const auto number = std::to_string(i);
            QCOMPARE(s.name, family + "_" + std::string(4 - number.size(), '0') + number);
            QCOMPARE(profile::model_family(s.name), family);
            QVERIFY(profile::is_transformer_family(family));
            QCOMPARE(s.category, std::string("transformer"));
            families.insert(family);
        }
        QCOMPARE(families.size(), std::size_t{6});
        QCOMPARE(modelgen::simulation_models(2, 5, "zoo")[1].name, std::string("zoo_0001"));
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

    // GPT-2 as exporters write it below opset 17: 47 nodes a layer, LayerNorm decomposed (no
    // LayerNormalization node), the causal mask added to the divided scores before Softmax, and
    // the same graph without weight values (how the large-model benchmark writes its stacks).
    void decoderStackIsGpt2InDecomposedForm() {
        const auto spec = modelgen::decoder_stack(3, 64, 4, 16, 100);
        const auto m = test::built_model(spec);
        check_shapes(m);
        QCOMPARE(m.nodes.size(), std::size_t{3 * 47 + 10});
        QCOMPARE(*tensor(m, m.outputs[0]).shape, (graph::Shape{1, 16, 100}));
        std::map<std::string, int> ops;
        for (const auto& n : m.nodes)
            ++ops[n.op];
        QCOMPARE(ops["LayerNormalization"], 0);
        QCOMPARE(ops["Sqrt"], 7);
        QCOMPARE(ops["Erf"], 3);
        QCOMPARE(ops["Softmax"], 3);
        QCOMPARE(ops["Split"], 3);
        for (const auto& n : m.nodes) {
            if (n.op != "Softmax")
                continue;
            const auto* masked = producer(m, n, 0);
            QVERIFY(masked && masked->op == "Add");
            const auto* divided = producer(m, *masked, 0);
            QVERIFY(divided && divided->op == "Div");
            QCOMPARE(output_shape(m, *divided), (graph::Shape{1, 4, 16, 16}));
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modelgen::decoder_stack(2, 64, 5, 16));
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
