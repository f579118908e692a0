// Benchmark: predicting kernel latencies (features + every class model) for at least 1,000
// kernels, per predictor kind, against a floor measured in the same run: computing the kernel
// features alone. The predictors are trained on the measured sample first (not timed).
// Usage: predict_bench SAMPLE.json MODELS_DIR [--repeat N] [--json FILE]
#include "bench_timing.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/predict/predictor_training.hpp"
#include "core/predict/regressor.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using namespace cleave;

int main(int argc, char** argv) try {
    if (argc < 3) {
        std::fprintf(stderr, "usage: predict_bench SAMPLE.json MODELS_DIR [--repeat N] [--json FILE]\n");
        return 2;
    }
    const std::string sample = argv[1], models_dir = argv[2];
    int repeat = 21;
    std::string json_file;
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--repeat")
            repeat = std::stoi(argv[i + 1]);
        else if (flag == "--json")
            json_file = argv[i + 1];
    }
    const auto data = profile::load_measured_dataset(sample);
    std::vector<graph::Model> models;
    models.reserve(data.runs.size());
    std::vector<predict::RunData> runs;
    for (const auto& run : data.runs)
        models.push_back(graph::load_model(models_dir + "/" + run.model + ".onnx"));
    for (std::size_t i = 0; i < data.runs.size(); ++i)
        runs.push_back(predict::prepare_run(models[i], data.runs[i]));
    std::vector<const predict::RunData*> all;
    for (const auto& r : runs)
        all.push_back(&r);

    // The sample's models, over and over, until there are at least 1,000 kernels.
    const auto method = fusion::find_fusion_method("ort-cpu");
    std::vector<std::pair<const graph::Model*, fusion::KernelGraph>> graphs;
    std::size_t kernels = 0;
    while (kernels < 1000)
        for (const auto& m : models) {
            graphs.emplace_back(&m, fusion::detect_kernels(m, method));
            kernels += graphs.back().second.kernels.size();
        }

    double floor_s = cleave::bench::median_seconds(repeat, [&] {
        for (const auto& [model, graph] : graphs)
            for (const auto& k : graph.kernels)
                (void)predict::kernel_features(*model, k);
    });
    std::printf("%zu kernels: features alone %.3f ms (the floor)\n", kernels, floor_s * 1e3);
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    for (const auto& kind : predict::regressor_kinds()) {
        if (kind == "roofline")
            continue; // needs a device with datasheet figures, not the sample's Xeon
        predict::PredictorTrainingOptions options;
        options.device = "xeon-ort-1t";
        options.kind = kind;
        const auto predictor = predict::train_predictor(all, options);
        double total_ms = 0;
        const double seconds = cleave::bench::median_seconds(repeat, [&] {
            for (const auto& [model, graph] : graphs)
                total_ms += predict::predict_model(predictor, *model, graph).total_ms;
        });
        std::printf("  %-12s %8.3f ms for %zu kernels (%.2f us per kernel, %.2fx the floor)\n",
                    kind.c_str(), seconds * 1e3, kernels, seconds * 1e6 / kernels,
                    seconds / floor_s);
        results.push_back({{"kind", kind},
                           {"kernels", kernels},
                           {"ms", seconds * 1e3},
                           {"us_per_kernel", seconds * 1e6 / kernels},
                           {"ratio_to_floor", seconds / floor_s}});
    }
    if (!json_file.empty())
        std::ofstream(json_file) << nlohmann::ordered_json{{"kernels", kernels},
                                                           {"features_ms", floor_s * 1e3},
                                                           {"predictors", results}}
                                        .dump(1)
                                 << "\n";
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "predict_bench: %s\n", e.what());
    return 1;
}
