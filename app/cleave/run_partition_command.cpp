// cleave run-partition: one rank of an exported package run for real, started on every rank by
// `mpirun -np R cleave run-partition DIR --model MODEL` (or `-rf DIR/rankfile` across hosts).
// Rank 0 prints the summary it wrote into DIR/run-summary.json.
#include "commands.hpp"
#include "core/autodice/partition_runner.hpp"
#include "core/input_error.hpp"
#include "core/plugin/plugin_registry.hpp"

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

namespace cleave::cli {

namespace {

struct RunPartitionOptions {
    std::string package;
    std::string model;
    int inputs = autodice::PartitionRunOptions{}.inputs;
    double timeout_s = autodice::PartitionRunOptions{}.timeout_s;
    int threads = 1;
    std::string runner = "mpi";
    bool json = false;
};

int run_partition(const RunPartitionOptions& options) {
    if (options.inputs < 1)
        throw InputError("", "--inputs", "expected at least 1 input");
    if (!(options.timeout_s > 0))
        throw InputError("", "--timeout-s", "expected a timeout above 0 s");
    const plugin::PluginRegistry registry;
    auto runner = registry.create<autodice::PartitionRunner>(options.runner, "--runner");
    const auto text = runner->run({.package = options.package,
                                   .model = options.model,
                                   .inputs = options.inputs,
                                   .timeout_s = options.timeout_s,
                                   .threads = options.threads});
    if (text.empty())
        return 0; // not rank 0
    if (options.json) {
        std::fputs(text.c_str(), stdout);
        return 0;
    }
    const auto summary = nlohmann::json::parse(text);
    std::printf("%s: %d ranks, %d inputs (%s)\n", options.package.c_str(),
                summary["ranks"].get<int>(), summary["inputs"].get<int>(),
                summary["runtime"].get<std::string>().c_str());
    std::printf("throughput %.2f inputs/s, max abs diff to the whole model %.3g\n",
                summary["throughput_ips"].get<double>(), summary["max_abs_diff"].get<double>());
    std::printf("%4s  %-20s %12s %12s %12s %12s %10s\n", "rank", "key", "compute ms", "receive ms",
                "send ms", "ms/input", "peak MiB");
    for (const auto& r : summary["per_rank"])
        std::printf("%4d  %-20s %12.1f %12.1f %12.1f %12.2f %10.1f\n", r["rank"].get<int>(),
                    r["key"].get<std::string>().c_str(), r["compute_ms"].get<double>(),
                    r["receive_wait_ms"].get<double>(), r["send_wait_ms"].get<double>(),
                    r["compute_ms_per_input"].get<double>(),
                    r["peak_rss_kib"].get<double>() / 1024.0);
    std::printf("written to %s/run-summary.json\n", options.package.c_str());
    return 0;
}

} // namespace

Action add_run_partition_command(CLI::App& app) {
    auto options = std::make_shared<RunPartitionOptions>();
    auto* command = app.add_subcommand(
        "run-partition",
        "Run one rank of an exported package (start every rank with mpirun); rank 0 checks the "
        "output against the whole model and writes run-summary.json");
    command
        ->add_option("package", options->package,
                     "Exported package folder (export-autodice, split)")
        ->required();
    command->add_option("--model", options->model, "The whole model, for the output check")
        ->required();
    command->add_option("--inputs", options->inputs,
                        "Inputs streamed through the pipeline (default 16)");
    command->add_option(
        "--timeout-s", options->timeout_s,
        "Longest wait for one buffer before the run stops with an error (default 30)");
    command->add_option("--threads", options->threads, "OpenCV threads per rank (default 1)");
    command->add_option("--runner", options->runner, "The runner plugin (default mpi)");
    command->add_flag("--json", options->json, "Print the summary as JSON (rank 0)");
    return [options] { return run_partition(*options); };
}

} // namespace cleave::cli
