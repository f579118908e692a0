// A generated network as a value: its name, category and description, its input shape, and the
// function that adds its layers to a NetBuilder. The benchmark suite, the simulation spaces and
// the decoder stacks are lists of them; the writer builds and saves them.
#pragma once

#include "net_builder.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cleave::modelgen {

struct ModelSpec {
    std::string name;     // file stem: "affinity_conv3x3"
    std::string category; // "affinity", "scale", ... ; the space for simulation models
    std::string description;
    std::vector<std::int64_t> input_shape;
    std::function<void(NetBuilder&)> build; // adds the layers and the output
};

// A spec of these parts: how the sets write theirs.
inline ModelSpec spec(std::string name, std::string category, std::string description,
                      std::vector<std::int64_t> shape, std::function<void(NetBuilder&)> build) {
    return {std::move(name), std::move(category), std::move(description), std::move(shape),
            std::move(build)};
}

} // namespace cleave::modelgen
