#include "simulation_spaces.hpp"

#include "blocks_space.hpp"
#include "nas9_space.hpp"
#include "random_choice.hpp"
#include "transformer_space.hpp"
#include "zoo_space.hpp"

#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>

namespace cleave::modelgen {

std::vector<ModelSpec> simulation_models(int count, std::uint64_t seed, const std::string& space) {
    if (std::find(kSimulationSpaces.begin(), kSimulationSpaces.end(), space) ==
        kSimulationSpaces.end())
        throw std::invalid_argument("unknown space " + space);
    if (space == "zoo")
        return zoo_models(count, seed);
    if (space == "transformer")
        return transformer_models(count, seed);
    // "nas9" and "blocks" share a stream: per network its id, its input size and a seed of its
    // own (which only "blocks" uses), then the space's draws.
    std::vector<ModelSpec> models;
    std::mt19937_64 random(seed);
    RandomChoice draw(random);
    for (int i = 0; i < count; ++i) {
        char id[32];
        std::snprintf(id, sizeof id, "%s_%04d", space.c_str(), i);
        const std::int64_t res = std::vector<std::int64_t>{96, 128, 160, 192, 224}[draw.pick(5)];
        const std::uint64_t model_seed = random();
        models.push_back(space == "nas9" ? nas9_model(id, res, draw)
                                         : blocks_model(id, res, model_seed, draw));
    }
    return models;
}

} // namespace cleave::modelgen
