// The ends of a command-line program's main(), shared by cleave, cleave-dse and cleave-render:
// cleave's top level (its description, --version, the global --quiet and the footer), and
// parse, run, and map the outcome to the exit codes all document: 0 success, 2 bad input or
// usage (an InputError, a parse error), 1 internal failure; messages go to stderr after `name: `.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace cleave::cli {

// cleave's top level on `app`: one subcommand required, and `quiet` set by --quiet or -q, before
// or after the command's name.
void add_cleave_top_level(CLI::App& app, bool& quiet);

int parse_and_run(CLI::App& app, int argc, char** argv, const std::string& name,
                  const std::function<int()>& run);

// For the programs whose commands import models (cleave, cleave-dse), at the start of main: the
// import allocates and frees in bursts (libonnx's operator schemas, the model's structure), and
// glibc's default 128 KiB of slack hands memory back only to fault it in again, a tenth of
// `cleave inspect`'s time. 16 MiB of slack keeps it; pages never touched cost nothing.
void keep_freed_memory();

// The end of such a program's main: flushes stdout and stderr and exits without the static
// destructors, which would only free libonnx's operator schemas one by one (a millisecond or two
// of every command that imports a model); the command's files are written and closed by then.
// Under AddressSanitizer it returns normally, so that LeakSanitizer still checks at exit.
[[noreturn]] void exit_after_command(int code);

// Keeps a command's large result (an imported model, its JSON document) to the end of the process,
// which exit_after_command ends without freeing it: freeing densenet121's model and document costs
// `cleave inspect` a millisecond, a twentieth of its time. Under AddressSanitizer they are freed at
// exit as before.
void keep_until_exit(std::shared_ptr<const void> value);

// keep_until_exit for a value the command built: returns it in place.
template <typename T> const T& kept_until_exit(T&& value) {
    auto kept = std::make_shared<const std::decay_t<T>>(std::forward<T>(value));
    const auto& ref = *kept;
    keep_until_exit(std::move(kept));
    return ref;
}

} // namespace cleave::cli
