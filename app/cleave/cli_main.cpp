#include "cli_main.hpp"

#include "core/input_error.hpp"

#include <exception>
#include <iostream>

namespace cleave::cli {

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

} // namespace cleave::cli
