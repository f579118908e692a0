// cleave sample-kernels: which kernels of some models to profile first on a new device, chosen
// by KMeans over their features (core/predict/kernel_sampling.hpp, CDMPP Alg. 1).
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/model_file.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/predict/kernel_sampling.hpp"
#include "output.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace cleave::cli {

namespace {

struct SampleKernelsOptions {
    std::vector<std::string> models;
    std::string rules = "ort-cpu";
    int budget = 0;
    unsigned seed = 1;
    bool json = false;
    std::string out;
};

// The ONNX files named, a folder standing for the models in it (.onnx, .onnx.xz, .onnx.gz), by
// name.
std::vector<std::filesystem::path> model_files(const std::vector<std::string>& paths) {
    std::vector<std::filesystem::path> files;
    for (const auto& path : paths) {
        if (!std::filesystem::is_directory(path)) {
            files.emplace_back(path);
            continue;
        }
        const auto in_folder = graph::model_files_in(path);
        if (in_folder.empty())
            throw InputError(path, "--models",
                             "a folder with ONNX models (.onnx, .onnx.xz or .onnx.gz)");
        files.insert(files.end(), in_folder.begin(), in_folder.end());
    }
    return files;
}

int run_sample_kernels(const SampleKernelsOptions& options) {
    if (!options.out.empty())
        check_file_can_be_written(options.out);
    const auto method = fusion::find_fusion_method(options.rules);
    std::vector<predict::KernelCandidate> candidates;
    const auto files = model_files(options.models);
    for (const auto& file : files) {
        const auto model = graph::load_model(file);
        const auto found = predict::kernel_candidates(graph::model_name(file), model,
                                                      fusion::detect_kernels(model, method));
        candidates.insert(candidates.end(), found.begin(), found.end());
    }
    const auto chosen = predict::sample_kernels(candidates, options.budget, options.seed);

    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& s : chosen)
        rows.push_back({{"model", s.kernel.model},
                        {"kernel", s.kernel.kernel},
                        {"cost_class", s.kernel.cost_class},
                        {"cluster_size", s.cluster_size},
                        {"occurrences", s.occurrences}});
    const nlohmann::ordered_json document{
        {"rules", method.name},   {"budget", options.budget},        {"seed", options.seed},
        {"models", files.size()}, {"candidates", candidates.size()}, {"kernels", rows}};
    if (!options.json) {
        std::printf("%zu of %zu kernels from %zu models (%s), largest cluster first\n",
                    chosen.size(), candidates.size(), files.size(), method.name.c_str());
        std::printf("  %4s  %-18s %-16s %7s  %s\n", "#", "model", "cost class", "cluster",
                    "kernel");
        int rank = 0;
        for (const auto& s : chosen)
            std::printf("  %4d  %-18s %-16s %7d  %s\n", ++rank, s.kernel.model.c_str(),
                        s.kernel.cost_class.c_str(), s.cluster_size, s.kernel.kernel.c_str());
    }
    if (options.json || !options.out.empty())
        emit_json(document, options.json, options.out);
    return 0;
}

} // namespace

Action add_sample_kernels_command(CLI::App& app) {
    auto options = std::make_shared<SampleKernelsOptions>();
    auto* command = app.add_subcommand(
        "sample-kernels",
        "Choose which kernels to profile first on a new device (KMeans over kernel features)");
    command
        ->add_option("--models", options->models,
                     "ONNX files (.onnx, .onnx.xz, .onnx.gz), or folders of them")
        ->required();
    command->add_option("--rules", options->rules, "Fusion method that forms the kernels")
        ->capture_default_str();
    command->add_option("--budget", options->budget, "How many kernels to profile")->required();
    command->add_option("--seed", options->seed, "Seed of the KMeans++ start")
        ->capture_default_str();
    command->add_flag("--json", options->json, "Print the chosen kernels as JSON");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    return [options] { return run_sample_kernels(*options); };
}

} // namespace cleave::cli
