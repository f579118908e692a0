#include "front_output.hpp"

#include "core/input_error.hpp"

#include <charconv>

namespace cleave::dse {

namespace {

// The shortest text that reads back as the same double.
std::string number(double value) {
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return std::string(buffer, end);
}

template <typename T>
T field(const nlohmann::json& json, const char* key, const std::string& file,
        const std::string& place) {
    const auto it = json.find(key);
    if (it == json.end())
        throw InputError(file, place, std::string("missing \"") + key + "\"");
    try {
        return it->get<T>();
    } catch (const nlohmann::json::exception&) {
        throw InputError(file, place + "/" + key, "a value of the right type");
    }
}

} // namespace

nlohmann::ordered_json solution_json(const Solution& s, const std::vector<std::string>& names,
                                     const device::Cluster& cluster) {
    nlohmann::ordered_json pes = nlohmann::ordered_json::array();
    for (const int pe : s.mapping.pes)
        pes.push_back(cluster.pes[static_cast<std::size_t>(pe)].key);
    nlohmann::ordered_json solution{
        {"points", s.mapping.points}, {"pes", pes}, {"throughput_per_s", s.throughput_per_s}};
    for (std::size_t j = 0; j < names.size(); ++j)
        solution[names[j]] = s.objectives[j];
    solution["normalised"] = s.normalised;
    solution["stage"] = s.stage;
    solution["level"] = static_cast<int>(s.level);
    return solution;
}

nlohmann::ordered_json front_json(const std::vector<Solution>& front,
                                  const std::vector<std::string>& names,
                                  const device::Cluster& cluster) {
    auto json = nlohmann::ordered_json::array();
    for (const auto& s : front)
        json.push_back(solution_json(s, names, cluster));
    return json;
}

nlohmann::ordered_json history_json(const std::vector<HypervolumeStep>& history) {
    auto json = nlohmann::ordered_json::array();
    for (const auto& h : history)
        json.push_back({{"stage", h.stage},
                        {"level", static_cast<int>(h.level)},
                        {"generation", h.generation},
                        {"evaluations", h.evaluations},
                        {"hypervolume", h.hypervolume}});
    return json;
}

Solution solution_from_json(const nlohmann::json& json, const std::vector<std::string>& names,
                            const device::Cluster& cluster, const std::string& file,
                            const std::string& place) {
    if (!json.is_object())
        throw InputError(file, place, "a solution object");
    Solution s;
    s.mapping.points = field<std::vector<int>>(json, "points", file, place);
    for (const auto& key : field<std::vector<std::string>>(json, "pes", file, place)) {
        int found = -1;
        for (std::size_t pe = 0; pe < cluster.pes.size(); ++pe)
            if (cluster.pes[pe].key == key)
                found = static_cast<int>(pe);
        if (found < 0)
            throw InputError(file, place + "/pes", "no PE '" + key + "' in " + cluster.file);
        s.mapping.pes.push_back(found);
    }
    if (s.mapping.pes.size() != s.mapping.points.size() + 1)
        throw InputError(file, place + "/pes", "one PE more than split points");
    s.throughput_per_s = field<double>(json, "throughput_per_s", file, place);
    for (const auto& name : names)
        s.objectives.push_back(field<double>(json, name.c_str(), file, place));
    s.normalised = field<std::vector<double>>(json, "normalised", file, place);
    if (s.normalised.size() != names.size())
        throw InputError(file, place + "/normalised", std::to_string(names.size()) + " values");
    s.stage = field<int>(json, "stage", file, place);
    const int level = field<int>(json, "level", file, place);
    if (level != 1 && level != 2)
        throw InputError(file, place + "/level", "1 or 2");
    s.level = static_cast<Level>(level);
    if (json.contains("generation"))
        s.generation = field<int>(json, "generation", file, place);
    if (json.contains("feasible"))
        s.feasible = field<bool>(json, "feasible", file, place);
    return s;
}

std::vector<HypervolumeStep> history_from_json(const nlohmann::json& json, const std::string& file,
                                               const std::string& place) {
    if (!json.is_array())
        throw InputError(file, place, "an array of hypervolume steps");
    std::vector<HypervolumeStep> history;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const auto at = place + "/" + std::to_string(i);
        HypervolumeStep h;
        h.stage = field<int>(json[i], "stage", file, at);
        h.level = field<int>(json[i], "level", file, at) == 2 ? Level::replay : Level::analytical;
        h.generation = field<int>(json[i], "generation", file, at);
        h.evaluations = field<std::int64_t>(json[i], "evaluations", file, at);
        h.hypervolume = field<double>(json[i], "hypervolume", file, at);
        history.push_back(h);
    }
    return history;
}

std::string front_csv(const std::vector<Solution>& front, const std::vector<std::string>& names,
                      const device::Cluster& cluster) {
    std::string csv = "throughput_per_s";
    for (const auto& name : names)
        csv += "," + name;
    csv += ",stage,level,generation,feasible,points,pes\n";
    for (const auto& s : front) {
        csv += number(s.throughput_per_s);
        for (const double value : s.objectives)
            csv += "," + number(value);
        csv += "," + std::to_string(s.stage) + "," + std::to_string(static_cast<int>(s.level)) +
               "," + std::to_string(s.generation) + "," + (s.feasible ? "1" : "0") + ",\"";
        for (std::size_t i = 0; i < s.mapping.points.size(); ++i)
            csv += (i ? "," : "") + std::to_string(s.mapping.points[i]);
        csv += "\",\"";
        for (std::size_t i = 0; i < s.mapping.pes.size(); ++i)
            csv += (i ? "," : "") + cluster.pes[static_cast<std::size_t>(s.mapping.pes[i])].key;
        csv += "\"\n";
    }
    return csv;
}

} // namespace cleave::dse
