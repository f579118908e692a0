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

struct ExplorationInputs {
    graph::Model model;
    fusion::KernelGraph kernels;
    device::Cluster cluster;
    SearchablePes searchable;
    std::unique_ptr<partition::MappingCosts> costs;
    std::unique_ptr<MappingSpace> space;
    std::vector<std::string> notes;
};

// Searchable PEs are ordered fastest first (the model's summed kernel latency; stable), so stage
// k maps onto the 2^k fastest. Energy is an objective only when every searchable PE has power
// figures. Throws InputError for a bad --rules, --predictor or --max-pes.
std::unique_ptr<ExplorationInputs> prepare_exploration(graph::Model model, device::Cluster cluster,
                                                       const ExplorationOptions& options);

// The objectives' names in order, for output: bottleneck_ms, max_memory_bytes, max_energy_mj,
// latency_ms (those selected).
std::vector<std::string> objective_names(const ObjectiveSet& objectives);

} // namespace cleave::dse
