// A decoder split at its layers by a runtime's rule: the layer counts of each rule, and cut points
// that keep every kernel of a layer on one side, on generated decoders of both forms.
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/modelgen/decoder_space.hpp"
#include "core/modelgen/llm_writer.hpp"
#include "core/partition/layer_split.hpp"
#include "tiny_partition_model.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <numeric>
#include <random>

using namespace cleave;
using partition::LayerRule;

class LayerSplitTest : public QObject {
    Q_OBJECT

private slots:
    void rulesGiveTheirCounts() {
        using V = std::vector<int>;
        QCOMPARE(partition::layers_per_segment(32, LayerRule::Equal, {1, 1, 1}, "m"),
                 (V{11, 11, 10}));
        // exo's: 16 + 8 + 8 + 8 GB take 12.8, 6.4, 6.4 and 6.4 of 32 layers.
        QCOMPARE(partition::layers_per_segment(32, LayerRule::Memory, {16, 8, 8, 8}, "m"),
                 (V{13, 7, 6, 6}));
        // A device with little memory still holds a layer.
        QCOMPARE(partition::layers_per_segment(10, LayerRule::Memory, {100, 1}, "m"), (V{9, 1}));
        // llama.cpp's, over 33 slots (the head the last): -ts 3,1 gives slots 0-24 and 25-32,
        // 1,1,1 gives 11 slots each, and a device with a sliver of memory gets none.
        QCOMPARE(partition::layers_per_segment(32, LayerRule::LlamaCpp, {3, 1}, "m"), (V{25, 7}));
        QCOMPARE(partition::layers_per_segment(32, LayerRule::LlamaCpp, {1, 1, 1}, "m"),
                 (V{11, 11, 10}));
        QCOMPARE(partition::layers_per_segment(32, LayerRule::LlamaCpp, {100, 1, 100}, "m"),
                 (V{17, 0, 15}));
        std::mt19937 random(3);
        for (int i = 0; i < 500; ++i) {
            const int segments = 1 + static_cast<int>(random() % 8);
            const int layers = segments + static_cast<int>(random() % 80);
            std::vector<double> weights;
            for (int s = 0; s < segments; ++s)
                weights.push_back(1 + static_cast<double>(random() % 64));
            for (const auto rule : {LayerRule::Equal, LayerRule::Memory, LayerRule::LlamaCpp}) {
                const auto counts = partition::layers_per_segment(layers, rule, weights, "m");
                QCOMPARE(std::accumulate(counts.begin(), counts.end(), 0), layers);
                QVERIFY(rule == LayerRule::LlamaCpp ||
                        *std::min_element(counts.begin(), counts.end()) >= 1);
                if (rule == LayerRule::Equal)
                    QVERIFY(*std::max_element(counts.begin(), counts.end()) -
                                *std::min_element(counts.begin(), counts.end()) <=
                            1);
            }
        }
        try {
            partition::layers_per_segment(2, LayerRule::Equal, {1, 1, 1}, "m.onnx");
            QFAIL("three PEs for two layers accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.place(), std::string("--pes"));
        }
        try {
            partition::parse_layer_rule("vram");
            QFAIL("an unknown rule accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.place(), std::string("--layers-by"));
        }
    }

    void cutsKeepEachLayerOnOneSide() {
        // The first ten of this seed: both forms, fp32 and int4 (the calibration check's set).
        for (int number = 0; number < 10; ++number) {
            QTemporaryDir dir;
            const auto sample = modelgen::decoder_models(number, 1, 2026).front();
            const auto written = modelgen::write_llm(sample.config, sample.precision, sample.form,
                                                     dir.path().toStdString());
            graph::LoadOptions options;
            options.dims.decode = 32;
            const auto model = graph::load_model(
                std::filesystem::path(dir.path().toStdString()) / written.model_file, options);
            const auto kernels =
                fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
            const auto layers = partition::kernel_layers(model, kernels);
            const int count = 1 + *std::max_element(layers.begin(), layers.end());
            QCOMPARE(count, static_cast<int>(sample.config.layers));
            for (int segments = 1; segments <= count; ++segments) {
                const auto counts = partition::layers_per_segment(
                    count, LayerRule::Equal,
                    std::vector<double>(static_cast<std::size_t>(segments), 1.0), "m");
                const auto points = partition::layer_split_points(model, layers, counts);
                QCOMPARE(points.size(), static_cast<std::size_t>(segments - 1));
                // Segment s holds exactly layers [first, first + counts[s]).
                int first = 0;
                for (int s = 0; s < segments; ++s) {
                    const int begin = s == 0 ? 0 : points[static_cast<std::size_t>(s) - 1];
                    const int end = s + 1 < segments ? points[static_cast<std::size_t>(s)]
                                                     : static_cast<int>(layers.size());
                    QVERIFY(begin < end);
                    std::vector<int> held;
                    for (int k = begin; k < end; ++k)
                        if (layers[static_cast<std::size_t>(k)] >= 0 &&
                            std::find(held.begin(), held.end(),
                                      layers[static_cast<std::size_t>(k)]) == held.end())
                            held.push_back(layers[static_cast<std::size_t>(k)]);
                    std::vector<int> want(
                        static_cast<std::size_t>(counts[static_cast<std::size_t>(s)]));
                    std::iota(want.begin(), want.end(), first);
                    QCOMPARE(held, want);
                    first += counts[static_cast<std::size_t>(s)];
                }
            }
        }
    }

    void aModelWithoutLayersIsRefused() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        try {
            partition::layer_split_points(model, partition::kernel_layers(model, kernels), {1, 1});
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.place(), std::string("--layers-by"));
            QCOMPARE(e.file(), std::string("tiny.onnx"));
        }
    }
};

QTEST_GUILESS_MAIN(LayerSplitTest)
#include "layer_split_test.moc"
