// The subcommands of the `cleave` CLI: each file registers one on the CLI11 app and runs it.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace cleave::cli {

// A registered subcommand's action, run after parsing; returns the process exit code.
using Action = std::function<int()>;

Action add_inspect_command(CLI::App& app);
Action add_fuse_command(CLI::App& app);
Action add_fuse_eval_command(CLI::App& app);
Action add_fuse_train_command(CLI::App& app);
Action add_profile_command(CLI::App& app);
Action add_calibrate_command(CLI::App& app);
Action add_import_profile_command(CLI::App& app);
Action add_train_command(CLI::App& app);
Action add_evaluate_command(CLI::App& app);
Action add_predict_command(CLI::App& app);
Action add_devices_command(CLI::App& app);
Action add_platform_command(CLI::App& app);
Action add_group_command(CLI::App& app);
Action add_evaluate_mapping_command(CLI::App& app);
Action add_sample_kernels_command(CLI::App& app);
Action add_evaluate_sampling_command(CLI::App& app);
Action add_train_cross_device_command(CLI::App& app);
Action add_evaluate_cross_device_command(CLI::App& app);
Action add_device_vector_command(CLI::App& app);
Action add_benchmark_suite_command(CLI::App& app);
Action add_generate_models_command(CLI::App& app);
Action add_run_partition_command(CLI::App& app);
Action add_export_autodice_command(CLI::App& app);
Action add_split_command(CLI::App& app);
// cleave dse: the launcher in cleave runs cleave-dse (dse_launcher.cpp), whose main registers the
// command itself, so that only a search loads pagmo2.
inline constexpr const char* kDseDescription =
    "Pareto front of mappings onto a cluster by NSGA-II (throughput, per-device memory and "
    "energy), multi-stage and hierarchical; a decoder's held to its layers beside its exact plans";
Action add_dse_launcher(CLI::App& app);
Action add_dse_command(CLI::App& app);
Action add_version_command(CLI::App& app);
// Runs cleave-render (built with the studio) with the same arguments.
Action add_render_command(CLI::App& app);

} // namespace cleave::cli
