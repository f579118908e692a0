// Arch2End's Case 2: a stream of inference tasks served by device groups. Tasks arrive as a
// Poisson process; each goes to a group drawn uniformly at random (every group serves its share,
// itself a Poisson stream) and there to the group's device that would finish it first. A group
// whose devices add up to less speed than its share falls behind, so unbalanced groups show as a
// spread of group latencies (their Table VI). docs/grouping.md has the model and its limits.
#pragma once

#include <cstdint>
#include <vector>

namespace cleave::grouping {

struct ServingOptions {
    double rate_per_s = 2000; // task arrivals per second, over all groups
    double duration_s = 10;   // arrivals stop after this; every task still completes
    int batch = 16;           // images per task: a task takes batch x the device's image time
    std::uint64_t seed = 1;
};

struct GroupServing {
    int devices = 0;
    int tasks = 0;
    double images_per_s = 0;    // the group's capacity: sum over devices of 1000 / image ms
    double mean_latency_ms = 0; // completion minus arrival, over the group's tasks
    double p95_latency_ms = 0;
    double completion_s = 0; // when the group's last task completed
};

struct ServingResult {
    std::vector<GroupServing> groups;
    double mean_latency_ms = 0;  // over all tasks
    double latency_std_ms = 0;   // population std dev of the groups' mean latencies
    double completion_std_s = 0; // and of their completion times
};

// image_ms[d]: device d's time for one image; group_of[d] in [0, groups). Throws
// std::invalid_argument on sizes that do not match, a group without devices, or a time <= 0.
ServingResult simulate_serving(const std::vector<int>& group_of, int groups,
                               const std::vector<double>& image_ms,
                               const ServingOptions& options = {});

} // namespace cleave::grouping
