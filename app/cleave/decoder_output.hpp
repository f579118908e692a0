// How the commands that cost a language-model decoder take its workload and show it and its
// memory per pool (evaluate-mapping, dse --exact): options, JSON and a table for people.
#pragma once

#include "core/device/cluster.hpp"
#include "core/partition/llm_memory.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <vector>

namespace cleave::cli {

// --context, --sequences, --prompt-tokens and --generate into `workload`; `given` is set when
// any of them is.
void add_workload_options(CLI::App& command, partition::LlmWorkload& workload, bool& given);

nlohmann::ordered_json workload_json(const partition::LlmWorkload& workload);
// Per PE in `pes` (cluster indices) and per pool, with whether it fits and what binds.
nlohmann::ordered_json llm_memory_json(const partition::LlmMemory& memory,
                                       const device::Cluster& cluster, const std::vector<int>& pes);
// A row per pool (weights, KV cache, activations, usable, longest context, fits), then the pool
// that binds; each line starts with `indent`.
void print_memory_pools(const partition::LlmMemory& memory, const char* indent);

} // namespace cleave::cli
