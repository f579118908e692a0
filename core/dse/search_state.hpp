// A search saved and restored: the "dse" member of a studio project (version 1, docs/studio.md):
// the settings, the front end's chart choices (kept as given) and, after a search, its result
// over a model's kernels and a cluster: the front, every point evaluated, the hypervolume
// history, how many evaluations of what budget, whether it was cancelled, and a decoder's exact
// optima.
#pragma once

#include "core/device/cluster.hpp"
#include "nsga2_search.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cleave::dse {

struct SearchStateResult {
    int kernels = 0;     // the kernels the mappings split
    std::string cluster; // its file, for the reader
    ObjectiveSet objectives;
    std::int64_t evaluations = 0;
    std::int64_t budget = 0;
    bool cancelled = false;
    std::vector<Solution> front;
    std::vector<Solution> evaluated;
    std::vector<HypervolumeStep> history;
    // A decoder's exact optima beside the front (docs/partition.md, "Exact layer plans"); empty
    // for other searches, and then not written.
    std::vector<Solution> exact;
};

struct SearchState {
    // encoding, population, generations, stages, levels and seed are saved; the rest of
    // SearchSettings is the defaults'.
    SearchSettings settings;
    bool latency = false;      // latency searched as an objective
    nlohmann::json view;       // the front end's own choices (an object)
    std::optional<SearchStateResult> result;
};

// `cluster`: the one the result's mappings name PEs of (needed only with a result).
nlohmann::ordered_json search_state_json(const SearchState& state, const device::Cluster* cluster);

// What the result's mappings must fit: the cluster, the kernel count, and which PEs have
// latencies (a mapping onto one without them cannot be shown).
struct SearchStateTarget {
    const device::Cluster* cluster = nullptr;
    int kernels = 0;
    std::function<bool(int pe)> has_latencies;
};

// Reads what search_state_json wrote. A result needs a target (InputError "a model and cluster
// open" without one). Throws InputError naming `place` and the JSON pointer of the problem.
SearchState parse_search_state(const nlohmann::json& json, const SearchStateTarget* target,
                               const std::string& place);

} // namespace cleave::dse
