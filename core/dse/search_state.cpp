#include "search_state.hpp"

#include "core/input_error.hpp"
#include "front_output.hpp"

#include <algorithm>

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
    return json;
}

SearchState parse_search_state(const nlohmann::json& json, const SearchStateTarget* target,
                               const std::string& place) {
    SearchState state;
    try {
        if (!json.is_object() || json.value("version", 0) != 1)
            throw InputError("", place + " /version", "version 1");
        const auto& settings = json.at("settings");
        const auto encoding = settings.at("encoding").get<std::string>();
        if (encoding != "spe" && encoding != "naive")
            throw InputError("", place + " /settings/encoding", "spe or naive");
        state.settings.encoding = encoding == "naive" ? Encoding::naive : Encoding::spe;
        state.settings.population = settings.at("population").get<int>();
        state.settings.generations = settings.at("generations").get<int>();
        state.settings.stages = settings.at("stages").get<int>();
        state.settings.levels = settings.at("levels").get<int>();
        state.settings.seed = settings.at("seed").get<unsigned>();
        state.latency = settings.at("latency").get<bool>();
        state.view = json.at("view");
        if (!state.view.is_object())
            throw InputError("", place + " /view", "an object");

        const auto& result = json.at("result");
        if (result.is_null())
            return state;
        if (!target || !target->cluster)
            throw InputError("", place, "a model and cluster open");
        const auto& cluster = *target->cluster;
        SearchStateResult r;
        const auto names = result.at("objectives").get<std::vector<std::string>>();
        r.kernels = result.at("kernels").get<int>();
        if (r.kernels != target->kernels)
            throw InputError("", place + " /result/kernels",
                             "the front was searched over " + std::to_string(r.kernels) +
                                 " kernels; the model has " + std::to_string(target->kernels));
        r.objectives.energy =
            std::find(names.begin(), names.end(), "max_energy_mj") != names.end();
        r.objectives.latency = std::find(names.begin(), names.end(), "latency_ms") != names.end();
        if (objective_names(r.objectives) != names)
            throw InputError("", place + " /result/objectives", "objectives cleave dse names");
        const auto read = [&](const char* key) {
            std::vector<Solution> solutions;
            const auto& array = result.at(key);
            const std::string at = place + " /result/" + key;
            for (std::size_t i = 0; i < array.size(); ++i) {
                solutions.push_back(solution_from_json(array[i], names, cluster, "",
                                                       at + "/" + std::to_string(i)));
                for (const int pe : solutions.back().mapping.pes)
                    if (target->has_latencies && !target->has_latencies(pe))
                        throw InputError("", at,
                                         cluster.pes[static_cast<std::size_t>(pe)].key +
                                             " has no latencies");
                for (const int p : solutions.back().mapping.points)
                    if (p <= 0 || p >= target->kernels)
                        throw InputError("", at, "split points inside the kernels");
            }
            return solutions;
        };
        r.front = read("front");
        r.evaluated = read("evaluated");
        r.history = history_from_json(result.at("hypervolume"), "", place + " /result/hypervolume");
        r.cluster = result.value("cluster", std::string());
        r.evaluations = result.at("evaluations").get<std::int64_t>();
        r.budget = result.at("budget").get<std::int64_t>();
        r.cancelled = result.at("cancelled").get<bool>();
        state.result = std::move(r);
    } catch (const nlohmann::json::exception& e) {
        throw InputError("", place, e.what());
    }
    return state;
}

} // namespace cleave::dse
