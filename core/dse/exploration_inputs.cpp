#include "exploration_inputs.hpp"

#include "core/fusion/fusion_method.hpp"
#include "core/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cleave::dse {

std::unique_ptr<ExplorationInputs> prepare_exploration(graph::Model model, device::Cluster cluster,
                                                       const ExplorationOptions& options) {
    if (options.max_pes < 0)
        throw InputError("", "--max-pes", "0 (every PE) or more");
    auto inputs = std::make_unique<ExplorationInputs>();
    inputs->model = std::move(model);
    inputs->cluster = std::move(cluster);
    inputs->kernels =
        fusion::detect_kernels(inputs->model, fusion::find_fusion_method(options.rules));
    inputs->searchable = predict_searchable_pes(inputs->model, inputs->kernels, inputs->cluster,
                                                options.rules, options.predictor_file);
    inputs->notes = inputs->searchable.notes;
    auto& pes = inputs->searchable.pes;
    const auto total_ms = [&](int pe) {
        const auto& row = inputs->searchable.kernel_ms[static_cast<std::size_t>(pe)];
        return std::accumulate(row.begin(), row.end(), 0.0);
    };
    std::stable_sort(pes.begin(), pes.end(),
                     [&](int a, int b) { return total_ms(a) < total_ms(b); });
    if (options.max_pes > 0 && options.max_pes < static_cast<int>(pes.size())) {
        inputs->notes.push_back("searching the " + std::to_string(options.max_pes) + " fastest of " +
                                std::to_string(pes.size()) + " PEs (--max-pes)");
        pes.resize(static_cast<std::size_t>(options.max_pes));
    }
    if (pes.size() < 2) {
        std::string why;
        for (const auto& note : inputs->notes)
            why += "; " + note;
        throw InputError(inputs->cluster.file, "--cluster",
                         "a search needs at least 2 PEs with kernel latencies, found " +
                             std::to_string(pes.size()) + why);
    }
    inputs->costs = std::make_unique<partition::MappingCosts>(
        inputs->model, inputs->kernels, inputs->cluster, inputs->searchable.kernel_ms);

    ObjectiveSet objectives;
    objectives.latency = options.latency_objective;
    for (const int pe : pes) {
        const auto& power = inputs->costs->power(pe);
        if (std::isnan(power.busy_w) || std::isnan(power.communication_w)) {
            objectives.energy = false;
            inputs->notes.push_back("energy is no objective: " +
                                    inputs->cluster.pes[static_cast<std::size_t>(pe)].key +
                                    " has no power figure");
            break;
        }
    }
    std::vector<std::optional<std::int64_t>> capacities;
    for (const auto& host : inputs->cluster.hosts) {
        capacities.push_back(capacity_bytes(host.device));
        if (!capacities.back())
            inputs->notes.push_back("host " + host.host + " (" + host.device.id +
                                    ") gives no memory capacity: its memory is not constrained");
    }
    inputs->space = std::make_unique<MappingSpace>(*inputs->costs, pes, std::move(capacities),
                                                   objectives, options.replay_inputs);
    return inputs;
}

std::vector<std::string> objective_names(const ObjectiveSet& objectives) {
    std::vector<std::string> names{"bottleneck_ms", "max_memory_bytes"};
    if (objectives.energy)
        names.push_back("max_energy_mj");
    if (objectives.latency)
        names.push_back("latency_ms");
    return names;
}

} // namespace cleave::dse
