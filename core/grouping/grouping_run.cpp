#include "grouping_run.hpp"

#include "device_vectors.hpp"
#include "core/input_error.hpp"
#include "core/json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace cleave::grouping {

namespace {

bool is_vector_set(const std::string& set) {
    return std::find(kVectorFeatureSets.begin(), kVectorFeatureSets.end(), set) !=
           kVectorFeatureSets.end();
}

// The group sums and the serving simulation of `out.search.best`.
void measure(FeatureSetGrouping& out, const GroupingRequest& request,
             const std::vector<double>& image_ms) {
    const auto scaled = normalised(out.table.values);
    const auto& group_of = out.search.best.group_of;
    out.sums = group_sums(out.table.values, group_of, request.groups);
    out.normalised_sums = group_sums(scaled, group_of, request.groups);
    if (!image_ms.empty()) {
        auto options = request.serving;
        options.seed = request.seed;
        out.serving = simulate_serving(group_of, request.groups, image_ms, options);
    }
}

} // namespace

void check_group_count(const device::Cluster& cluster, int groups) {
    const int hosts = static_cast<int>(cluster.hosts.size());
    if (groups < 1 || groups > hosts)
        throw InputError("", "--groups",
                         std::to_string(groups) + " groups for the " + std::to_string(hosts) +
                             " hosts of " + cluster.file + "; expected a whole number from 1 to " +
                             std::to_string(hosts));
}

FeatureTable feature_table(const GroupingRequest& request, const std::string& set) {
    if (!is_vector_set(set))
        return cluster_features(*request.cluster, set);
    if (request.vectors.empty())
        throw InputError("", "--features",
                         set + " comes from device vectors: it needs a vectors file (--vectors, "
                               "written by cleave device-vector --out)");
    return vector_features(*request.cluster, load_device_vectors(request.vectors), set,
                           request.vectors);
}

std::vector<double> workload_ms(const GroupingRequest& request) {
    if (request.workload.empty())
        return {};
    if (request.vectors.empty())
        throw InputError("", "--workload",
                         "the serving simulation needs a vectors file (--vectors): the "
                         "workload's measured time on every host's device");
    return host_benchmark_ms(*request.cluster, load_device_vectors(request.vectors),
                             request.workload, request.vectors, "--workload");
}

std::vector<std::string> available_feature_sets(bool vectors) {
    std::vector<std::string> sets = kFeatureSets;
    if (vectors)
        sets.insert(sets.end(), kVectorFeatureSets.begin(), kVectorFeatureSets.end());
    return sets;
}

FeatureSetGrouping group_table(const GroupingRequest& request, FeatureTable table,
                               const std::vector<double>& image_ms) {
    FeatureSetGrouping out;
    out.table = std::move(table);
    out.search = balance_local_search(normalised(out.table.values), request.groups,
                                      {.restarts = request.restarts, .seed = request.seed});
    measure(out, request, image_ms);
    return out;
}

FeatureSetGrouping group_by(const GroupingRequest& request, const std::string& set,
                            const std::vector<double>& image_ms) {
    return group_table(request, feature_table(request, set), image_ms);
}

namespace {

// The request checked, with each host's time per image and what the cluster can serve.
GroupingOutcome start_outcome(const GroupingRequest& request) {
    check_group_count(*request.cluster, request.groups);
    GroupingOutcome outcome;
    outcome.request = request;
    outcome.image_ms = workload_ms(request);
    for (const double ms : outcome.image_ms)
        outcome.capacity_images_per_s += 1000.0 / ms;
    return outcome;
}

} // namespace

GroupingOutcome run_grouping(const GroupingRequest& request) {
    GroupingOutcome outcome = start_outcome(request);
    outcome.chosen = group_by(request, request.features, outcome.image_ms);
    for (const auto& set : available_feature_sets(!request.vectors.empty()))
        outcome.comparison.push_back(
            set == request.features ? outcome.chosen : group_by(request, set, outcome.image_ms));
    return outcome;
}

GroupingOutcome regroup(const GroupingRequest& request,
                        const std::vector<std::pair<std::string, std::vector<int>>>& group_of) {
    GroupingOutcome outcome = start_outcome(request);
    bool chosen = false;
    for (const auto& [set, groups] : group_of) {
        FeatureSetGrouping out;
        out.table = feature_table(request, set);
        if (groups.size() != request.cluster->hosts.size() ||
            std::any_of(groups.begin(), groups.end(),
                        [&](int g) { return g < 0 || g >= request.groups; }))
            throw InputError("", "result/" + set,
                             "expected a group from 0 to " + std::to_string(request.groups - 1) +
                                 " for each of the " +
                                 std::to_string(request.cluster->hosts.size()) + " hosts");
        out.search.best.group_of = groups;
        out.search.best.objective =
            balance_objective(normalised(out.table.values), groups, request.groups);
        measure(out, request, outcome.image_ms);
        if (set == request.features) {
            outcome.chosen = out;
            chosen = true;
        }
        outcome.comparison.push_back(std::move(out));
    }
    if (!chosen)
        throw InputError("", "result", "no grouping by " + request.features + " in the result");
    return outcome;
}

nlohmann::json grouping_settings_json(const GroupingRequest& r) {
    return {{"groups", r.groups},
            {"features", r.features},
            {"vectors", r.vectors},
            {"workload", r.workload},
            {"rate_per_s", r.serving.rate_per_s},
            {"batch", r.serving.batch},
            {"duration_s", r.serving.duration_s},
            {"seed", r.seed}};
}

void read_grouping_settings(const nlohmann::json& s, GroupingRequest& r) {
    const JsonReader reader("");
    reader.expect_object(s, "", "a JSON object of grouping settings");
    constexpr int most = std::numeric_limits<int>::max();
    const auto text = [&](const char* key, std::string& into) {
        if (s.contains(key))
            into = reader.string_at(s[key], child_pointer("", key), "a string", true);
    };
    r.groups = reader.whole_number(s, "", "groups", false, 1, most).value_or(r.groups);
    text("features", r.features);
    text("vectors", r.vectors);
    text("workload", r.workload);
    r.serving.rate_per_s =
        reader.number(s, "", "rate_per_s", false, "inferences per second").value_or(r.serving.rate_per_s);
    r.serving.batch = reader.whole_number(s, "", "batch", false, 1, most).value_or(r.serving.batch);
    r.serving.duration_s =
        reader.number(s, "", "duration_s", false, "s").value_or(r.serving.duration_s);
    if (const auto seed = reader.number(s, "", "seed", false, "", true)) {
        // A double holds every whole number up to 2^53 exactly; no seed needs more.
        if (*seed > 9007199254740992.0 || *seed != std::floor(*seed))
            reader.fail("/seed", "expected a whole number from 0 to 2^53");
        r.seed = static_cast<std::uint64_t>(*seed);
    }
}

std::vector<std::pair<std::string, std::string>> grouping_hosts(const device::Cluster& cluster) {
    std::vector<std::pair<std::string, std::string>> hosts;
    for (const auto& host : cluster.hosts)
        hosts.emplace_back(host.host, host.device.id);
    return hosts;
}

nlohmann::json grouping_result_json(const GroupingOutcome& outcome) {
    auto json = grouping_settings_json(outcome.request);
    nlohmann::json hosts = nlohmann::json::array();
    if (outcome.request.cluster)
        for (const auto& [host, device] : grouping_hosts(*outcome.request.cluster))
            hosts.push_back({{"host", host}, {"device", device}});
    nlohmann::json sets = nlohmann::json::array();
    for (const auto& set : outcome.comparison)
        sets.push_back({{"features", set.table.set}, {"group_of", set.search.best.group_of}});
    json["hosts"] = std::move(hosts);
    json["sets"] = std::move(sets);
    return json;
}

SavedGrouping read_grouping_result(const nlohmann::json& json, GroupingRequest base) {
    SavedGrouping saved;
    read_grouping_settings(json, base);
    saved.request = std::move(base);
    const JsonReader reader("");
    constexpr int most = std::numeric_limits<int>::max();
    const auto& hosts = *reader.array(json, "", "hosts", true, "the hosts grouped");
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        const std::string pointer = child_pointer("/hosts", i);
        reader.expect_object(hosts[i], pointer, "{\"host\", \"device\"}");
        saved.hosts.emplace_back(reader.string(hosts[i], pointer, "host", true, "a host name"),
                                 reader.string(hosts[i], pointer, "device", true, "a device id"));
    }
    const auto& sets = *reader.array(json, "", "sets", true, "the groupings by feature set");
    for (std::size_t i = 0; i < sets.size(); ++i) {
        const std::string pointer = child_pointer("/sets", i);
        reader.expect_object(sets[i], pointer, "{\"features\", \"group_of\"}");
        const auto& group_of =
            *reader.array(sets[i], pointer, "group_of", true, "a group for each host");
        std::vector<int> groups;
        for (std::size_t h = 0; h < group_of.size(); ++h)
            groups.push_back(reader.whole_number_at(
                group_of[h], child_pointer(child_pointer(pointer, "group_of"), h), 0, most));
        saved.sets.emplace_back(reader.string(sets[i], pointer, "features", true, "a feature set"),
                                std::move(groups));
    }
    return saved;
}

} // namespace cleave::grouping
