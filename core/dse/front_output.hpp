// A search's front written out and read back: the JSON of `cleave dse --json` (its "front" and
// "hypervolume" arrays, one writer for the CLI and the studio) and a CSV with one row per
// solution, so one parser reads the CLI's output and the studio's exports.
#pragma once

#include "core/device/cluster.hpp"
#include "nsga2_search.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cleave::dse {

// {"points", "pes" (PE keys), "throughput_per_s", one key per objective name, "normalised",
// "stage", "level"}, as `cleave dse` writes each front entry; `names`: objective_names().
nlohmann::ordered_json solution_json(const Solution& solution,
                                     const std::vector<std::string>& names,
                                     const device::Cluster& cluster);
nlohmann::ordered_json front_json(const std::vector<Solution>& front,
                                  const std::vector<std::string>& names,
                                  const device::Cluster& cluster);
// [{"stage", "level", "generation", "evaluations", "hypervolume"}, ...]
nlohmann::ordered_json history_json(const std::vector<HypervolumeStep>& history);

// Reads what solution_json wrote (extra keys "generation" and "feasible" when present). PE keys
// must be PEs of `cluster`. Throws InputError naming `file` and the JSON pointer `place`.
Solution solution_from_json(const nlohmann::json& json, const std::vector<std::string>& names,
                            const device::Cluster& cluster, const std::string& file,
                            const std::string& place);
std::vector<HypervolumeStep> history_from_json(const nlohmann::json& json, const std::string& file,
                                               const std::string& place);

// A header, then one row per solution: throughput_per_s, the objectives by name, stage, level,
// generation, feasible (1/0), points and pes (quoted, comma-separated; points empty for one PE).
std::string front_csv(const std::vector<Solution>& front, const std::vector<std::string>& names,
                      const device::Cluster& cluster);

} // namespace cleave::dse
