// A grouping run, as `cleave group` and the studio's Grouping tab do it: the cluster's feature
// vectors (flops, config, or hp / he / ha from a device vectors file), each feature divided by its
// largest value, the balanced local search, the group sums and, when a workload is chosen,
// Arch2End's Case 2 serving simulation; for the Grouping tab's table comparing their spread
// across groups, every feature set available grouped too.
#pragma once

#include "balanced_grouping.hpp"
#include "core/device/cluster.hpp"
#include "device_features.hpp"
#include "serving_simulation.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cleave::grouping {

// The places named in messages are the CLI's flags (--groups, --vectors, --workload); the studio
// shows them beside its own fields.
struct GroupingRequest {
    std::shared_ptr<const device::Cluster> cluster;
    int groups = 2;
    std::string features = "flops"; // flops, config, hp, he, ha
    std::string vectors;            // a device vectors file (cleave device-vector); may be empty
    std::string workload;           // a benchmark of the vectors file; empty: no serving
    ServingOptions serving;
    std::uint64_t seed = SearchOptions{}.seed;
    int restarts = SearchOptions{}.restarts;
};

// Throws InputError (--groups) unless 1 <= groups <= the cluster's hosts.
void check_group_count(const device::Cluster& cluster, int groups);
// A feature set's table: flops and config from the cluster's specs, hp / he / ha from the
// request's vectors file (InputError --features without one).
FeatureTable feature_table(const GroupingRequest& request, const std::string& set);
// Per host, the request's workload's measured ms (empty without a workload; InputError
// --workload without a vectors file).
std::vector<double> workload_ms(const GroupingRequest& request);

// One feature set grouped.
struct FeatureSetGrouping {
    FeatureTable table;
    SearchResult search;
    std::vector<std::vector<double>> sums;            // [group][feature], the features' units
    std::vector<std::vector<double>> normalised_sums; // [group][feature], each feature / its max
    std::optional<ServingResult> serving;
};

struct GroupingOutcome {
    GroupingRequest request;
    FeatureSetGrouping chosen;                  // request.features
    std::vector<FeatureSetGrouping> comparison; // every set available, chosen included
    std::vector<double> image_ms;               // per host: the workload's ms; empty: no serving
    double capacity_images_per_s = 0;           // the whole cluster's, for the workload
};

// The feature sets a request can group by: flops and config, with a vectors file hp, he, ha.
std::vector<std::string> available_feature_sets(bool vectors);
// Throws InputError as the functions above.
// The request's hosts grouped by `table` (a set's, or a features file's): the search, the group
// sums and, with `image_ms`, the serving simulation.
FeatureSetGrouping group_table(const GroupingRequest& request, FeatureTable table,
                               const std::vector<double>& image_ms);
FeatureSetGrouping group_by(const GroupingRequest& request, const std::string& set,
                            const std::vector<double>& image_ms);
GroupingOutcome run_grouping(const GroupingRequest& request);
// The figures of groupings found before (a saved result): `group_of` per feature set, in
// available_feature_sets order, the request's set among them; no search.
GroupingOutcome regroup(const GroupingRequest& request,
                        const std::vector<std::pair<std::string, std::vector<int>>>& group_of);

// A grouping's settings as a project's "grouping" member and a settings file write them: groups,
// features, vectors, workload, rate_per_s, batch, duration_s, seed.
nlohmann::json grouping_settings_json(const GroupingRequest& request);
// Reads the settings given over `request`: a field left out keeps the request's. InputError for
// anything but an object.
void read_grouping_settings(const nlohmann::json& json, GroupingRequest& request);

// A grouping found, saved: its settings, the hosts it grouped ({host, device}, in cluster order)
// and, per feature set compared, the group of each host.
nlohmann::json grouping_result_json(const GroupingOutcome& outcome);
struct SavedGrouping {
    GroupingRequest request; // the settings it ran with (cluster: the caller's)
    std::vector<std::pair<std::string, std::string>> hosts;
    std::vector<std::pair<std::string, std::vector<int>>> sets;
};
// `base`: the request whose fields the saved settings override.
SavedGrouping read_grouping_result(const nlohmann::json& json, GroupingRequest base);

// (host, device id) of each host of the cluster, in order.
std::vector<std::pair<std::string, std::string>> grouping_hosts(const device::Cluster& cluster);

} // namespace cleave::grouping
