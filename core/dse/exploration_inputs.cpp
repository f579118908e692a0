#include "exploration_inputs.hpp"

#include "core/fusion/fusion_method.hpp"
#include "core/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cleave::dse {

SearchSpaceChoice choose_search_space(const device::Cluster& cluster, std::vector<int> pes,
                                      const std::vector<std::vector<double>>& kernel_ms,
                                      const partition::MappingCosts* costs,
                                      bool latency_objective, int max_pes) {
    SearchSpaceChoice choice;
    const auto total_ms = [&](int pe) {
        const auto& row = kernel_ms[static_cast<std::size_t>(pe)];
        return std::accumulate(row.begin(), row.end(), 0.0);
    };
    std::stable_sort(pes.begin(), pes.end(),
                     [&](int a, int b) { return total_ms(a) < total_ms(b); });
    if (max_pes > 0 && max_pes < static_cast<int>(pes.size())) {
        choice.notes.push_back("searching the " + std::to_string(max_pes) + " fastest of " +
                               std::to_string(pes.size()) + " PEs (--max-pes)");
        pes.resize(static_cast<std::size_t>(max_pes));
    }
    choice.pes = std::move(pes);
    choice.objectives.latency = latency_objective;
    if (costs)
        for (const int pe : choice.pes) {
            const auto& power = costs->power(pe);
            if (std::isnan(power.busy_w) || std::isnan(power.communication_w)) {
                choice.objectives.energy = false;
                choice.notes.push_back("energy is no objective: " +
                                       cluster.pes[static_cast<std::size_t>(pe)].key +
                                       " has no power figure");
                break;
            }
        }
    for (const auto& host : cluster.hosts) {
        choice.capacities.push_back(device::capacity_bytes(host.device));
        if (!choice.capacities.back())
            choice.notes.push_back("host " + host.host + " (" + host.device.id +
                                   ") gives no memory capacity: its memory is not constrained");
    }
    return choice;
}

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
    if (!inputs->searchable.pes.empty())
        inputs->costs = std::make_unique<partition::MappingCosts>(
            inputs->model, inputs->kernels, inputs->cluster, inputs->searchable.kernel_ms);
    auto choice = choose_search_space(inputs->cluster, inputs->searchable.pes,
                                      inputs->searchable.kernel_ms, inputs->costs.get(),
                                      options.latency_objective, options.max_pes);
    inputs->notes.insert(inputs->notes.end(), choice.notes.begin(), choice.notes.end());
    if (choice.pes.size() < 2) {
        std::string why;
        for (const auto& note : inputs->notes)
            why += "; " + note;
        throw InputError(inputs->cluster.file, "--cluster",
                         "a search needs at least 2 PEs with kernel latencies, found " +
                             std::to_string(choice.pes.size()) + why);
    }
    inputs->searchable.pes = choice.pes;
    inputs->space = std::make_unique<MappingSpace>(*inputs->costs, std::move(choice.pes),
                                                   std::move(choice.capacities), choice.objectives,
                                                   options.replay_inputs);
    return inputs;
}

} // namespace cleave::dse
