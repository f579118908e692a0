// cleave: the command-line front end. Exit codes: 0 success, 2 bad input or usage, 1 internal
// failure.
#include "cli_main.hpp"
#include "commands.hpp"
#include "progress.hpp"

#include <map>

int main(int argc, char** argv) {
    cleave::cli::keep_freed_memory();
    CLI::App app{"", "cleave"};
    bool quiet = false;
    cleave::cli::add_cleave_top_level(app, quiet);

    std::map<CLI::App*, cleave::cli::Action> actions;
    auto add = [&](cleave::cli::Action action) {
        actions[app.get_subcommands({}).back()] = std::move(action);
    };
    add(cleave::cli::add_inspect_command(app));
    add(cleave::cli::add_fuse_command(app));
    add(cleave::cli::add_fuse_eval_command(app));
    add(cleave::cli::add_fuse_train_command(app));
    add(cleave::cli::add_profile_command(app));
    add(cleave::cli::add_calibrate_command(app));
    add(cleave::cli::add_import_profile_command(app));
    add(cleave::cli::add_train_command(app));
    add(cleave::cli::add_evaluate_command(app));
    add(cleave::cli::add_predict_command(app));
    add(cleave::cli::add_devices_command(app));
    add(cleave::cli::add_platform_command(app));
    add(cleave::cli::add_group_command(app));
    add(cleave::cli::add_evaluate_mapping_command(app));
    add(cleave::cli::add_sample_kernels_command(app));
    add(cleave::cli::add_evaluate_sampling_command(app));
    add(cleave::cli::add_train_cross_device_command(app));
    add(cleave::cli::add_evaluate_cross_device_command(app));
    add(cleave::cli::add_device_vector_command(app));
    add(cleave::cli::add_benchmark_suite_command(app));
    add(cleave::cli::add_generate_models_command(app));
    add(cleave::cli::add_run_partition_command(app));
    add(cleave::cli::add_export_autodice_command(app));
    add(cleave::cli::add_split_command(app));
    add(cleave::cli::add_dse_launcher(app));
    add(cleave::cli::add_version_command(app));
    add(cleave::cli::add_render_command(app));

    cleave::cli::exit_after_command(cleave::cli::parse_and_run(app, argc, argv, "cleave", [&] {
        cleave::cli::set_quiet(quiet);
        for (const auto& [command, action] : actions)
            if (command->parsed())
                return action();
        return 2;
    }));
}
