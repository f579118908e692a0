// Everything a search over one model and cluster needs, built once: the kernels, each
// searchable PE's latencies, MappingCosts and the MappingSpace, with notes on what was left out
// (PEs without latencies, energy without power figures, hosts without a memory capacity).
#pragma once

#include "mapping_space.hpp"

#include <memory>
#include <string>
#include <vector>

namespace cleave::dse {

struct ExplorationOptions {
    std::string rules = "ort-cpu";
    std::string predictor_file; // empty: shipped predictors, else rooflines
    bool latency_objective = false;
    int max_pes = 0;            // 0: every PE with latencies; else the fastest max_pes
    int replay_inputs = 16;
};

// What a search runs over, chosen from the PEs with latencies: those PEs fastest first (the
// model's summed kernel latency; stable), so stage k maps onto the 2^k fastest, at most `max_pes`
// of them (0: all); energy an objective only when every one of them has power figures (`costs`;
// none: left as it is); one memory capacity per cluster host. The notes say what was left out.
struct SearchSpaceChoice {
    std::vector<int> pes;
    ObjectiveSet objectives;
    std::vector<std::optional<std::int64_t>> capacities; // per cluster host
    std::vector<std::string> notes;
};
SearchSpaceChoice choose_search_space(const device::Cluster& cluster, std::vector<int> pes,
                                      const std::vector<std::vector<double>>& kernel_ms,
                                      const partition::MappingCosts* costs,
                                      bool latency_objective, int max_pes = 0);

struct ExplorationInputs {
    graph::Model model;
    fusion::KernelGraph kernels;
    device::Cluster cluster;
    SearchablePes searchable;
    std::unique_ptr<partition::MappingCosts> costs;
    std::unique_ptr<MappingSpace> space;
    std::vector<std::string> notes;
};

// The PEs with latencies predicted, then the space choose_search_space picks. Throws InputError
// for a bad --rules, --predictor or --max-pes, and where fewer than 2 PEs are left.
std::unique_ptr<ExplorationInputs> prepare_exploration(graph::Model model, device::Cluster cluster,
                                                       const ExplorationOptions& options);

} // namespace cleave::dse
