// The values a run feeds a graph input, as bytes in ONNX's element layout: every rank of a split
// run that reads the input, and the whole model's reference run, make the same ones from the same
// seed. Filled as input_feeds.hpp decides (uniform in [0, 1) for floating point, token ids within
// the vocabulary, positions, constants); an integer input left uniform is zeros, as the profilers
// feed it.
#pragma once

#include "input_feeds.hpp"
#include "model.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cleave::graph {

// `tensor` needs a known shape and an element type of float32, float16, float64, int64, int32,
// int8, uint8 or bool; InputError names `file` and the tensor otherwise. The same tensor, feed
// and seed give the same bytes.
std::vector<std::byte> feed_values(const Tensor& tensor, const InputFeed& feed,
                                   std::uint64_t seed, const std::string& file);

} // namespace cleave::graph
