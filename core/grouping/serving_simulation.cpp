#include "serving_simulation.hpp"

#include "core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

namespace cleave::grouping {

namespace {

double population_std(const std::vector<double>& values) {
    if (values.empty())
        return 0;
    double mean = 0;
    for (const double v : values)
        mean += v;
    mean /= static_cast<double>(values.size());
    double sum = 0;
    for (const double v : values)
        sum += (v - mean) * (v - mean);
    return std::sqrt(sum / static_cast<double>(values.size()));
}

} // namespace

ServingResult simulate_serving(const std::vector<int>& group_of, int groups,
                               const std::vector<double>& image_ms, const ServingOptions& options) {
    if (group_of.size() != image_ms.size())
        throw std::invalid_argument("simulate_serving: one image time per device expected");
    if (groups < 1 || !(options.rate_per_s > 0) || !(options.duration_s > 0) || options.batch < 1)
        throw std::invalid_argument(
            "simulate_serving: groups, rate, duration and batch must be > 0");
    std::vector<std::vector<int>> members(static_cast<std::size_t>(groups));
    for (std::size_t d = 0; d < group_of.size(); ++d) {
        if (group_of[d] < 0 || group_of[d] >= groups)
            throw std::invalid_argument("simulate_serving: device " + std::to_string(d) +
                                        " is in no group");
        if (!(image_ms[d] > 0))
            throw std::invalid_argument("simulate_serving: device " + std::to_string(d) +
                                        " has no image time above 0");
        members[static_cast<std::size_t>(group_of[d])].push_back(static_cast<int>(d));
    }
    ServingResult result;
    result.groups.resize(static_cast<std::size_t>(groups));
    for (int g = 0; g < groups; ++g) {
        auto& group = result.groups[static_cast<std::size_t>(g)];
        if (members[static_cast<std::size_t>(g)].empty())
            throw std::invalid_argument("simulate_serving: group " + std::to_string(g) +
                                        " has no device");
        group.devices = static_cast<int>(members[static_cast<std::size_t>(g)].size());
        for (const int d : members[static_cast<std::size_t>(g)])
            group.images_per_s += 1000.0 / image_ms[static_cast<std::size_t>(d)];
    }

    std::mt19937_64 random(options.seed);
    std::exponential_distribution<double> gap(options.rate_per_s);
    std::uniform_int_distribution<int> pick(0, groups - 1);
    std::vector<double> free_at(group_of.size(), 0.0); // seconds
    std::vector<std::vector<double>> latencies(static_cast<std::size_t>(groups));
    std::vector<double> all;
    for (double t = gap(random); t < options.duration_s; t += gap(random)) {
        const int g = pick(random);
        // The group's device that finishes this task first.
        double best_end = std::numeric_limits<double>::infinity();
        int best = -1;
        for (const int d : members[static_cast<std::size_t>(g)]) {
            const auto du = static_cast<std::size_t>(d);
            const double end = std::max(t, free_at[du]) + options.batch * image_ms[du] / 1000.0;
            if (end < best_end) {
                best_end = end;
                best = d;
            }
        }
        free_at[static_cast<std::size_t>(best)] = best_end;
        auto& group = result.groups[static_cast<std::size_t>(g)];
        ++group.tasks;
        group.completion_s = std::max(group.completion_s, best_end);
        latencies[static_cast<std::size_t>(g)].push_back((best_end - t) * 1000.0);
        all.push_back((best_end - t) * 1000.0);
    }
    std::vector<double> means, completions;
    for (int g = 0; g < groups; ++g) {
        auto& group = result.groups[static_cast<std::size_t>(g)];
        auto& ms = latencies[static_cast<std::size_t>(g)];
        if (!ms.empty()) {
            double sum = 0;
            for (const double v : ms)
                sum += v;
            group.mean_latency_ms = sum / static_cast<double>(ms.size());
            group.p95_latency_ms = quantile(ms, 0.95);
        }
        means.push_back(group.mean_latency_ms);
        completions.push_back(group.completion_s);
    }
    double sum = 0;
    for (const double v : all)
        sum += v;
    result.mean_latency_ms = all.empty() ? 0 : sum / static_cast<double>(all.size());
    result.latency_std_ms = population_std(means);
    result.completion_std_s = population_std(completions);
    return result;
}

} // namespace cleave::grouping
