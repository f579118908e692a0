// The ends of a command-line program's main(), shared by cleave, cleave-dse and cleave-render:
// cleave's top level (its description, --version, the global --quiet and the footer), and
// parse, run, and map the outcome to the exit codes all document: 0 success, 2 bad input or
// usage (an InputError, a parse error), 1 internal failure; messages go to stderr after `name: `.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace cleave::cli {

// cleave's top level on `app`: one subcommand required, and `quiet` set by --quiet or -q, before
// or after the command's name.
void add_cleave_top_level(CLI::App& app, bool& quiet);

int parse_and_run(CLI::App& app, int argc, char** argv, const std::string& name,
                  const std::function<int()>& run);

} // namespace cleave::cli
