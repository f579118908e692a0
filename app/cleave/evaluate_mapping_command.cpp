// cleave evaluate-mapping: the analytical costs of one mapping of a model onto a cluster (an
// AutoDiCE mapping.json, or split points with a PE per segment): per-PE time, memory and energy,
// throughput, pipeline latency and every tensor that crosses between PEs.
#include "commands.hpp"
#include "core/autodice/mapping_file.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/input_error.hpp"
#include "core/partition/mapping_costs.hpp"
#include "core/partition/pe_latencies.hpp"
#include "core/partition/replay.hpp"
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
};

nlohmann::ordered_json number_or_null(double value) {
    return std::isnan(value) ? nlohmann::ordered_json() : nlohmann::ordered_json(value);
}

int run_evaluate_mapping(const EvaluateMappingOptions& options) {
    options.mapping.check();
    if (options.inputs < 1)
        throw InputError("", "--inputs", "the replay needs at least one input");
    if (!(options.interval_ms >= 0))
        throw InputError("", "--interval-ms", "the interval between inputs must be 0 or more");
    const auto cluster = device::load_cluster(options.cluster);
    const auto model = options.model.load();
    const auto method = fusion::find_fusion_method(options.rules);
    std::optional<predict::Predictor> given;
    if (!options.predictor.empty())
        given = partition::load_cluster_predictor(options.predictor, cluster);
    const auto chosen =
        options.mapping.resolve(model, fusion::detect_kernels(model, method), method, cluster);
    const auto& kernels = chosen.kernels;
    const int kernel_count = static_cast<int>(kernels.kernels.size());
    const auto& mapping = chosen.split;
    const auto& assignment = chosen.assignment;
    if (!options.save_mapping.empty())
        autodice::save_mapping_file(model, kernels, assignment, cluster, options.save_mapping);

    // PEs in the order their first kernel runs.
    std::vector<int> used;
    for (const int pe : assignment.pe_of_kernel)
        if (std::find(used.begin(), used.end(), pe) == used.end())
            used.push_back(pe);
    const auto latencies = partition::pe_kernel_latencies_ms(model, kernels, cluster, options.rules,
                                                             used, given ? &*given : nullptr);
    const partition::MappingCosts costs(model, kernels, cluster, latencies);
    const auto evaluation = mapping ? costs.evaluate(*mapping) : costs.evaluate(assignment);
    std::optional<partition::Replay> replay;
    std::vector<std::int64_t> peak_live;
    if (options.replay) {
        replay = partition::replay(costs, assignment, {options.inputs, options.interval_ms});
        peak_live = partition::peak_live_bytes(costs, assignment);
    }

    auto transfers = evaluation.transfers;
    std::sort(transfers.begin(), transfers.end(), [](const auto& a, const auto& b) {
        return std::tie(a.tensor, a.to_pe) < std::tie(b.tensor, b.to_pe);
    });
    int bottleneck = used.front();
    for (const int pe : used)
        if (evaluation.pes[static_cast<std::size_t>(pe)].time_ms() >
            evaluation.pes[static_cast<std::size_t>(bottleneck)].time_ms())
            bottleneck = pe;
    const auto key = [&](int pe) { return cluster.pes[static_cast<std::size_t>(pe)].key; };
    const auto device_of = [&](int pe) -> const device::DeviceSpec& {
        return cluster.hosts[cluster.pes[static_cast<std::size_t>(pe)].host_index].device;
    };
    const auto same_host = [&](int a, int b) {
        return cluster.pes[static_cast<std::size_t>(a)].host ==
               cluster.pes[static_cast<std::size_t>(b)].host;
    };
    const auto host_name = [&](int host) {
        return cluster.hosts[static_cast<std::size_t>(host)].host;
    };

    if (options.json || !options.out.empty()) {
        auto pe_list = nlohmann::ordered_json::array();
        for (const int pe : used) {
            const auto& c = evaluation.pes[static_cast<std::size_t>(pe)];
            const auto& power = costs.power(pe);
            const auto capacity = device::capacity_bytes(device_of(pe));
            pe_list.push_back(
                {{"pe", key(pe)},
                 {"device", device_of(pe).id},
                 {"processing_element", cluster.pes[static_cast<std::size_t>(pe)].spec.name},
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
                 {"memory_share", capacity ? nlohmann::ordered_json(
                                                 static_cast<double>(c.memory_bytes()) / *capacity)
                                           : nlohmann::ordered_json()},
                 {"busy_power_w", number_or_null(power.busy_w)},
                 {"communication_power_w", number_or_null(power.communication_w)},
                 {"energy_mj", number_or_null(c.energy_mj)}});
            if (replay)
                pe_list.back()["peak_live_bytes"] = peak_live[static_cast<std::size_t>(pe)];
        }
        auto transfer_list = nlohmann::ordered_json::array();
        for (const auto& t : transfers) {
            nlohmann::ordered_json link;
            if (!same_host(t.from_pe, t.to_pe)) {
                const auto l = cluster.link(cluster.pes[static_cast<std::size_t>(t.from_pe)].host,
                                            cluster.pes[static_cast<std::size_t>(t.to_pe)].host);
                link = {{"bandwidth_gbps", l.bandwidth_gbps}, {"latency_us", l.latency_us}};
            } else {
                link = "memory";
            }
            transfer_list.push_back(
                {{"tensor", model.tensors[static_cast<std::size_t>(t.tensor)].name},
                 {"from", key(t.from_pe)},
                 {"to", key(t.to_pe)},
                 {"bytes", t.bytes},
                 {"ms", t.ms},
                 {"link", link}});
        }
        nlohmann::ordered_json document{
            {"model", model.file},
            {"cluster", cluster.file},
            {"rules", method.name},
            {"kernels", kernel_count},
            {"cut_kernels", chosen.cut_kernels},
            {"mapping", options.mapping.mapping.empty()
                            ? nlohmann::ordered_json()
                            : nlohmann::ordered_json(options.mapping.mapping)}};
        if (mapping)
            document["points"] = mapping->points;
        document["pes"] = pe_list;
        document["bottleneck_pe"] = key(bottleneck);
        document["bottleneck_ms"] = evaluation.bottleneck_ms;
        document["throughput_per_s"] = evaluation.throughput_per_s;
        document["latency_ms"] = evaluation.latency_ms;
        document["transfers"] = transfer_list;
        if (replay) {
            auto replay_pes = nlohmann::ordered_json::array();
            for (const int pe : used) {
                const auto& r = replay->pes[static_cast<std::size_t>(pe)];
                replay_pes.push_back({{"pe", key(pe)},
                                      {"compute_ms", r.compute_ms},
                                      {"busy_ms", r.busy_ms},
                                      {"utilisation", r.utilisation}});
            }
            auto replay_links = nlohmann::ordered_json::array();
            for (const auto& l : replay->links)
                replay_links.push_back({{"hosts", {host_name(l.host_a), host_name(l.host_b)}},
                                        {"transfers", l.transfers},
                                        {"busy_ms", l.busy_ms},
                                        {"utilisation", l.utilisation}});
            document["replay"] = {{"inputs", replay->inputs},
                                  {"interval_ms", replay->interval_ms},
                                  {"first_latency_ms", replay->first_latency_ms},
                                  {"mean_latency_ms", replay->mean_latency_ms},
                                  {"throughput_per_s", replay->throughput_per_s},
                                  {"makespan_ms", replay->makespan_ms},
                                  {"latency_ms", replay->latency_ms},
                                  {"pes", replay_pes},
                                  {"links", replay_links}};
        }
        emit_json(document, options.json, options.out);
        if (options.json)
            return 0;
    }

    std::printf("%s on %s, %d kernels by %s, %zu PEs\n", model.file.c_str(), cluster.file.c_str(),
                kernel_count, method.name.c_str(), used.size());
    std::printf("throughput %.2f /s (bottleneck %s, %.3f ms), pipeline latency %.3f ms, %zu "
                "transfers\n\n",
                evaluation.throughput_per_s, key(bottleneck).c_str(), evaluation.bottleneck_ms,
                evaluation.latency_ms, transfers.size());
    std::printf("  %-16s %7s %11s %9s %10s %14s %7s %10s\n", "PE", "kernels", "compute ms",
                "comm ms", "time ms", "memory bytes", "of cap", "energy mJ");
    for (const int pe : used) {
        const auto& c = evaluation.pes[static_cast<std::size_t>(pe)];
        const auto capacity = device::capacity_bytes(device_of(pe));
        char share[32] = "?";
        if (capacity)
            std::snprintf(share, sizeof share, "%.1f%%",
                          100.0 * static_cast<double>(c.memory_bytes()) /
                              static_cast<double>(*capacity));
        char energy[32] = "?";
        if (!std::isnan(c.energy_mj))
            std::snprintf(energy, sizeof energy, "%.3f", c.energy_mj);
        std::printf("  %-16s %7d %11.3f %9.3f %10.3f %14s %7s %10s\n", key(pe).c_str(), c.kernels,
                    c.compute_ms, c.communication_ms(), c.time_ms(),
                    grouped(c.memory_bytes()).c_str(), share, energy);
    }
    if (!transfers.empty()) {
        std::printf("\n  %-48s %-16s %-16s %12s %9s\n", "tensor", "from", "to", "bytes", "ms");
        for (const auto& t : transfers)
            std::printf("  %-48s %-16s %-16s %12s %9.3f%s\n",
                        model.tensors[static_cast<std::size_t>(t.tensor)].name.c_str(),
                        key(t.from_pe).c_str(), key(t.to_pe).c_str(), grouped(t.bytes).c_str(),
                        t.ms, same_host(t.from_pe, t.to_pe) ? " (same host: memory)" : "");
    }
    if (replay) {
        char spacing[48] = "back to back";
        if (replay->interval_ms > 0)
            std::snprintf(spacing, sizeof spacing, "every %.3f ms", replay->interval_ms);
        std::printf("\nreplay of %d inputs %s: first latency %.3f ms, mean %.3f ms, throughput "
                    "%.2f /s, all done at %.3f ms\n",
                    replay->inputs, spacing, replay->first_latency_ms, replay->mean_latency_ms,
                    replay->throughput_per_s, replay->makespan_ms);
        std::printf("  %-16s %11s %9s %16s %14s\n", "PE", "busy ms", "busy", "peak-live bytes",
                    "memory bytes");
        for (const int pe : used) {
            const auto& r = replay->pes[static_cast<std::size_t>(pe)];
            std::printf(
                "  %-16s %11.3f %8.1f%% %16s %14s\n", key(pe).c_str(), r.busy_ms,
                100.0 * r.utilisation, grouped(peak_live[static_cast<std::size_t>(pe)]).c_str(),
                grouped(evaluation.pes[static_cast<std::size_t>(pe)].memory_bytes()).c_str());
        }
        for (const auto& l : replay->links)
            std::printf("  link %s-%s: %d transfers, busy %.3f ms (%.1f%%)\n",
                        host_name(l.host_a).c_str(), host_name(l.host_b).c_str(), l.transfers,
                        l.busy_ms, 100.0 * l.utilisation);
    }
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
    return [options] { return run_evaluate_mapping(*options); };
}

} // namespace cleave::cli
