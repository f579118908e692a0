#include "grouping_job.hpp"

#include "core/grouping/device_vectors.hpp"
#include "core/input_error.hpp"

#include <algorithm>

namespace cleave::ui {

namespace {

bool isVectorSet(const std::string& set) {
    const auto& sets = grouping::kVectorFeatureSets;
    return std::find(sets.begin(), sets.end(), set) != sets.end();
}

grouping::FeatureTable featuresOf(const GroupingRequest& request, const std::string& set) {
    if (!isVectorSet(set))
        return grouping::cluster_features(*request.cluster, set, "features");
    if (request.vectors.empty())
        throw InputError("", "vectors",
                         set + " comes from device vectors: open a vectors file (written by "
                               "cleave device-vector --out)");
    return grouping::vector_features(
        *request.cluster, grouping::load_device_vectors(request.vectors), set, request.vectors);
}

// The group sums and the serving simulation of `out.search.best`.
void measure(FeatureSetGrouping& out, const GroupingRequest& request,
             const std::vector<double>& image_ms) {
    const auto normalised = grouping::normalised(out.table.values);
    const auto& group_of = out.search.best.group_of;
    out.sums = grouping::group_sums(out.table.values, group_of, request.groups);
    out.normalised_sums = grouping::group_sums(normalised, group_of, request.groups);
    if (!image_ms.empty()) {
        auto options = request.serving;
        options.seed = request.seed;
        out.serving = grouping::simulate_serving(group_of, request.groups, image_ms, options);
    }
}

void checkGroups(const GroupingRequest& request) {
    const int hosts = static_cast<int>(request.cluster->hosts.size());
    if (request.groups < 1 || request.groups > hosts)
        throw InputError("", "groups",
                         std::to_string(request.groups) + " groups for " + std::to_string(hosts) +
                             " hosts; expected a whole number from 1 to " + std::to_string(hosts));
}

std::vector<double> workloadMs(const GroupingRequest& request) {
    if (request.workload.empty())
        return {};
    if (request.vectors.empty())
        throw InputError("", "workload",
                         "the serving simulation needs a vectors file: the workload's measured "
                         "time on every host's device");
    return grouping::host_benchmark_ms(*request.cluster,
                                       grouping::load_device_vectors(request.vectors),
                                       request.workload, request.vectors, "workload");
}

} // namespace

std::vector<std::string> available_feature_sets(bool vectors) {
    std::vector<std::string> sets = grouping::kFeatureSets;
    if (vectors)
        sets.insert(sets.end(), grouping::kVectorFeatureSets.begin(),
                    grouping::kVectorFeatureSets.end());
    return sets;
}

FeatureSetGrouping group_by(const GroupingRequest& request, const std::string& set,
                            const std::vector<double>& image_ms) {
    FeatureSetGrouping out;
    out.table = featuresOf(request, set);
    out.search = grouping::balance_local_search(grouping::normalised(out.table.values),
                                                request.groups, {.seed = request.seed});
    measure(out, request, image_ms);
    return out;
}

namespace {

// The request checked, with each host's time per image and what the cluster can serve.
GroupingOutcome startOutcome(const GroupingRequest& request) {
    checkGroups(request);
    GroupingOutcome outcome;
    outcome.request = request;
    outcome.image_ms = workloadMs(request);
    for (const double ms : outcome.image_ms)
        outcome.capacity_images_per_s += 1000.0 / ms;
    return outcome;
}

} // namespace

GroupingOutcome run_grouping(const GroupingRequest& request) {
    GroupingOutcome outcome = startOutcome(request);
    outcome.chosen = group_by(request, request.features, outcome.image_ms);
    for (const auto& set : available_feature_sets(!request.vectors.empty()))
        outcome.comparison.push_back(
            set == request.features ? outcome.chosen : group_by(request, set, outcome.image_ms));
    return outcome;
}

GroupingOutcome regroup(const GroupingRequest& request,
                        const std::vector<std::pair<std::string, std::vector<int>>>& group_of) {
    GroupingOutcome outcome = startOutcome(request);
    bool chosen = false;
    for (const auto& [set, groups] : group_of) {
        FeatureSetGrouping out;
        out.table = featuresOf(request, set);
        if (groups.size() != request.cluster->hosts.size() ||
            std::any_of(groups.begin(), groups.end(),
                        [&](int g) { return g < 0 || g >= request.groups; }))
            throw InputError("", "result/" + set,
                             "expected a group from 0 to " + std::to_string(request.groups - 1) +
                                 " for each of the " +
                                 std::to_string(request.cluster->hosts.size()) + " hosts");
        out.search.best.group_of = groups;
        out.search.best.objective = grouping::balance_objective(
            grouping::normalised(out.table.values), groups, request.groups);
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

} // namespace cleave::ui
