// What a runtime feeds each input of a model so that it runs as deployed. A language-model
// decoder gets token ids within its vocabulary, an attention mask of ones, position ids that count
// on from the cached tokens, and key/value caches of the bound length filled with values:
// GroupQueryAttention derives its sequence lengths from the mask, so zeros are not a valid input,
// and a Gather of ids past the vocabulary fails. Any other input is filled uniformly in [0, 1)
// (floating point) or with zeros (integers), as every profiler always did.
#pragma once

#include "model.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace cleave::graph {

struct InputFeed {
    enum class Fill {
        Uniform,   // floating point in [0, 1), from a fixed-seed generator
        Constant,  // every element `value`
        TokenIds,  // ids in [0, value), from a fixed-seed generator
        Positions, // along the last dim: value, value + 1, ... (every row alike)
    };
    Fill fill = Fill::Uniform;
    std::int64_t value = 0;
};

std::string_view to_string(InputFeed::Fill fill); // "uniform", "constant", "ids", "positions"

// One feed per graph input, in model.inputs' order. Read from the inputs' names (as
// input_dim_binding.hpp recognises them) and the roles their dims were bound by.
std::vector<InputFeed> input_feeds(const Model& model);

} // namespace cleave::graph
