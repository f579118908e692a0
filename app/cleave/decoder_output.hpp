// How the commands that cost a language-model decoder take its workload and show it and its
// memory per pool (evaluate-mapping, dse --exact): options, JSON and a table for people.
#pragma once

#include "core/device/cluster.hpp"
#include "core/graph/weight_precision.hpp"
#include "core/partition/llm_memory.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <vector>

namespace cleave::cli {

// --context, --sequences, --prompt-tokens and --generate into `workload`; `given` is set when
// any of them is.
void add_workload_options(CLI::App& command, partition::LlmWorkload& workload, bool& given);

// A decoder's weights as stored and as costed (--precision: a what-if where they differ).
struct PrecisionChoice {
    std::optional<graph::WeightPrecision> stored;
    std::optional<graph::WeightPrecision> costed;

    // `text` empty: as stored; else parsed (InputError at --precision).
    explicit PrecisionChoice(const std::string& text);
    bool what_if() const { return costed && costed != stored; }
    // Reads the model's stored precision and, for a what-if, re-types its weights.
    void apply(graph::Model& model);
    nlohmann::ordered_json json() const; // {"stored", "costed", "what_if"}
    // "weights costed as int4: a what-if, the model stores fp16"; empty without a what-if.
    std::string line() const;
};

nlohmann::ordered_json workload_json(const partition::LlmWorkload& workload);
// Per PE in `pes` (cluster indices) and per pool, with whether it fits and what binds.
nlohmann::ordered_json llm_memory_json(const partition::LlmMemory& memory,
                                       const device::Cluster& cluster, const std::vector<int>& pes);
// A row per pool (weights, KV cache, activations, usable, longest context, fits), then the pool
// that binds; each line starts with `indent`.
void print_memory_pools(const partition::LlmMemory& memory, const char* indent);

} // namespace cleave::cli
