// The `NAME=DIMS` form in which a user gives an input's shape: "input=1x3x160x160", or with
// commas as other tools write it: "input=1,3,160,160".
#pragma once

#include "model.hpp"

#include <string>
#include <string_view>
#include <utility>

namespace cleave::graph {

// Throws InputError naming the flag and the text when it is not NAME=D1xD2x... (or D1,D2,...)
// with D >= 1.
std::pair<std::string, Shape> parse_input_shape(std::string_view spec);

} // namespace cleave::graph
