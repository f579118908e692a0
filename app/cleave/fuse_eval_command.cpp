// cleave fuse-eval: a fusion rule set scored against a runtime's measured fusion decisions,
// per model and pooled per model family (transformers apart: their measured covers are less
// reliable where the runtime inserted reshapes).
#include "commands.hpp"
#include "core/fusion/fusion_score.hpp"
#include "core/fusion/rule_engine.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "output.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

namespace cleave::cli {

namespace {

struct FuseEvalOptions {
    std::vector<std::string> data;
    std::string models;
    std::string rules = "ort-cpu";
    int threads = 1;
    bool all_sizes = false;
    bool by_family = false;
    bool json = false;
    std::string out;
};

nlohmann::ordered_json score_json(const fusion::FusionScore& s) {
    return {{"edges", s.edges()},
            {"accuracy", s.accuracy()},
            {"precision", s.precision()},
            {"recall", s.recall()},
            {"kernels_predicted", s.kernels_predicted},
            {"kernels_measured", s.kernels_measured},
            {"kernel_count_error", s.kernel_count_error()}};
}

void print_row(const std::string& name, const std::string& family, const fusion::FusionScore& s) {
    std::printf("%-24s %-13s %6d %8.2f%% %8.2f%% %8.2f%% %6d %6d %+7.1f%%\n", name.c_str(),
                family.c_str(), s.edges(), 100 * s.accuracy(), 100 * s.precision(),
                100 * s.recall(), s.kernels_predicted, s.kernels_measured,
                100 * s.kernel_count_error());
}

int run_fuse_eval(const FuseEvalOptions& options) {
    const auto rules = fusion::find_rule_set(options.rules);
    if (!std::filesystem::is_directory(options.models))
        throw InputError(options.models, "--models",
                         "not a folder; expected the folder holding the data's models");

    std::map<std::string, graph::Model> loaded;
    std::vector<std::string> missing;
    // The run's model at the run's input size: the export size only, unless --all-sizes.
    auto model_for = [&](const profile::MeasuredRun& run) -> const graph::Model* {
        const std::string key = run.model + " " + graph::shape_to_string(run.input_shape);
        if (const auto it = loaded.find(key); it != loaded.end())
            return &it->second;
        const auto path = std::filesystem::path(options.models) / (run.model + ".onnx");
        if (!std::filesystem::exists(path)) {
            if (std::find(missing.begin(), missing.end(), run.model) == missing.end())
                missing.push_back(run.model);
            return nullptr;
        }
        graph::Model model = graph::load_model(path);
        const bool export_size =
            !model.inputs.empty() && model.tensors[model.inputs[0]].shape == run.input_shape;
        if (!export_size && !options.all_sizes)
            return nullptr;
        if (!export_size) {
            graph::LoadOptions load;
            load.input_shapes[model.tensors[model.inputs[0]].name] = run.input_shape;
            model = graph::load_model(path, load);
        }
        return &loaded.emplace(key, std::move(model)).first->second;
    };

    nlohmann::ordered_json models = nlohmann::ordered_json::array();
    std::map<std::string, fusion::FusionScore> families;
    fusion::FusionScore cnn_total;
    if (!options.json && !options.by_family)
        std::printf("%-24s %-13s %6s %9s %9s %9s %6s %6s %8s\n", "model", "family", "edges",
                    "accuracy", "precision", "recall", "pred", "meas", "kernels");
    for (const auto& file : options.data) {
        const auto dataset = profile::load_measured_dataset(file);
        for (const auto& run : dataset.runs) {
            if (run.kernels.empty() || (run.threads != 0 && run.threads != options.threads))
                continue;
            const graph::Model* model = model_for(run);
            if (!model)
                continue;
            const auto kernels = fusion::fuse_with_rules(*model, rules);
            const auto score = fusion::score_fusion(*model, kernels, run);
            const auto family = profile::model_family(run.model);
            families[family] += score;
            if (!profile::is_transformer_family(family))
                cnn_total += score;
            auto row = score_json(score);
            row["uncovered_nodes"] = score.uncovered_nodes;
            models.push_back({{"model", run.model},
                              {"family", family},
                              {"input_shape", run.input_shape},
                              {"threads", run.threads},
                              {"score", row}});
            if (!options.json && !options.by_family)
                print_row(run.model + (options.all_sizes
                                           ? " " + graph::shape_to_string(run.input_shape)
                                           : ""),
                          family, score);
        }
    }
    for (const auto& m : missing)
        std::cerr << "cleave: warning: " << options.models << ": no " << m
                  << ".onnx; its runs were skipped\n";
    if (models.empty())
        throw InputError(options.data.empty() ? "--data" : options.data.front(), "",
                         "no run matched: expected runs with per-kernel 'covers' at --threads " +
                             std::to_string(options.threads) + " whose models are in " +
                             options.models);

    nlohmann::ordered_json family_rows = nlohmann::ordered_json::array();
    if (!options.json)
        std::printf("\n%-24s %-13s %6s %9s %9s %9s %6s %6s %8s\n", "family (pooled)", "", "edges",
                    "accuracy", "precision", "recall", "pred", "meas", "kernels");
    for (const bool transformers : {false, true}) {
        for (const auto& [family, score] : families) {
            if (profile::is_transformer_family(family) != transformers)
                continue;
            family_rows.push_back(
                {{"family", family}, {"transformer", transformers}, {"score", score_json(score)}});
            if (!options.json)
                print_row(family, transformers ? "transformer" : "", score);
        }
    }
    if (!options.json)
        print_row("all CNN families", "", cnn_total);
    const nlohmann::ordered_json document{
        {"rules", rules.name}, {"data", options.data},    {"threads", options.threads},
        {"models", models},    {"families", family_rows}, {"cnn_families", score_json(cnn_total)}};
    if (options.json || !options.out.empty())
        emit_json(document, options.json, options.out);
    return 0;
}

} // namespace

Action add_fuse_eval_command(CLI::App& app) {
    auto options = std::make_shared<FuseEvalOptions>();
    auto* command =
        app.add_subcommand("fuse-eval", "Score a fusion rule set against a runtime's measured "
                                        "fusion (edge accuracy, kernel counts)");
    command
        ->add_option("--data", options->data,
                     "Measured dataset(s) with per-kernel 'covers' (.json or .json.xz)")
        ->required();
    command->add_option("--models", options->models, "Folder holding the ONNX files the data names")
        ->required();
    command
        ->add_option("--rules", options->rules,
                     "Fusion rule set: a shipped name or a rule file (.json)")
        ->capture_default_str();
    command->add_option("--threads", options->threads, "Use the runs at this thread count")
        ->capture_default_str();
    command->add_flag("--all-sizes", options->all_sizes,
                      "Every measured input size, not only the export size");
    command->add_flag("--by-family", options->by_family,
                      "Print only the pooled rows per model family");
    command->add_flag("--json", options->json, "Print per-model and per-family scores as JSON");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    return [options] { return run_fuse_eval(*options); };
}

} // namespace cleave::cli
