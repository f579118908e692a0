// cleave train: a latency predictor for one device from measured runs (docs/predictors.md).
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "core/predict/kernel_features.hpp"
#include "output.hpp"
#include "predictor_runs.hpp"

#include <cstdio>
#include <set>

namespace cleave::cli {

namespace {

struct TrainOptions {
    std::vector<std::string> data;
    std::string models;
    std::string device;
    std::vector<std::string> hold_out;
    predict::PredictorTrainingOptions training;
    std::string out;
    bool json = false;
};

int run_train(TrainOptions& options) {
    check_file_can_be_written(options.out);
    options.training.device = options.device;
    predict::make_regressor(options.training.kind, "--kind"); // a missing plugin fails first
    const auto loaded =
        load_predictor_runs(options.data, options.models, run_selection(options.device));
    std::set<std::string> present;
    for (const auto& r : loaded.runs)
        present.insert(r.family);
    check_held_out(options.hold_out, present);
    const std::set<std::string> held(options.hold_out.begin(), options.hold_out.end());
    std::vector<const predict::RunData*> training;
    for (const auto& r : loaded.runs)
        if (!held.count(r.family))
            training.push_back(&r);
    if (training.empty())
        throw InputError("", "--hold-out", "every run was held out; nothing is left to train on");
    const auto predictor = predict::train_predictor(training, options.training);
    predict::save_predictor(predictor, options.out);

    std::vector<double> errors;
    for (const auto* r : training) {
        const auto predicted = predict::predict_samples(predictor, r->samples);
        for (std::size_t i = 0; i < r->samples.size(); ++i)
            errors.push_back((predicted[i] - r->samples[i].us) / r->samples[i].us);
    }
    const auto fit = predict::summarise_errors(errors);
    if (options.json) {
        nlohmann::ordered_json classes = nlohmann::ordered_json::object();
        for (const auto& [name, c] : predictor.classes)
            classes[name] = c.samples;
        emit_json({{"predictor", options.out},
                   {"device", predictor.device},
                   {"kind", predictor.kind},
                   {"runs", training.size()},
                   {"kernels", errors.size()},
                   {"overhead_ms", predictor.overhead_ms},
                   {"overhead_per_kernel_us", predictor.overhead_per_kernel_us},
                   {"overhead_kernel_time_share", predictor.overhead_kernel_time_share},
                   {"overhead_per_output_mb_us", predictor.overhead_per_output_mb_us},
                   {"overhead_per_mapped_output_mb_us", predictor.overhead_per_mapped_output_mb_us},
                   {"training_kernel_mape", fit.mape},
                   {"classes", classes}},
                  true, "");
        return 0;
    }
    std::printf("predictor  %s (%s, %s for %s)\n", options.out.c_str(), predictor.kind.c_str(),
                predictor.device.c_str(), predictor.rules.c_str());
    std::printf("trained on %zu runs, %zu timed kernels, %zu cost classes\n", training.size(),
                errors.size(), predictor.classes.size());
    std::printf("overhead   %.3f ms per inference + %.2f us per kernel + %.1f%% of the kernels' "
                "time + %.1f us per MB of outputs + %.1f us per MB of outputs over 32 MiB\n",
                predictor.overhead_ms, predictor.overhead_per_kernel_us,
                100 * predictor.overhead_kernel_time_share, predictor.overhead_per_output_mb_us,
                predictor.overhead_per_mapped_output_mb_us);
    if (errors.empty())
        std::printf("fit        on end-to-end times alone (no run has timed kernels); its error "
                    "on families it never saw: cleave evaluate --leave-family-out\n");
    else
        std::printf("fit        kernel MAPE %.1f%% on the training kernels (not a test: see "
                    "cleave evaluate --leave-family-out)\n",
                    100 * fit.mape);
    return 0;
}

} // namespace

Action add_train_command(CLI::App& app) {
    auto options = std::make_shared<TrainOptions>();
    auto* command = app.add_subcommand(
        "train", "Train a per-kernel latency predictor for a device from measured runs");
    add_data_options(*command, options->data, options->models);
    command
        ->add_option("--device", options->device,
                     "Device id the predictor is for; an id ending in -Nt (xeon-ort-4t) uses the "
                     "runs at N threads, a measured device's id the runs its spec names "
                     "(h100-cudnn-fp16: the float16 runs), any other id every run")
        ->required();
    command
        ->add_option("--kind", options->training.kind,
                     "Regressor: lasso (one per cost class), gbdt (XGBoost plugin), mlp, "
                     "roofline (calibrated from the device spec), launch-bound (launch floor or "
                     "work; also from end-to-end times alone), cross-device (the cross-device "
                     "base adapted to the device's kernels)")
        ->capture_default_str();
    command
        ->add_option("--cross-device-base", options->training.cross_device_base,
                     "With --kind cross-device: the base model to adapt (cleave "
                     "train-cross-device; default: the installed one)")
        ->check(CLI::ExistingFile);
    command
        ->add_option("--rules", options->training.rules,
                     "Fusion method the predictor's kernels come from (recorded)")
        ->capture_default_str();
    command->add_option("--hold-out", options->hold_out,
                        "Leave these model families out of training (repeatable)");
    command
        ->add_option("--min-class-samples", options->training.min_class_samples,
                     "A cost class with fewer timed kernels falls back to its kernel type")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    command->add_option("--out", options->out, "The predictor file to write (atomically)")
        ->required();
    command->add_flag("--json", options->json, "Print the training summary as JSON");
    return [options] { return run_train(*options); };
}

} // namespace cleave::cli
