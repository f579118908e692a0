#include "decoder_search.hpp"

#include <algorithm>
#include <numeric>

namespace cleave::dse {

DecoderSpace decoder_space(const partition::DecoderPlanContext& context, ObjectiveSet objectives) {
    const auto& costs = *context.decode.costs;
    const auto total_ms = [&](int pe) { return costs.kernels_ms(pe, 0, costs.kernel_count()); };
    auto usable = context.usable;
    std::stable_sort(usable.begin(), usable.end(),
                     [&](int a, int b) { return total_ms(a) < total_ms(b); });
    std::vector<int> first, rest;
    std::vector<int> hosts;
    for (const int pe : usable) {
        const int host = costs.host_of(pe);
        if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) {
            hosts.push_back(host);
            first.push_back(pe);
        } else {
            rest.push_back(pe);
        }
    }
    first.insert(first.end(), rest.begin(), rest.end());
    DecoderSpace out;
    out.input = partition::decoder_plan_input(context);
    out.space = std::make_unique<MappingSpace>(
        costs, std::move(first),
        std::vector<std::optional<std::int64_t>>(static_cast<std::size_t>(costs.host_count())),
        objectives);
    out.space->hold_to_layers(out.input);
    return out;
}

DecoderFrontPlans decoder_front_plans(const partition::DecoderPlanContext& context,
                                      const DecoderSpace& space,
                                      const std::vector<Solution>& front) {
    DecoderFrontPlans out;
    for (const auto& solution : front)
        if (solution.feasible)
            out.front.push_back(partition::decoder_plan(context, space.input, "NSGA-II front",
                                                        "nsga2", solution.mapping));
    std::stable_sort(out.front.begin(), out.front.end(), [](const auto& a, const auto& b) {
        return a.time_per_token_ms < b.time_per_token_ms;
    });
    if (out.front.empty())
        return out;
    out.fastest = out.front.front();
    out.fastest->name = "NSGA-II: least time per token";
    out.fastest->rule = "nsga2-time-per-token";
    out.widest =
        *std::min_element(out.front.begin(), out.front.end(), [](const auto& a, const auto& b) {
            return a.bottleneck_ms < b.bottleneck_ms;
        });
    out.widest->name = "NSGA-II: least slowest stage";
    out.widest->rule = "nsga2-bottleneck";
    return out;
}

} // namespace cleave::dse
