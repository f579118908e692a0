// The end of a command-line program's main(), shared by cleave and cleave-render: parse, run,
// and map the outcome to the exit codes both document: 0 success, 2 bad input or usage (an
// InputError, a parse error), 1 internal failure; messages go to stderr after `name: `.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace cleave::cli {

int parse_and_run(CLI::App& app, int argc, char** argv, const std::string& name,
                  const std::function<int()>& run);

} // namespace cleave::cli
