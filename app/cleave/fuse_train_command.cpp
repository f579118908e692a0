// cleave fuse-train: trains the learned fusion classifier on a runtime's measured fusion
// decisions and writes the model file that `--rules learned:FILE` reads.
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/fusion/fusion_score.hpp"
#include "core/fusion/fusion_training.hpp"
#include "core/input_error.hpp"
#include "core/profile/run_models.hpp"
#include "output.hpp"
#include "predictor_runs.hpp"
#include "progress.hpp"
#include "training_options.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

namespace cleave::cli {

namespace {

struct FuseTrainOptions {
    std::vector<std::string> data;
    std::string models;
    std::string out;
    std::vector<std::string> hold_out; // families left out of training
    int threads = 1;
    bool json = false;
    fusion::FusionTrainingOptions training;
};

int run_fuse_train(FuseTrainOptions options) {
    check_file_can_be_written(options.out);
    profile::RunModels run_models(options.models, false);
    std::vector<profile::MeasuredDataset> datasets;
    for (const auto& file : options.data)
        datasets.push_back(profile::load_measured_dataset(file));
    std::vector<fusion::FusionExample> examples;
    std::set<std::string> present;
    for (const auto& dataset : datasets)
        for (const auto& run : dataset.runs) {
            if (run.kernels.empty() || (run.threads != 0 && run.threads != options.threads))
                continue;
            const auto family = profile::model_family(run.model);
            present.insert(family);
            if (std::find(options.hold_out.begin(), options.hold_out.end(), family) !=
                options.hold_out.end())
                continue;
            if (const auto* model = run_models.find(run))
                examples.push_back({run.model, model, &run});
        }
    check_held_out(options.hold_out, present);
    for (const auto& m : run_models.missing())
        warn(options.models + ": no " + m + ".onnx; its runs were skipped");
    if (examples.empty())
        throw InputError(
            options.data.front(), "",
            "no run to train on: expected runs with per-kernel 'covers' at --threads " +
                std::to_string(options.threads) + " whose models are in " + options.models +
                " and whose family is not held out");

    Progress progress;
    ProgressControl printed(progress);
    options.training.control = &printed.control();
    const auto learned = fusion::train_learned_fusion(examples, options.training);
    fusion::save_learned_fusion(learned, options.out);

    fusion::FusionScore fit;
    for (const auto& ex : examples)
        fit += fusion::score_fusion(*ex.model, fusion::fuse_learned(*ex.model, learned), *ex.run);
    const nlohmann::ordered_json summary{
        {"out", options.out},           {"runs", examples.size()},
        {"edges", fit.edges()},         {"ops", learned.ops.size()},
        {"launches", learned.launches}, {"training_accuracy", fit.accuracy()},
        {"held_out", options.hold_out}};
    if (options.json) {
        emit_json(summary, true, "");
    } else {
        std::printf("wrote %s: trained on %zu runs (%d edges, %zu op types)\n", options.out.c_str(),
                    examples.size(), fit.edges(), learned.ops.size());
        std::printf("training-set edge accuracy %.2f%%, kernels %d predicted / %d measured\n",
                    100 * fit.accuracy(), fit.kernels_predicted, fit.kernels_measured);
    }
    return 0;
}

} // namespace

Action add_fuse_train_command(CLI::App& app) {
    auto options = std::make_shared<FuseTrainOptions>();
    auto* command = app.add_subcommand(
        "fuse-train", "Train the learned fusion classifier on a runtime's measured fusion");
    command
        ->add_option("--data", options->data,
                     "Measured dataset(s) with per-kernel 'covers' (.json or .json.xz)")
        ->required();
    command
        ->add_option("--models", options->models,
                     "Folder holding the ONNX files the data names (.onnx, .onnx.xz or .onnx.gz)")
        ->required();
    command->add_option("--out", options->out, "The model file to write (atomically)")->required();
    command->add_option("--hold-out", options->hold_out,
                        "Leave these model families out of training (resnet, vit, ...)");
    command->add_option("--threads", options->threads, "Use the runs at this thread count")
        ->capture_default_str();
    add_training_options(*command, options->training);
    command->add_flag("--json", options->json, "Print the training summary as JSON");
    return [options] { return run_fuse_train(*options); };
}

} // namespace cleave::cli
