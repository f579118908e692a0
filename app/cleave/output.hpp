// How every subcommand prints its result: JSON on stdout with --json, the same document to
// --out FILE atomically, and numbers grouped for people in tables.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace cleave::cli {

// Prints to stdout when `print` is set, and writes to `out_file` (atomically) when not empty.
void emit_json(const nlohmann::ordered_json& document, bool print, const std::string& out_file);

std::string grouped(std::int64_t value);            // 11689512 -> "11,689,512"
std::string giga(std::int64_t value, int decimals); // 1814073344 -> "1.81 G"

} // namespace cleave::cli
