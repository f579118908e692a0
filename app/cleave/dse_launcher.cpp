// cleave dse: the search links pagmo2, whose start-up (TBB, Boost) no other command should pay
// for, so cleave runs cleave-dse, built and installed beside it, with the words after "dse" and
// the global --quiet; cleave-dse parses them as cleave would (dse_command.cpp), --help included.
#include "commands.hpp"
#include "progress.hpp"
#include "sibling_program.hpp"

#include <string>
#include <vector>

namespace cleave::cli {

Action add_dse_launcher(CLI::App& app) {
    auto* command = app.add_subcommand("dse", kDseDescription);
    command->prefix_command();
    command->fallthrough(false); // every word after "dse" is cleave-dse's
    command->set_help_flag();    // --help goes to cleave-dse, which knows the options
    return [command]() -> int {
        std::vector<std::string> arguments{"cleave-dse"};
        if (quiet())
            arguments.push_back("--quiet");
        const auto words = command->remaining();
        arguments.insert(arguments.end(), words.begin(), words.end());
        run_sibling("cleave-dse", arguments,
                    "not installed: cleave dse searches in cleave-dse, which is built and "
                    "installed beside cleave");
    };
}

} // namespace cleave::cli
