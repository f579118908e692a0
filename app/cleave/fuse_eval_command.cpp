// cleave fuse-eval: a fusion rule set scored against a runtime's measured fusion decisions,
// per model and pooled per model family (transformers apart: their measured covers are less
// reliable where the runtime inserted reshapes).
#include "commands.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/fusion/fusion_score.hpp"
#include "core/fusion/fusion_training.hpp"
#include "core/input_error.hpp"
#include "core/profile/run_models.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "training_options.hpp"

#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

namespace cleave::cli {

namespace {

struct FuseEvalOptions {
    std::vector<std::string> data;
    std::string models;
    std::string rules = "ort-cpu";
    int threads = 1;
    bool all_sizes = false;
    bool by_family = false;
    bool leave_family_out = false;
    fusion::FusionTrainingOptions training;
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

// A run's row name: the model, its input size where every size is scored, the dims it bound.
std::string run_label(const profile::MeasuredRun& run, bool all_sizes) {
    return run.model + (all_sizes ? " " + graph::shape_to_string(run.input_shape) : "") +
           (run.dims.empty() ? "" : " " + graph::dim_bindings_text(run.dims));
}

int run_fuse_eval(const FuseEvalOptions& options) {
    std::optional<fusion::FusionMethod> method;
    if (!options.leave_family_out)
        method = fusion::find_fusion_method(options.rules);
    profile::RunModels run_models(options.models, options.all_sizes);

    // The runs to score, with their models, in file order.
    std::vector<profile::MeasuredDataset> datasets;
    std::vector<fusion::FusionExample> runs;
    for (const auto& file : options.data)
        datasets.push_back(profile::load_measured_dataset(file));
    for (const auto& dataset : datasets)
        for (const auto& run : dataset.runs) {
            if (run.kernels.empty() || (run.threads != 0 && run.threads != options.threads))
                continue;
            if (const auto* model = run_models.find(run))
                runs.push_back({run.model, model, &run});
        }
    for (const auto& m : run_models.missing())
        warn(options.models + ": no " + m + ".onnx; its runs were skipped");
    if (runs.empty())
        throw InputError(options.data.empty() ? "--data" : options.data.front(), "",
                         "no run matched: expected runs with per-kernel 'covers' at --threads " +
                             std::to_string(options.threads) + " whose models are in " +
                             options.models);

    // With --leave-family-out, each family is scored by a classifier trained on the others.
    std::map<std::string, fusion::LearnedFusion> held_out;
    if (options.leave_family_out) {
        std::set<std::string> families;
        for (const auto& r : runs)
            families.insert(profile::model_family(r.name));
        Progress progress;
        for (const auto& family : families) {
            std::vector<fusion::FusionExample> training;
            for (const auto& r : runs)
                if (profile::model_family(r.name) != family)
                    training.push_back(r);
            progress.update("training without " + family + " (" + std::to_string(training.size()) +
                            " runs)");
            held_out.emplace(family, fusion::train_learned_fusion(training, options.training));
        }
    }

    nlohmann::ordered_json models = nlohmann::ordered_json::array();
    std::map<std::string, fusion::FusionScore> families;
    fusion::FusionScore cnn_total;
    if (!options.json && !options.by_family)
        std::printf("%-24s %-13s %6s %9s %9s %9s %6s %6s %8s\n", "model", "family", "edges",
                    "accuracy", "precision", "recall", "pred", "meas", "kernels");
    for (const auto& r : runs) {
        const auto& run = *r.run;
        const auto family = profile::model_family(run.model);
        const auto kernels = options.leave_family_out
                                 ? fusion::fuse_learned(*r.model, held_out.at(family))
                                 : fusion::detect_kernels(*r.model, *method);
        const auto score = fusion::score_fusion(*r.model, kernels, run);
        families[family] += score;
        if (!profile::is_transformer_family(family))
            cnn_total += score;
        auto row = score_json(score);
        row["uncovered_nodes"] = score.uncovered_nodes;
        models.push_back({{"model", run.model},
                          {"family", family},
                          {"input_shape", run.input_shape},
                          {"dims", graph::dim_bindings_text(run.dims)},
                          {"threads", run.threads},
                          {"score", row}});
        if (!options.json && !options.by_family)
            print_row(run_label(run, options.all_sizes), family, score);
    }

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
        {"rules", options.leave_family_out ? "learned, leave-family-out" : method->name},
        {"data", options.data},
        {"threads", options.threads},
        {"models", models},
        {"families", family_rows},
        {"cnn_families", score_json(cnn_total)}};
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
    command
        ->add_option("--models", options->models,
                     "Folder holding the ONNX files the data names (.onnx, .onnx.xz or .onnx.gz)")
        ->required();
    auto* rules =
        command
            ->add_option("--rules", options->rules,
                         "Fusion: a shipped rule set, a rule file (.json) or learned:MODEL_FILE")
            ->capture_default_str();
    command
        ->add_flag("--leave-family-out", options->leave_family_out,
                   "Score a learned classifier on each family, trained on the other "
                   "families' runs (instead of --rules)")
        ->excludes(rules);
    add_training_options(*command, options->training);
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
