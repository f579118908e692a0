// Symbolic dims as exporters write them in an ONNX dim_param: a name ("sequence_length", "s0")
// or integer arithmetic on names ("past_sequence_length + 1", "2*s0", "(s0 + s1)*2",
// "encoder_sequence_length / 2").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cleave::graph {

using DimValues = std::map<std::string, std::int64_t, std::less<>>;

// True for a bare name: a letter or '_', then letters, digits, '_' and '.'.
bool is_dim_name(std::string_view text);

// The value of `text` (integers, names, + - *, / rounding down, and parentheses) with the names'
// values; nullopt
// when a name it uses has none. Throws InputError (place: the text) when it does not parse, or
// when a step overflows 64 bits.
std::optional<std::int64_t> evaluate_dim_expression(std::string_view text, const DimValues& values);

// The names `text` uses, in order of first use (no check that the rest parses).
std::vector<std::string> dim_expression_names(std::string_view text);

} // namespace cleave::graph
