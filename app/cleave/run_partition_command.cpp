// cleave run-partition: one rank of an exported package run for real, started on every rank by
// `mpirun -np R cleave run-partition DIR --model MODEL` (or `-rf DIR/rankfile` across hosts).
// Rank 0 prints the summary it wrote into DIR/run-summary.json.
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/autodice/partition_runner.hpp"
#include "core/autodice/run_summary.hpp"
#include "core/device/cluster.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/json_reader.hpp"
#include "core/partition/mapping_costs.hpp"
#include "core/partition/pe_latencies.hpp"
#include "core/plugin/plugin_registry.hpp"
#include "core/predict/predictor.hpp"
#include "mapping_options.hpp"
#include "model_options.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace cleave::cli {

namespace {

struct RunPartitionOptions {
    std::string package;
    std::string model;
    ModelOptions shapes; // --input-shape and the dim bindings of the whole model
    int inputs = autodice::PartitionRunOptions{}.inputs;
    double timeout_s = autodice::PartitionRunOptions{}.timeout_s;
    int threads = 0;
    std::string engine = autodice::PartitionRunOptions{}.engine;
    std::string cluster;   // with it: the analytical prediction beside the measurement
    std::string predictor; // for the cluster's PEs of its device
    std::string rules = "ort-cpu";
    bool json = false;
    bool no_reference = false;
};

// What a prediction needs, prepared before the run so that a bad cluster or mapping costs no run.
struct PredictionInputs {
    device::Cluster cluster;
    std::optional<predict::Predictor> given;
    graph::Model model;
    fusion::KernelGraph kernels;
    partition::KernelAssignment assignment;
};

// What evaluate-mapping predicts for the package's mapping: the pipeline's throughput and each
// rank's time per input (compute plus communication), ranks as the summary lists them.
nlohmann::ordered_json predicted_json(const RunPartitionOptions& options,
                                      const PredictionInputs& in,
                                      const autodice::RunSummary& summary) {
    std::vector<int> used;
    for (const int pe : in.assignment.pe_of_kernel)
        if (std::find(used.begin(), used.end(), pe) == used.end())
            used.push_back(pe);
    const partition::MappingCosts costs(
        in.model, in.kernels, in.cluster,
        partition::pe_kernel_latencies_ms(in.model, in.kernels, in.cluster, options.rules, used,
                                          in.given ? &*in.given : nullptr));
    const auto evaluation = costs.evaluate(in.assignment);
    auto per_rank = nlohmann::ordered_json::array();
    for (const auto& rank : summary.per_rank) {
        const auto index =
            static_cast<std::size_t>(in.cluster.find_pe(rank.key) - in.cluster.pes.data());
        per_rank.push_back({{"key", rank.key}, {"time_ms", evaluation.pes[index].time_ms()}});
    }
    return {{"cluster", options.cluster},
            {"predictor", options.predictor.empty() ? "shipped or roofline" : options.predictor},
            {"throughput_ips", evaluation.throughput_per_s},
            {"measured_over_predicted", summary.throughput_ips / evaluation.throughput_per_s},
            {"per_rank", per_rank}};
}

int run_partition(const RunPartitionOptions& options) {
    if (options.inputs < 1)
        throw InputError("", "--inputs", "expected at least 1 input");
    if (options.threads < 0)
        throw InputError("", "--threads", "expected a thread count of 1 or more");
    if (!(options.timeout_s > 0))
        throw InputError("", "--timeout-s", "expected a timeout above 0 s");
    if (!options.predictor.empty() && options.cluster.empty())
        throw InputError("", "--predictor", "a prediction needs --cluster FILE");
    std::optional<PredictionInputs> prediction;
    std::map<std::string, int> pe_threads; // calibrated devices' thread counts, by PE key
    if (!options.cluster.empty()) {
        auto cluster = device::load_cluster(options.cluster);
        for (const auto& pe : cluster.pes)
            if (const auto& m = cluster.hosts[pe.host_index].device.measurement; m && m->threads)
                pe_threads[pe.key] = *m->threads;
        std::optional<predict::Predictor> given;
        if (!options.predictor.empty())
            given = partition::load_cluster_predictor(options.predictor, cluster);
        auto model = graph::load_model(options.model, options.shapes.load_options());
        const auto method = fusion::find_fusion_method(options.rules);
        const MappingOptions mapping{
            (std::filesystem::path(options.package) / "mapping.json").string(), "", "", ""};
        auto chosen = mapping.resolve(model, fusion::detect_kernels(model, method), method, cluster);
        prediction.emplace(PredictionInputs{std::move(cluster), std::move(given), std::move(model),
                                            std::move(chosen.kernels),
                                            std::move(chosen.assignment)});
    }
    const plugin::PluginRegistry registry;
    if (options.engine != "ort" && options.engine != "opencv")
        throw InputError("", "--runner", "ort or opencv, found '" + options.engine + "'");
    auto runner = registry.create<autodice::PartitionRunner>("mpi", "--runner");
    auto text = runner->run({.package = options.package,
                             .model = options.model,
                             .load = options.shapes.load_options(),
                             .inputs = options.inputs,
                             .timeout_s = options.timeout_s,
                             .threads = options.threads,
                             .pe_threads = std::move(pe_threads),
                             .engine = options.engine,
                             .reference = !options.no_reference});
    if (text.empty())
        return 0; // not rank 0
    const auto file = (std::filesystem::path(options.package) / "run-summary.json").string();
    auto summary = autodice::parse_run_summary(text, file);
    if (prediction) {
        const auto predicted = predicted_json(options, *prediction, summary);
        summary.predicted =
            autodice::PredictedRun{predicted["throughput_ips"].get<double>(),
                                   predicted["measured_over_predicted"].get<double>()};
        auto document = JsonReader(file).parse_ordered(text, "a run summary");
        document["predicted"] = predicted;
        text = document.dump(2) + "\n";
        write_file_atomically(file, text);
    }
    if (options.json) {
        std::fputs(text.c_str(), stdout);
        return 0;
    }
    std::printf("%s: %d ranks, %d inputs (%s)\n", options.package.c_str(), summary.ranks,
                summary.inputs, summary.runtime.c_str());
    if (summary.max_abs_diff)
        std::printf("throughput %.2f inputs/s, max abs diff to the whole model %.3g\n",
                    summary.throughput_ips, *summary.max_abs_diff);
    else
        std::printf("throughput %.2f inputs/s, outputs not checked (--no-reference)\n",
                    summary.throughput_ips);
    std::printf("%4s  %-20s %12s %12s %12s %12s %10s\n", "rank", "key", "compute ms", "receive ms",
                "send ms", "ms/input", "peak MiB");
    for (const auto& r : summary.per_rank)
        std::printf("%4d  %-20s %12.1f %12.1f %12.1f %12.2f %10.1f\n", r.rank, r.key.c_str(),
                    r.compute_ms, r.receive_wait_ms, r.send_wait_ms, r.compute_ms_per_input,
                    r.peak_rss_kib / 1024.0);
    if (summary.predicted)
        std::printf("predicted on %s: %.2f inputs/s (measured / predicted %.2f)\n",
                    options.cluster.c_str(), summary.predicted->throughput_ips,
                    summary.predicted->measured_over_predicted);
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
    command
        ->add_option("--model", options->model,
                     "The whole model (.onnx, .onnx.xz or .onnx.gz), for the output check")
        ->required();
    options->shapes.add_shape_options_to(*command); // as the package was split with
    command->add_option("--inputs", options->inputs,
                        "Inputs streamed through the pipeline (default 16)");
    command->add_option(
        "--timeout-s", options->timeout_s,
        "Longest wait for one buffer before the run stops with an error (default 30)");
    command->add_option("--threads", options->threads,
                        "The engine's threads on every rank (default: each rank its PE's: the "
                        "calibrated device's with --cluster, else the cores its key names)");
    command->add_option("--runner", options->engine,
                        "What runs each sub-model: ort (ONNX Runtime, the default) or opencv "
                        "(OpenCV DNN, float tensors only)");
    command->add_flag("--no-reference", options->no_reference,
                      "Do not run the whole model to check the outputs (for a model too large "
                      "to load on one host)");
    command->add_option("--cluster", options->cluster,
                        "Also predict the package's mapping on this cluster (as evaluate-mapping "
                        "does) and put it beside the measurement");
    command->add_option("--predictor", options->predictor,
                        "With --cluster: a predictor file for the PEs of its device");
    command->add_option("--rules", options->rules,
                        "Fusion method of the prediction (default ort-cpu)");
    command->add_flag("--json", options->json, "Print the summary as JSON (rank 0)");
    return [options] { return run_partition(*options); };
}

} // namespace cleave::cli
