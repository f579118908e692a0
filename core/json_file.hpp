// Reading a user's JSON file, plain or xz-compressed (told by its magic bytes): a missing file,
// a corrupt xz stream or a syntax error becomes an InputError naming the file, the byte and
// what the file should have been.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace cleave {

// `expected`: what the file should be, for the message ("a predictor written by cleave train").
nlohmann::json read_json_file(const std::string& path, const std::string& expected);
// The same, keeping the objects' keys in file order.
nlohmann::ordered_json read_ordered_json_file(const std::string& path, const std::string& expected);

} // namespace cleave
