// The size limits of the "zoo" and "transformer" spaces, and the drawing of a space's networks
// within them: each network drawn again until it fits, sized without weights, so cheaply.
#pragma once

#include "model_spec.hpp"

#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace cleave::modelgen {

// Networks that run in about 2 to 80 ms at one thread on a desktop core, with at most 48 MB of
// weights.
inline constexpr std::int64_t kZooMaxMacs = 2'000'000'000;
inline constexpr std::int64_t kZooMinMacs = 20'000'000;
inline constexpr std::int64_t kZooMaxParameters = 12'000'000;

// `count` networks of a space whose plans `draw` gives: each drawn again until the network fits
// the zoo's limits, sized without weights, so cheaply. `input(plan)`, `build(builder, plan)` and
// `describe(plan)` make the spec; ids are "<prefix(plan)>_0000" on, numbered across the space.
template <typename Draw, typename Prefix, typename Input, typename Build, typename Describe>
std::vector<ModelSpec> sized_models(const std::string& space, int count, std::uint64_t seed,
                                    Draw draw, Prefix prefix, Input input, Build build,
                                    Describe describe) {
    std::vector<ModelSpec> models;
    std::mt19937_64 random(seed);
    for (int i = 0; i < count; ++i) {
        char number[16];
        std::snprintf(number, sizeof number, "_%04d", i);
        std::string id;
        decltype(draw(random)) plan;
        for (int attempt = 0;; ++attempt) {
            if (attempt == 10000)
                throw std::logic_error("no " + space + " network fits the size limits");
            plan = draw(random);
            id = prefix(plan) + number;
            NetBuilder sizing(id, input(plan), 0, false);
            build(sizing, plan);
            if (sizing.macs() >= kZooMinMacs && sizing.macs() <= kZooMaxMacs &&
                sizing.parameters() <= kZooMaxParameters)
                break;
        }
        models.push_back(spec(id, space, describe(plan), input(plan),
                              [plan, build](NetBuilder& b) { build(b, plan); }));
    }
    return models;
}

} // namespace cleave::modelgen
