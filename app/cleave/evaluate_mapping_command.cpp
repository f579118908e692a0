// cleave evaluate-mapping: the analytical costs of one mapping of a model onto a cluster (an
// AutoDiCE mapping.json, or split points with a PE per segment): per-PE time, memory and energy,
// throughput, pipeline latency and every tensor that crosses between PEs.
#include "commands.hpp"
#include "core/autodice/mapping_file.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/decoder_phase.hpp"
#include "core/input_error.hpp"
#include "core/partition/llm_memory.hpp"
#include "core/partition/mapping_costs.hpp"
#include "core/partition/pe_latencies.hpp"
#include "core/partition/replay.hpp"
#include "decoder_output.hpp"
#include "mapping_options.hpp"
#include "model_options.hpp"
#include "output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace cleave::cli {

namespace {

struct EvaluateMappingOptions {
    ModelOptions model;
    std::string cluster;
    MappingOptions mapping;
    std::string rules = "ort-cpu";
    std::string predictor;
    std::string save_mapping;
    bool json = false;
    std::string out;
    bool replay = false;
    int inputs = 32;
    double interval_ms = 0;
    // A decoder's workload (the batch is the model's bound one).
    partition::LlmWorkload workload;
    bool workload_given = false;
    std::string precision; // a what-if weight precision
};

nlohmann::ordered_json number_or_null(double value) {
    return std::isnan(value) ? nlohmann::ordered_json() : nlohmann::ordered_json(value);
}

// A mapping evaluated: the model, cluster and kernels it maps, the PEs it uses in the order their
// first kernel runs, its costs, the busiest PE, and the replay when asked.
struct EvaluatedMapping {
    device::Cluster cluster;
    graph::Model model;
    fusion::FusionMethod method;
    ChosenMapping chosen;
    std::vector<int> used;
    std::optional<partition::MappingCosts> costs;
    partition::Evaluation evaluation;
    std::vector<partition::Transfer> transfers; // by tensor, then by receiving PE
    int bottleneck = 0;
    std::optional<partition::Replay> replay;
    std::vector<std::int64_t> peak_live;
    std::optional<graph::DecoderPhase> phase;       // a decoder's, as the model is bound
    std::optional<partition::LlmWorkload> workload; // and its workload
    std::optional<PrecisionChoice> precision;       // the weights as stored and as costed
    partition::LlmMemory llm;

    const std::string& key(int pe) const { return cluster.pes[static_cast<std::size_t>(pe)].key; }
    const device::DeviceSpec& device_of(int pe) const {
        return cluster.hosts[cluster.pes[static_cast<std::size_t>(pe)].host_index].device;
    }
    bool same_host(int a, int b) const {
        return cluster.pes[static_cast<std::size_t>(a)].host ==
               cluster.pes[static_cast<std::size_t>(b)].host;
    }
    const std::string& host_name(int host) const {
        return cluster.hosts[static_cast<std::size_t>(host)].host;
    }
};

EvaluatedMapping evaluate_mapping(const EvaluateMappingOptions& options) {
    EvaluatedMapping e;
    e.cluster = device::load_cluster(options.cluster);
    e.model = options.model.load();
    e.precision.emplace(options.precision).apply(e.model);
    e.method = fusion::find_fusion_method(options.rules);
    std::optional<predict::Predictor> given;
    if (!options.predictor.empty())
        given = partition::load_cluster_predictor(options.predictor, e.cluster);
    e.chosen = options.mapping.resolve(e.model, fusion::detect_kernels(e.model, e.method), e.method,
                                       e.cluster);
    const auto& kernels = e.chosen.kernels;
    const auto& assignment = e.chosen.assignment;
    if (!options.save_mapping.empty())
        autodice::save_mapping_file(e.model, kernels, assignment, e.cluster, options.save_mapping);

    for (const int pe : assignment.pe_of_kernel)
        if (std::find(e.used.begin(), e.used.end(), pe) == e.used.end())
            e.used.push_back(pe);
    const auto latencies = partition::pe_kernel_latencies_ms(
        e.model, kernels, e.cluster, options.rules, e.used, given ? &*given : nullptr);
    const auto& costs = e.costs.emplace(e.model, kernels, e.cluster, latencies);
    e.evaluation = e.chosen.split ? costs.evaluate(*e.chosen.split) : costs.evaluate(assignment);
    if (options.replay) {
        e.replay = partition::replay(costs, assignment, {options.inputs, options.interval_ms});
        e.peak_live = partition::peak_live_bytes(costs, assignment);
    }

    e.phase = graph::decoder_phase(e.model);
    if (e.phase) {
        auto& workload = e.workload.emplace(options.workload);
        workload.batch = e.phase->batch;
        if (workload.cached_context() == 0)
            workload.context = e.phase->context;
        partition::check_workload(e.model, workload);
        e.llm = partition::llm_memory(e.model, kernels, assignment, e.cluster, workload);
    } else if (options.workload_given || !options.precision.empty()) {
        throw InputError(e.model.file, options.workload_given ? "--context" : "--precision",
                         "a decoder (a model with past key/value inputs) for a workload");
    }

    e.transfers = e.evaluation.transfers;
    std::sort(e.transfers.begin(), e.transfers.end(), [](const auto& a, const auto& b) {
        return std::tie(a.tensor, a.to_pe) < std::tie(b.tensor, b.to_pe);
    });
    e.bottleneck = e.used.front();
    for (const int pe : e.used)
        if (e.evaluation.pes[static_cast<std::size_t>(pe)].time_ms() >
            e.evaluation.pes[static_cast<std::size_t>(e.bottleneck)].time_ms())
            e.bottleneck = pe;
    return e;
}

nlohmann::ordered_json pe_json(const EvaluatedMapping& e, int pe) {
    const auto& c = e.evaluation.pes[static_cast<std::size_t>(pe)];
    const auto& power = e.costs->power(pe);
    const auto capacity = device::capacity_bytes(e.device_of(pe));
    nlohmann::ordered_json out{
        {"pe", e.key(pe)},
        {"device", e.device_of(pe).id},
        {"processing_element", e.cluster.pes[static_cast<std::size_t>(pe)].spec.name},
        {"kernels", c.kernels},
        {"compute_ms", c.compute_ms},
        {"send_ms", c.send_ms},
        {"receive_ms", c.receive_ms},
        {"communication_ms", c.communication_ms()},
        {"time_ms", c.time_ms()},
        {"weight_bytes", c.weight_bytes},
        {"output_bytes", c.output_bytes},
        {"input_bytes", c.input_bytes},
        {"memory_bytes", c.memory_bytes()},
        {"memory_capacity_bytes",
         capacity ? nlohmann::ordered_json(*capacity) : nlohmann::ordered_json()},
        {"memory_share",
         capacity ? nlohmann::ordered_json(static_cast<double>(c.memory_bytes()) / *capacity)
                  : nlohmann::ordered_json()},
        {"busy_power_w", number_or_null(power.busy_w)},
        {"communication_power_w", number_or_null(power.communication_w)},
        {"energy_mj", number_or_null(c.energy_mj)}};
    if (e.replay)
        out["peak_live_bytes"] = e.peak_live[static_cast<std::size_t>(pe)];
    return out;
}

nlohmann::ordered_json transfers_json(const EvaluatedMapping& e) {
    auto transfer_list = nlohmann::ordered_json::array();
    for (const auto& t : e.transfers) {
        nlohmann::ordered_json link;
        if (!e.same_host(t.from_pe, t.to_pe)) {
            const auto l = e.cluster.link(e.cluster.pes[static_cast<std::size_t>(t.from_pe)].host,
                                          e.cluster.pes[static_cast<std::size_t>(t.to_pe)].host);
            link = {{"bandwidth_gbps", l.bandwidth_gbps}, {"latency_us", l.latency_us}};
        } else {
            link = "memory";
        }
        transfer_list.push_back(
            {{"tensor", e.model.tensors[static_cast<std::size_t>(t.tensor)].name},
             {"from", e.key(t.from_pe)},
             {"to", e.key(t.to_pe)},
             {"bytes", t.bytes},
             {"ms", t.ms},
             {"link", link}});
    }
    return transfer_list;
}

nlohmann::ordered_json replay_json(const EvaluatedMapping& e) {
    const auto& replay = *e.replay;
    auto replay_pes = nlohmann::ordered_json::array();
    for (const int pe : e.used) {
        const auto& r = replay.pes[static_cast<std::size_t>(pe)];
        replay_pes.push_back({{"pe", e.key(pe)},
                              {"compute_ms", r.compute_ms},
                              {"busy_ms", r.busy_ms},
                              {"utilisation", r.utilisation}});
    }
    auto replay_links = nlohmann::ordered_json::array();
    for (const auto& l : replay.links)
        replay_links.push_back({{"hosts", {e.host_name(l.host_a), e.host_name(l.host_b)}},
                                {"transfers", l.transfers},
                                {"busy_ms", l.busy_ms},
                                {"utilisation", l.utilisation}});
    return {{"inputs", replay.inputs},
            {"interval_ms", replay.interval_ms},
            {"first_latency_ms", replay.first_latency_ms},
            {"mean_latency_ms", replay.mean_latency_ms},
            {"throughput_per_s", replay.throughput_per_s},
            {"makespan_ms", replay.makespan_ms},
            {"latency_ms", replay.latency_ms},
            {"pes", replay_pes},
            {"links", replay_links}};
}

// A decoder's figures: its phase's time (to first token, or per output token and tokens per
// second through the pipeline) and its memory under the workload.
nlohmann::ordered_json decoder_json(const EvaluatedMapping& e) {
    const auto& w = *e.workload;
    const auto& phase = e.phase;
    nlohmann::ordered_json out{
        {"workload", workload_json(w)}, {"phase", phase->phase}, {"tokens", phase->tokens}};
    if (phase->phase == "prefill") {
        out["time_to_first_token_ms"] = e.evaluation.latency_ms;
    } else {
        out["time_per_output_token_ms"] = e.evaluation.latency_ms;
        out["tokens_per_s"] = partition::pipelined_tokens_per_s(w, e.evaluation.latency_ms,
                                                                e.evaluation.bottleneck_ms);
    }
    out["precision"] = e.precision->json();
    out["memory"] = llm_memory_json(e.llm, e.cluster, e.used);
    return out;
}

nlohmann::ordered_json evaluation_json(const EvaluatedMapping& e,
                                       const EvaluateMappingOptions& options) {
    auto pe_list = nlohmann::ordered_json::array();
    for (const int pe : e.used)
        pe_list.push_back(pe_json(e, pe));
    nlohmann::ordered_json document{
        {"model", e.model.file},
        {"cluster", e.cluster.file},
        {"rules", e.method.name},
        {"kernels", static_cast<int>(e.chosen.kernels.kernels.size())},
        {"cut_kernels", e.chosen.cut_kernels},
        {"mapping", options.mapping.mapping.empty()
                        ? nlohmann::ordered_json()
                        : nlohmann::ordered_json(options.mapping.mapping)}};
    if (e.chosen.split)
        document["points"] = e.chosen.split->points;
    if (!e.chosen.layers.empty())
        document["layers"] = {{"rule", options.mapping.layers_by}, {"per_pe", e.chosen.layers}};
    document["pes"] = pe_list;
    document["bottleneck_pe"] = e.key(e.bottleneck);
    document["bottleneck_ms"] = e.evaluation.bottleneck_ms;
    document["throughput_per_s"] = e.evaluation.throughput_per_s;
    document["latency_ms"] = e.evaluation.latency_ms;
    document["transfers"] = transfers_json(e);
    if (e.replay)
        document["replay"] = replay_json(e);
    if (e.workload)
        document["decoder"] = decoder_json(e);
    return document;
}

// The costs per PE and the tensors that cross between PEs, as a table.
void print_costs(const EvaluatedMapping& e) {
    const auto& evaluation = e.evaluation;
    std::printf("%s on %s, %d kernels by %s, %zu PEs\n", e.model.file.c_str(),
                e.cluster.file.c_str(), static_cast<int>(e.chosen.kernels.kernels.size()),
                e.method.name.c_str(), e.used.size());
    std::printf("throughput %.2f /s (bottleneck %s, %.3f ms), pipeline latency %.3f ms, %zu "
                "transfers\n\n",
                evaluation.throughput_per_s, e.key(e.bottleneck).c_str(), evaluation.bottleneck_ms,
                evaluation.latency_ms, e.transfers.size());
    if (!e.chosen.layers.empty()) {
        std::printf("decoder layers per segment (%s):", e.chosen.source.c_str());
        for (const int n : e.chosen.layers)
            std::printf(" %d", n);
        std::printf("\n\n");
    }
    std::printf("  %-16s %7s %11s %9s %10s %14s %7s %10s\n", "PE", "kernels", "compute ms",
                "comm ms", "time ms", "memory bytes", "of cap", "energy mJ");
    for (const int pe : e.used) {
        const auto& c = evaluation.pes[static_cast<std::size_t>(pe)];
        const auto capacity = device::capacity_bytes(e.device_of(pe));
        char share[32] = "?";
        if (capacity)
            std::snprintf(share, sizeof share, "%.1f%%",
                          100.0 * static_cast<double>(c.memory_bytes()) /
                              static_cast<double>(*capacity));
        char energy[32] = "?";
        if (!std::isnan(c.energy_mj))
            std::snprintf(energy, sizeof energy, "%.3f", c.energy_mj);
        std::printf("  %-16s %7d %11.3f %9.3f %10.3f %14s %7s %10s\n", e.key(pe).c_str(), c.kernels,
                    c.compute_ms, c.communication_ms(), c.time_ms(),
                    grouped(c.memory_bytes()).c_str(), share, energy);
    }
    if (!e.transfers.empty()) {
        std::printf("\n  %-48s %-16s %-16s %12s %9s\n", "tensor", "from", "to", "bytes", "ms");
        for (const auto& t : e.transfers)
            std::printf("  %-48s %-16s %-16s %12s %9.3f%s\n",
                        e.model.tensors[static_cast<std::size_t>(t.tensor)].name.c_str(),
                        e.key(t.from_pe).c_str(), e.key(t.to_pe).c_str(), grouped(t.bytes).c_str(),
                        t.ms, e.same_host(t.from_pe, t.to_pe) ? " (same host: memory)" : "");
    }
}

// A decoder's time per token or to the first, and its memory under the workload, host by
// host, and what binds.
void print_decoder(const EvaluatedMapping& e) {
    const auto& w = *e.workload;
    const auto& phase = e.phase;
    if (e.precision->what_if())
        std::printf("\n%s", e.precision->line().c_str());
    if (phase->phase == "prefill")
        std::printf("\ndecoder prefill of %lld tokens: time to first token %.3f ms\n",
                    static_cast<long long>(phase->tokens), e.evaluation.latency_ms);
    else
        std::printf("\ndecoder step: time per output token %.3f ms, %.2f tokens/s with %lld "
                    "batch%s of %lld in flight\n",
                    e.evaluation.latency_ms,
                    partition::pipelined_tokens_per_s(w, e.evaluation.latency_ms,
                                                      e.evaluation.bottleneck_ms),
                    static_cast<long long>(w.sequences), w.sequences == 1 ? "" : "es",
                    static_cast<long long>(w.batch));
    std::printf("decoder memory at a context of %lld tokens (batch %lld, %lld in flight): %s\n",
                static_cast<long long>(w.cached_context()), static_cast<long long>(w.batch),
                static_cast<long long>(w.sequences), e.llm.fits ? "fits" : "DOES NOT FIT");
    print_memory_pools(e.llm, "  ");
}

void print_replay(const EvaluatedMapping& e) {
    const auto& replay = *e.replay;
    char spacing[48] = "back to back";
    if (replay.interval_ms > 0)
        std::snprintf(spacing, sizeof spacing, "every %.3f ms", replay.interval_ms);
    std::printf("\nreplay of %d inputs %s: first latency %.3f ms, mean %.3f ms, throughput "
                "%.2f /s, all done at %.3f ms\n",
                replay.inputs, spacing, replay.first_latency_ms, replay.mean_latency_ms,
                replay.throughput_per_s, replay.makespan_ms);
    std::printf("  %-16s %11s %9s %16s %14s\n", "PE", "busy ms", "busy", "peak-live bytes",
                "memory bytes");
    for (const int pe : e.used) {
        const auto& r = replay.pes[static_cast<std::size_t>(pe)];
        std::printf("  %-16s %11.3f %8.1f%% %16s %14s\n", e.key(pe).c_str(), r.busy_ms,
                    100.0 * r.utilisation,
                    grouped(e.peak_live[static_cast<std::size_t>(pe)]).c_str(),
                    grouped(e.evaluation.pes[static_cast<std::size_t>(pe)].memory_bytes()).c_str());
    }
    for (const auto& l : replay.links)
        std::printf("  link %s-%s: %d transfers, busy %.3f ms (%.1f%%)\n",
                    e.host_name(l.host_a).c_str(), e.host_name(l.host_b).c_str(), l.transfers,
                    l.busy_ms, 100.0 * l.utilisation);
}

int run_evaluate_mapping(const EvaluateMappingOptions& options) {
    options.mapping.check();
    if (options.inputs < 1)
        throw InputError("", "--inputs", "the replay needs at least one input");
    if (!(options.interval_ms >= 0))
        throw InputError("", "--interval-ms", "the interval between inputs must be 0 or more");
    const EvaluatedMapping evaluated = evaluate_mapping(options);
    if (options.json || !options.out.empty()) {
        emit_json(evaluation_json(evaluated, options), options.json, options.out);
        if (options.json)
            return 0;
    }
    print_costs(evaluated);
    if (evaluated.workload)
        print_decoder(evaluated);
    if (evaluated.replay)
        print_replay(evaluated);
    return 0;
}

} // namespace

Action add_evaluate_mapping_command(CLI::App& app) {
    auto options = std::make_shared<EvaluateMappingOptions>();
    auto* command = app.add_subcommand(
        "evaluate-mapping",
        "Per-PE time, memory and energy, throughput and latency of a mapping onto a cluster");
    options->model.add_to(*command, false);
    command
        ->add_option("--cluster", options->cluster, "Cluster file (.cluster.json) or platform.txt")
        ->required();
    options->mapping.add_to(*command);
    command->add_option("--predictor", options->predictor,
                        "Predictor file (cleave train) for the PEs of its device, instead of the "
                        "shipped one or a roofline");
    command->add_option("--rules", options->rules, "Fusion method for the kernels")
        ->capture_default_str();
    command->add_option("--save-mapping", options->save_mapping,
                        "Write the mapping as an AutoDiCE mapping.json (atomically)");
    command->add_flag("--json", options->json, "Print the costs as JSON");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    command->add_flag("--replay", options->replay,
                      "Replay a stream of inputs over the PEs and links (latency and throughput "
                      "with contention) and show each PE's peak-live memory");
    command->add_option("--inputs", options->inputs, "Inputs in the replay")->capture_default_str();
    command
        ->add_option("--interval-ms", options->interval_ms,
                     "Time between inputs in the replay; 0: back to back")
        ->capture_default_str();
    add_workload_options(*command, options->workload, options->workload_given);
    command->add_option("--precision", options->precision,
                        "Cost the matrix weights as fp32, fp16, int8 or int4, a what-if beside the "
                        "precision the model stores (labelled)");
    return [options] { return run_evaluate_mapping(*options); };
}

} // namespace cleave::cli
