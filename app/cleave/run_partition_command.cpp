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
#include "core/partition/llm_memory.hpp"
#include "core/partition/mapping_costs.hpp"
#include "core/partition/pe_latencies.hpp"
#include "core/plugin/plugin_registry.hpp"
#include "core/predict/predictor.hpp"
#include "mapping_options.hpp"
#include "model_options.hpp"

#include <algorithm>
#include <cmath>
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
    int prompt_tokens = 0; // with generate: a decoder's generation
    int generate = 0;
    int sequences = 1;
};

// How the whole model is read: as the package was split, and a decoder given no step at its
// prefill, whose shapes a decode run's first step has.
graph::LoadOptions whole_model_load(const RunPartitionOptions& options) {
    auto load = options.shapes.load_options();
    if (options.generate > 0 && !load.dims.prefill && !load.dims.decode)
        load.dims.prefill = options.prompt_tokens;
    return load;
}

// A decode run's figures under the table.
void print_decode(const autodice::DecodeRun& d, const std::optional<double>& max_abs_diff) {
    std::printf("%d sequences, prompt %d tokens, %d generated: first token %.1f ms, %.2f ms per "
                "output token, %.2f tokens/s decoding (%.2f overall)\n",
                d.sequences, d.prompt_tokens, d.generate, d.ttft_ms, d.tpot_ms,
                d.decode_tokens_per_s.value_or(NAN), d.tokens_per_s);
    if (d.hop_ms)
        std::printf("a hop (worker to rank, MPI, rank to worker) %.3f ms: the time per token "
                    "less the engines' own, over one hop per rank\n",
                    *d.hop_ms);
    if (max_abs_diff && d.token_mismatches)
        std::printf("teacher-forced check: max abs diff of the logits %.3g, %d token mismatches, "
                    "%d near ties\n",
                    *max_abs_diff, *d.token_mismatches, d.near_ties.value_or(0));
}

// A phase of the model as the package maps it: bound, fused, and its kernels assigned.
struct MappedPhase {
    graph::Model model;
    fusion::KernelGraph kernels;
    partition::KernelAssignment assignment;
};

// What a prediction needs, prepared before the run so that a bad cluster or mapping costs no run:
// the model as the run feeds it, or for a decode run its prefill and a decode step after the
// prompt and half the tokens made (the mean of the steps' cached lengths).
struct PredictionInputs {
    device::Cluster cluster;
    std::optional<predict::Predictor> given;
    std::vector<MappedPhase> phases;
};

PredictionInputs prediction_inputs(const RunPartitionOptions& options) {
    PredictionInputs in{device::load_cluster(options.cluster), std::nullopt, {}};
    if (!options.predictor.empty())
        in.given = partition::load_cluster_predictor(options.predictor, in.cluster);
    std::vector<graph::LoadOptions> loads{whole_model_load(options)};
    if (options.generate > 0) {
        loads.front().dims.decode.reset();
        loads.front().dims.prefill = options.prompt_tokens;
        auto decode = loads.front();
        decode.dims.prefill.reset();
        decode.dims.decode = options.prompt_tokens + (options.generate - 1) / 2;
        loads.push_back(decode);
    }
    const auto method = fusion::find_fusion_method(options.rules);
    const MappingOptions mapping{(std::filesystem::path(options.package) / "mapping.json").string(),
                                 "", "", ""};
    for (const auto& load : loads) {
        auto model = graph::load_model(options.model, load);
        auto chosen =
            mapping.resolve(model, fusion::detect_kernels(model, method), method, in.cluster);
        in.phases.push_back(
            {std::move(model), std::move(chosen.kernels), std::move(chosen.assignment)});
    }
    return in;
}

// What evaluate-mapping predicts for the package's mapping on one phase.
partition::Evaluation predict_phase(const RunPartitionOptions& options, const PredictionInputs& in,
                                    const MappedPhase& phase) {
    std::vector<int> used;
    for (const int pe : phase.assignment.pe_of_kernel)
        if (std::find(used.begin(), used.end(), pe) == used.end())
            used.push_back(pe);
    const partition::MappingCosts costs(
        phase.model, phase.kernels, in.cluster,
        partition::pe_kernel_latencies_ms(phase.model, phase.kernels, in.cluster, options.rules,
                                          used, in.given ? &*in.given : nullptr));
    return costs.evaluate(phase.assignment);
}

double pe_time_ms(const PredictionInputs& in, const partition::Evaluation& evaluation,
                  const std::string& key) {
    return evaluation.pes[static_cast<std::size_t>(in.cluster.find_pe(key) - in.cluster.pes.data())]
        .time_ms();
}

// The prediction beside the measurement: the pipeline's throughput and each rank's time per
// input (compute plus communication), ranks as the summary lists them; for a decode run the time
// to first token, per output token and the decode steps' tokens per second with the run's
// sequences in flight, and each rank's time at the prefill and at a step.
nlohmann::ordered_json predicted_json(const RunPartitionOptions& options,
                                      const PredictionInputs& in,
                                      const autodice::RunSummary& summary,
                                      const nlohmann::json& measured) {
    nlohmann::ordered_json out{
        {"cluster", options.cluster},
        {"predictor", options.predictor.empty() ? "shipped or roofline" : options.predictor}};
    auto per_rank = nlohmann::ordered_json::array();
    const auto first = predict_phase(options, in, in.phases.front());
    if (options.generate == 0) {
        for (const auto& rank : summary.per_rank)
            per_rank.push_back({{"key", rank.key}, {"time_ms", pe_time_ms(in, first, rank.key)}});
        out["throughput_ips"] = first.throughput_per_s;
        out["measured_over_predicted"] = summary.throughput_ips / first.throughput_per_s;
        out["per_rank"] = per_rank;
        return out;
    }
    const auto step = predict_phase(options, in, in.phases.back());
    partition::LlmWorkload workload;
    workload.sequences = options.sequences;
    const double tokens_per_s =
        partition::pipelined_tokens_per_s(workload, step.latency_ms, step.bottleneck_ms);
    for (const auto& rank : summary.per_rank)
        per_rank.push_back({{"key", rank.key},
                            {"prefill_ms", pe_time_ms(in, first, rank.key)},
                            {"step_ms", pe_time_ms(in, step, rank.key)}});
    const auto ratio = [&](const char* key, double predicted) {
        const auto& m = measured.at(key);
        return m.is_number() ? nlohmann::ordered_json(m.get<double>() / predicted)
                             : nlohmann::ordered_json();
    };
    out["ttft_ms"] = first.latency_ms;
    out["tpot_ms"] = step.latency_ms;
    out["decode_tokens_per_s"] = tokens_per_s;
    out["throughput_ips"] = tokens_per_s;
    out["measured_over_predicted"] = ratio("decode_tokens_per_s", tokens_per_s);
    out["measured_over_predicted_ttft"] = ratio("ttft_ms", first.latency_ms);
    out["measured_over_predicted_tpot"] = ratio("tpot_ms", step.latency_ms);
    out["per_rank"] = per_rank;
    return out;
}

int run_partition(const RunPartitionOptions& options) {
    if (options.inputs < 1)
        throw InputError("", "--inputs", "expected at least 1 input");
    if (options.threads < 0)
        throw InputError("", "--threads", "expected a thread count of 1 or more");
    if (!(options.timeout_s > 0))
        throw InputError("", "--timeout-s", "expected a timeout above 0 s");
    if (options.generate < 0 || (options.generate > 0 && options.prompt_tokens < 1))
        throw InputError("", "--generate",
                         "expected --prompt-tokens P (1 or more) with --generate N (1 or more)");
    if (options.sequences < 1)
        throw InputError("", "--sequences", "expected 1 or more sequences");
    if (!options.predictor.empty() && options.cluster.empty())
        throw InputError("", "--predictor", "a prediction needs --cluster FILE");
    std::optional<PredictionInputs> prediction;
    std::map<std::string, int> pe_threads; // calibrated devices' thread counts, by PE key
    if (!options.cluster.empty()) {
        prediction.emplace(prediction_inputs(options));
        for (const auto& pe : prediction->cluster.pes)
            if (const auto& m = prediction->cluster.hosts[pe.host_index].device.measurement;
                m && m->threads)
                pe_threads[pe.key] = *m->threads;
    }
    const plugin::PluginRegistry registry;
    if (options.engine != "ort" && options.engine != "opencv")
        throw InputError("", "--runner", "ort or opencv, found '" + options.engine + "'");
    auto runner = registry.create<autodice::PartitionRunner>("mpi", "--runner");
    auto text = runner->run({.package = options.package,
                             .model = options.model,
                             .load = whole_model_load(options),
                             .inputs = options.inputs,
                             .timeout_s = options.timeout_s,
                             .threads = options.threads,
                             .pe_threads = std::move(pe_threads),
                             .engine = options.engine,
                             .reference = !options.no_reference,
                             .prompt_tokens = options.prompt_tokens,
                             .generate = options.generate,
                             .sequences = options.sequences});
    if (text.empty())
        return 0; // not rank 0
    const auto file = (std::filesystem::path(options.package) / "run-summary.json").string();
    auto summary = autodice::parse_run_summary(text, file);
    if (prediction) {
        auto document = JsonReader(file).parse_ordered(text, "a run summary");
        document["predicted"] =
            predicted_json(options, *prediction, summary,
                           options.generate > 0 ? nlohmann::json(document.at("decode"))
                                                : nlohmann::json::object());
        text = document.dump(2) + "\n";
        write_file_atomically(file, text);
        summary = autodice::parse_run_summary(text, file);
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
    if (summary.decode)
        print_decode(*summary.decode, summary.max_abs_diff);
    if (summary.predicted && summary.decode) {
        const auto& p = *summary.predicted;
        const auto& d = *summary.decode;
        std::printf("predicted on %s: first token %.1f ms, %.2f ms per output token, %.2f "
                    "tokens/s decoding (measured / predicted %.2f, %.2f, %.2f)\n",
                    options.cluster.c_str(), p.ttft_ms.value_or(NAN), p.tpot_ms.value_or(NAN),
                    p.throughput_ips, d.ttft_ms / p.ttft_ms.value_or(NAN),
                    d.tpot_ms / p.tpot_ms.value_or(NAN), p.measured_over_predicted);
    } else if (summary.predicted) {
        std::printf("predicted on %s: %.2f inputs/s (measured / predicted %.2f)\n",
                    options.cluster.c_str(), summary.predicted->throughput_ips,
                    summary.predicted->measured_over_predicted);
    }
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
    command->add_option("--prompt-tokens", options->prompt_tokens,
                        "With --generate: the prompt's tokens, prefilled in one step");
    command->add_option("--generate", options->generate,
                        "Run a decoder's generation instead of --inputs: a prefill, then decode "
                        "steps through the ranks until this many tokens are made (greedy); each "
                        "rank keeps its layers' caches; rank 0 checks every step's logits "
                        "against the whole model fed the same tokens");
    command->add_option("--sequences", options->sequences,
                        "With --generate: sequences in flight together, so that the stages "
                        "overlap (default 1)");
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
