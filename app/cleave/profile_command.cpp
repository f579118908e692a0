// cleave profile: measures a model on this machine through a profiler plugin, end to end and
// per kernel with the runtime's fusion, and adds the run to a measured dataset file.
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "core/plugin/plugin_registry.hpp"
#include "core/profile/host_processor.hpp"
#include "core/profile/profiler.hpp"
#include "measured_run_summary.hpp"
#include "model_options.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <filesystem>

namespace cleave::cli {

namespace {

struct ProfileCommandOptions {
    ModelOptions model;
    std::string backend;
    std::string out;
    bool json = false;
    profile::ProfileOptions profile;
};

std::string quoted_or_none(const std::string& text) {
    return text.empty() ? "(none given)" : "'" + text + "'";
}

int run_profile(ProfileCommandOptions options) {
    check_file_can_be_written(options.out); // before minutes of measuring
    const plugin::PluginRegistry registry;
    const auto profiler = registry.create<profile::Profiler>(options.backend, "--backend");
    profile::MeasuredDataset data;
    data.runtime = profiler->runtime();
    data.device = profile::host_processor();
    if (std::filesystem::exists(options.out)) {
        auto existing = profile::load_measured_dataset(options.out);
        if (existing.runtime != data.runtime || existing.device != data.device)
            throw InputError(options.out, "",
                             "holds runs of runtime " + quoted_or_none(existing.runtime) + " on " +
                                 quoted_or_none(existing.device) + "; this run is '" +
                                 data.runtime + "' on '" + data.device +
                                 "': give another --out file");
        data.runs = std::move(existing.runs);
    }

    const auto model = options.model.load();
    Progress progress;
    ProgressControl printed(progress);
    options.profile.control = &printed.control();
    profile::MeasuredRun run = profiler->profile(model, options.profile);
    run.dims = options.model.load_options().dims; // a decoder's phase, to load it alike later

    profile::put_run(data, run);
    profile::save_measured_dataset(data, options.out);

    if (options.json)
        emit_json(measured_run_json(data, run, options.out), true, "");
    else
        print_measured_run(data, run, options.out);
    return 0;
}

} // namespace

Action add_profile_command(CLI::App& app) {
    auto options = std::make_shared<ProfileCommandOptions>();
    auto* command = app.add_subcommand(
        "profile", "Measure a model on this machine, end to end and per kernel, into a dataset");
    options->model.add_to(*command, false);
    command
        ->add_option("--backend", options->backend,
                     "The profiler plugin to measure with (opencv, ort)")
        ->required();
    command
        ->add_option("--out", options->out,
                     "The dataset file to add the run to (created, or updated atomically)")
        ->required();
    command->add_option("--threads", options->profile.threads, "Threads the runtime may use")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    command->add_option("--warmup", options->profile.warmups, "Untimed runs before measuring")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    command->add_option("--repeats", options->profile.repeats, "Timed runs per round")
        ->capture_default_str()
        ->check(CLI::Range(2, 1000000));
    command
        ->add_option("--max-cv", options->profile.max_cv,
                     "Measure another round while the runs' coefficient of variation is above this")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    command
        ->add_option("--max-rounds", options->profile.max_rounds,
                     "Rounds at most; the steadiest is kept")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    command->add_flag("--json", options->json, "Print the run's summary as JSON");
    return [options] { return run_profile(*options); };
}

} // namespace cleave::cli
