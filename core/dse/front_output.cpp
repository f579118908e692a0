#include "front_output.hpp"

#include "core/input_error.hpp"
#include "core/json_reader.hpp"

#include <charconv>
#include <limits>

namespace cleave::dse {

namespace {

// The shortest text that reads back as the same double.
std::string number(double value) {
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return std::string(buffer, end);
}

constexpr int kMost = std::numeric_limits<int>::max();

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
    const JsonReader reader(file);
    reader.expect_object(json, place, "a solution object");
    Solution s;
    const auto* points = reader.array(json, place, "points", true, "split points");
    for (std::size_t i = 0; i < points->size(); ++i)
        s.mapping.points.push_back(
            reader.whole_number_at((*points)[i], child_pointer(place + "/points", i), 1, kMost));
    const auto* pes = reader.array(json, place, "pes", true, "PE keys, one per segment");
    for (std::size_t i = 0; i < pes->size(); ++i) {
        const std::string at = child_pointer(place + "/pes", i);
        const auto key = reader.string_at((*pes)[i], at, "a PE key");
        const auto* pe = cluster.find_pe(key);
        if (!pe)
            reader.fail(at, "no PE '" + key + "' in " + cluster.file);
        s.mapping.pes.push_back(static_cast<int>(pe - cluster.pes.data()));
    }
    if (s.mapping.pes.size() != s.mapping.points.size() + 1)
        reader.fail(place + "/pes", "expected one PE more than split points");
    s.throughput_per_s = reader.finite(json, place, "throughput_per_s");
    for (const auto& name : names)
        s.objectives.push_back(reader.finite(json, place, name));
    s.normalised = reader.finite_numbers(json, place, "normalised", names.size(), "one per objective");
    s.stage = reader.whole_number(json, place, "stage", true, 0, kMost).value();
    s.level = static_cast<Level>(reader.whole_number(json, place, "level", true, 1, 2).value());
    s.generation = reader.whole_number(json, place, "generation", false, 0, kMost).value_or(s.generation);
    s.feasible = reader.boolean(json, place, "feasible", false).value_or(s.feasible);
    return s;
}

std::vector<HypervolumeStep> history_from_json(const nlohmann::json& json, const std::string& file,
                                               const std::string& place) {
    const JsonReader reader(file);
    if (!json.is_array())
        reader.fail(place, "expected an array of hypervolume steps");
    std::vector<HypervolumeStep> history;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const auto at = child_pointer(place, i);
        reader.expect_object(json[i], at, "a hypervolume step");
        HypervolumeStep h;
        h.stage = reader.whole_number(json[i], at, "stage", true, 0, kMost).value();
        h.level = reader.whole_number(json[i], at, "level", true, 1, 2).value() == 2
                      ? Level::replay
                      : Level::analytical;
        h.generation = reader.whole_number(json[i], at, "generation", true, 0, kMost).value();
        h.evaluations = reader.whole_number(json[i], at, "evaluations", true, 0, kMost).value();
        h.hypervolume = reader.finite(json[i], at, "hypervolume");
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
