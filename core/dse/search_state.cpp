#include "search_state.hpp"

#include "core/input_error.hpp"
#include "core/json_reader.hpp"
#include "front_output.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cleave::dse {

nlohmann::ordered_json search_state_json(const SearchState& state, const device::Cluster* cluster) {
    const auto& s = state.settings;
    nlohmann::ordered_json json{
        {"version", 1},
        {"settings",
         {{"encoding", s.encoding == Encoding::naive ? "naive" : "spe"},
          {"population", s.population},
          {"generations", s.generations},
          {"stages", s.stages},
          {"levels", s.levels},
          {"seed", s.seed},
          {"latency", state.latency}}},
        {"view", state.view.is_null() ? nlohmann::json::object() : state.view},
        {"result", nullptr}};
    if (!state.result || !cluster)
        return json;
    const auto& r = *state.result;
    const auto names = objective_names(r.objectives);
    const auto list = [&](const std::vector<Solution>& solutions) {
        auto array = nlohmann::ordered_json::array();
        for (const auto& solution : solutions) {
            auto entry = solution_json(solution, names, *cluster);
            entry["generation"] = solution.generation;
            entry["feasible"] = solution.feasible;
            array.push_back(std::move(entry));
        }
        return array;
    };
    json["result"] = nlohmann::ordered_json{{"kernels", r.kernels},
                                            {"cluster", r.cluster},
                                            {"objectives", names},
                                            {"evaluations", r.evaluations},
                                            {"budget", r.budget},
                                            {"cancelled", r.cancelled},
                                            {"front", list(r.front)},
                                            {"evaluated", list(r.evaluated)},
                                            {"hypervolume", history_json(r.history)}};
    if (!r.exact.empty())
        json["result"]["exact"] = list(r.exact);
    return json;
}

SearchState parse_search_state(const nlohmann::json& json, const SearchStateTarget* target,
                               const std::string& place) {
    SearchState state;
    const JsonReader reader(place);
    constexpr int most = std::numeric_limits<int>::max();
    reader.expect_object(json, "", "a DSE state");
    if (reader.whole_number(json, "", "version", false, 0, most) != 1)
        reader.fail("/version", "expected 1");
    reader.only_known(json, "", {"version", "settings", "view", "result"});
    const auto& settings = *reader.object(json, "", "settings", true, "the search's settings");
    reader.only_known(
        settings, "/settings",
        {"encoding", "population", "generations", "stages", "levels", "seed", "latency"});
    const auto encoding = reader.string(settings, "/settings", "encoding", true, "spe or naive");
    if (encoding != "spe" && encoding != "naive")
        reader.fail("/settings/encoding", "expected spe or naive");
    state.settings.encoding = encoding == "naive" ? Encoding::naive : Encoding::spe;
    state.settings.population = reader.whole_number(settings, "/settings", "population", true, 1, most).value();
    state.settings.generations = reader.whole_number(settings, "/settings", "generations", true, 0, most).value();
    state.settings.stages = reader.whole_number(settings, "/settings", "stages", true, 0, most).value();
    state.settings.levels = reader.whole_number(settings, "/settings", "levels", true, 1, 2).value();
    const double seed = reader.number(settings, "/settings", "seed", true, "", true).value();
    if (seed > std::numeric_limits<unsigned>::max() || seed != std::floor(seed))
        reader.fail("/settings/seed", "expected a whole number from 0 to " +
                                          std::to_string(std::numeric_limits<unsigned>::max()));
    state.settings.seed = static_cast<unsigned>(seed);
    state.latency = reader.boolean(settings, "/settings", "latency", true).value();
    state.view = *reader.object(json, "", "view", true, "an object");

    const auto* result = reader.member(json, "", "result", true, "the search's result or null");
    if (result->is_null())
        return state;
    reader.expect_object(*result, "/result", "the search's result or null");
    reader.only_known(*result, "/result",
                      {"kernels", "cluster", "objectives", "evaluations", "budget", "cancelled",
                       "front", "evaluated", "hypervolume", "exact"});
    if (!target || !target->cluster)
        reader.fail("", "expected a model and cluster open");
    const auto& cluster = *target->cluster;
    SearchStateResult r;
    std::vector<std::string> names;
    const auto* objectives = reader.array(*result, "/result", "objectives", true, "objective names");
    for (std::size_t i = 0; i < objectives->size(); ++i)
        names.push_back(reader.string_at((*objectives)[i], child_pointer("/result/objectives", i),
                                         "an objective name"));
    r.kernels = reader.whole_number(*result, "/result", "kernels", true, 1, most).value();
    if (r.kernels != target->kernels)
        reader.fail("/result/kernels", "the front was searched over " + std::to_string(r.kernels) +
                                           " kernels; the model has " +
                                           std::to_string(target->kernels));
    r.objectives.energy = std::find(names.begin(), names.end(), "max_energy_mj") != names.end();
    r.objectives.latency = std::find(names.begin(), names.end(), "latency_ms") != names.end();
    r.objectives.memory = std::find(names.begin(), names.end(), "max_memory_bytes") != names.end();
    if (objective_names(r.objectives) != names)
        reader.fail("/result/objectives", "expected objectives cleave dse names");
    const auto read = [&](const char* key, bool required) {
        std::vector<Solution> solutions;
        const std::string at = std::string("/result/") + key;
        const auto* found = reader.array(*result, "/result", key, required, "solutions");
        if (!found)
            return solutions;
        const auto& array = *found;
        for (std::size_t i = 0; i < array.size(); ++i) {
            const std::string here = child_pointer(at, i);
            solutions.push_back(solution_from_json(array[i], names, cluster, place, here));
            for (const int pe : solutions.back().mapping.pes)
                if (target->has_latencies && !target->has_latencies(pe))
                    reader.fail(here, cluster.pes[static_cast<std::size_t>(pe)].key +
                                          " has no latencies");
            for (const int p : solutions.back().mapping.points)
                if (p <= 0 || p >= target->kernels)
                    reader.fail(here, "expected split points inside the kernels");
        }
        return solutions;
    };
    r.front = read("front", true);
    r.evaluated = read("evaluated", true);
    r.exact = read("exact", false);
    r.history = history_from_json(*reader.member(*result, "/result", "hypervolume", true,
                                                 "hypervolume steps"),
                                  place, "/result/hypervolume");
    if (const auto* file = reader.member(*result, "/result", "cluster", false, "a cluster file"))
        r.cluster = reader.string_at(*file, "/result/cluster", "a cluster file", true);
    r.evaluations = reader.whole_number(*result, "/result", "evaluations", true, 0, most).value();
    r.budget = reader.whole_number(*result, "/result", "budget", true, 0, most).value();
    r.cancelled = reader.boolean(*result, "/result", "cancelled", true).value();
    state.result = std::move(r);
    return state;
}

} // namespace cleave::dse
