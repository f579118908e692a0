// cleave evaluate-mapping: the analytical costs of one mapping of a model onto a cluster (an
// AutoDiCE mapping.json, or split points with a PE per segment): per-PE time, memory and energy,
// throughput, pipeline latency and every tensor that crosses between PEs.
#include "commands.hpp"
#include "core/autodice/mapping_file.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/input_error.hpp"
#include "core/partition/mapping_costs.hpp"
#include "core/partition/pe_latencies.hpp"
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
    std::string mapping;
    std::string points;
    std::string pes;
    std::string rules = "ort-cpu";
    std::string save_mapping;
    bool json = false;
    std::string out;
};

nlohmann::ordered_json number_or_null(double value) {
    return std::isnan(value) ? nlohmann::ordered_json() : nlohmann::ordered_json(value);
}

std::optional<std::int64_t> capacity_bytes(const device::DeviceSpec& device) {
    if (!device.memory || !device.memory->capacity_gib)
        return std::nullopt;
    return static_cast<std::int64_t>(*device.memory->capacity_gib * 1024.0 * 1024.0 * 1024.0);
}

int run_evaluate_mapping(const EvaluateMappingOptions& options) {
    if (options.mapping.empty() == options.pes.empty())
        throw InputError("", "--mapping",
                         "give either --mapping FILE (an AutoDiCE mapping.json) or --pes with "
                         "--points (split points, one PE per segment)");
    if (!options.points.empty() && options.pes.empty())
        throw InputError("", "--points", "split points need --pes, one PE key per segment");
    const auto cluster = device::load_cluster(options.cluster);
    const auto model = options.model.load();
    const auto method = fusion::find_fusion_method(options.rules);
    const auto kernels = fusion::detect_kernels(model, method);
    const int kernel_count = static_cast<int>(kernels.kernels.size());

    std::optional<partition::Mapping> mapping;
    partition::KernelAssignment assignment;
    if (!options.mapping.empty()) {
        const auto pe_of_node = autodice::read_mapping_file(options.mapping, model, cluster);
        assignment =
            autodice::kernel_assignment(pe_of_node, model, kernels, cluster, options.mapping);
    } else {
        mapping = partition::parse_mapping(options.points, options.pes, cluster, kernel_count);
        assignment = partition::assignment_of(*mapping, kernel_count);
    }
    if (!options.save_mapping.empty())
        autodice::save_mapping_file(model, kernels, assignment, cluster, options.save_mapping);

    // PEs in the order their first kernel runs.
    std::vector<int> used;
    for (const int pe : assignment.pe_of_kernel)
        if (std::find(used.begin(), used.end(), pe) == used.end())
            used.push_back(pe);
    const auto latencies =
        partition::pe_kernel_latencies_ms(model, kernels, cluster, options.rules, used);
    const partition::MappingCosts costs(model, kernels, cluster, latencies);
    const auto evaluation = mapping ? costs.evaluate(*mapping) : costs.evaluate(assignment);

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

    if (options.json || !options.out.empty()) {
        auto pe_list = nlohmann::ordered_json::array();
        for (const int pe : used) {
            const auto& c = evaluation.pes[static_cast<std::size_t>(pe)];
            const auto& power = costs.power(pe);
            const auto capacity = capacity_bytes(device_of(pe));
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
            transfer_list.push_back({{"tensor", model.tensors[static_cast<std::size_t>(t.tensor)].name},
                                     {"from", key(t.from_pe)},
                                     {"to", key(t.to_pe)},
                                     {"bytes", t.bytes},
                                     {"ms", t.ms},
                                     {"link", link}});
        }
        nlohmann::ordered_json document{{"model", model.file},
                                        {"cluster", cluster.file},
                                        {"rules", method.name},
                                        {"kernels", kernel_count},
                                        {"mapping", options.mapping.empty() ? nlohmann::ordered_json()
                                                                            : nlohmann::ordered_json(options.mapping)}};
        if (mapping)
            document["points"] = mapping->points;
        document["pes"] = pe_list;
        document["bottleneck_pe"] = key(bottleneck);
        document["bottleneck_ms"] = evaluation.bottleneck_ms;
        document["throughput_per_s"] = evaluation.throughput_per_s;
        document["latency_ms"] = evaluation.latency_ms;
        document["transfers"] = transfer_list;
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
        const auto capacity = capacity_bytes(device_of(pe));
        char share[32] = "?";
        if (capacity)
            std::snprintf(share, sizeof share, "%.1f%%",
                          100.0 * static_cast<double>(c.memory_bytes()) / static_cast<double>(*capacity));
        char energy[32] = "?";
        if (!std::isnan(c.energy_mj))
            std::snprintf(energy, sizeof energy, "%.3f", c.energy_mj);
        std::printf("  %-16s %7d %11.3f %9.3f %10.3f %14s %7s %10s\n", key(pe).c_str(),
                    c.kernels, c.compute_ms, c.communication_ms(), c.time_ms(),
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
    return 0;
}

} // namespace

Action add_evaluate_mapping_command(CLI::App& app) {
    auto options = std::make_shared<EvaluateMappingOptions>();
    auto* command = app.add_subcommand(
        "evaluate-mapping",
        "Per-PE time, memory and energy, throughput and latency of a mapping onto a cluster");
    options->model.add_to(*command, false);
    command->add_option("--cluster", options->cluster, "Cluster file (.cluster.json) or platform.txt")
        ->required();
    command->add_option("--mapping", options->mapping, "AutoDiCE mapping.json");
    command->add_option("--points", options->points,
                        "Split points: kernels before each cut, e.g. 12,40");
    command->add_option("--pes", options->pes,
                        "PE key per segment, e.g. nx01_gpu,nx02_gpu,nx03_gpu");
    command->add_option("--rules", options->rules, "Fusion method for the kernels")
        ->capture_default_str();
    command->add_option("--save-mapping", options->save_mapping,
                        "Write the mapping as an AutoDiCE mapping.json (atomically)");
    command->add_flag("--json", options->json, "Print the costs as JSON");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    return [options] { return run_evaluate_mapping(*options); };
}

} // namespace cleave::cli
