#include "cli_main.hpp"

#include "core/input_error.hpp"

#include <cleave/version.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <malloc.h>
#include <vector>

namespace cleave::cli {

void add_cleave_top_level(CLI::App& app, bool& quiet) {
    app.description("Cleave: a design-space explorer for running one neural network across a "
                    "cluster of edge devices.");
    app.set_version_flag("--version", std::string("cleave ") + kVersion + " (libonnx " +
                                          kOnnxVersion + ", protobuf " + kProtobufVersion + ")");
    app.require_subcommand(1);
    // Before or after the command's name (subcommands pass what they do not know to here).
    app.add_flag("--quiet,-q", quiet,
                 "No progress, notes or warnings on stderr: results, and errors, only");
    app.fallthrough();
    app.footer("Run 'cleave COMMAND --help' for a command's options. Exit codes: 0 success, "
               "2 bad input or usage, 1 internal failure, 130 stopped by Ctrl-C.");
}

int parse_and_run(CLI::App& app, int argc, char** argv, const std::string& name,
                  const std::function<int()>& run) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return 2;
    }
    try {
        return run();
    } catch (const InputError& e) {
        std::cerr << name << ": " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << name << ": internal error: " << e.what() << '\n';
        return 1;
    }
}

void keep_freed_memory() {
    ::mallopt(M_TOP_PAD, 16 << 20);
}

void keep_until_exit(std::shared_ptr<const void> value) {
    static std::vector<std::shared_ptr<const void>> kept;
    kept.push_back(std::move(value));
}

void exit_after_command(int code) {
#if defined(__SANITIZE_ADDRESS__)
    std::exit(code);
#else
    std::fflush(nullptr); // std::cout and std::cerr write through C's streams (synced)
    std::_Exit(code);
#endif
}

} // namespace cleave::cli
