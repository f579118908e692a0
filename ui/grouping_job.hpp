// The Grouping tab's work, as `cleave group` does it with the same core/grouping functions: the
// cluster's feature vectors (flops, config, or hp / he / ha from a device vectors file), each
// feature divided by its largest value, the balanced local search, the group sums and, when a
// workload is chosen, Arch2End's Case 2 serving simulation. Every feature set available is
// grouped too, for the table comparing their spread across groups. Runs off the UI thread.
#pragma once

#include "core/grouping/balanced_grouping.hpp"
#include "core/grouping/device_features.hpp"
#include "core/grouping/serving_simulation.hpp"
#include "partition_inputs.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cleave::ui {

struct GroupingRequest {
    ClusterPtr cluster;
    int groups = 2;
    std::string features = "flops"; // flops, config, hp, he, ha
    std::string vectors;            // a device vectors file (cleave device-vector); may be empty
    std::string workload;           // a benchmark of the vectors file; empty: no serving
    grouping::ServingOptions serving;
    std::uint64_t seed = grouping::SearchOptions{}.seed;
};

// One feature set grouped.
struct FeatureSetGrouping {
    grouping::FeatureTable table;
    grouping::SearchResult search;
    std::vector<std::vector<double>> sums;            // [group][feature], the features' units
    std::vector<std::vector<double>> normalised_sums; // [group][feature], each feature / its max
    std::optional<grouping::ServingResult> serving;
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
// Throws InputError naming the flag-like place ("vectors", "workload", "groups") and the file.
FeatureSetGrouping group_by(const GroupingRequest& request, const std::string& set,
                            const std::vector<double>& image_ms);
GroupingOutcome run_grouping(const GroupingRequest& request);
// The figures of groupings found before (a saved result): `group_of` per feature set, in
// available_feature_sets order, the request's set among them; no search.
GroupingOutcome regroup(const GroupingRequest& request,
                        const std::vector<std::pair<std::string, std::vector<int>>>& group_of);

} // namespace cleave::ui
