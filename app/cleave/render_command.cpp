// cleave render: drawing the studio's views needs Qt Widgets, which cleave does not link. The
// studio's build installs cleave-render beside cleave; this command runs it with the same
// arguments (its --help included), so its output and exit code are cleave render's.
#include "commands.hpp"
#include "sibling_program.hpp"

#include <string>
#include <vector>

namespace cleave::cli {

Action add_render_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "render", "Draw a studio view (graph, partition, front, hypervolume, breakdown) to a PNG "
                  "or SVG file, with no display (runs cleave-render; 'cleave render --help')");
    command->prefix_command();
    command->fallthrough(false); // every word after "render" is cleave-render's
    command->set_help_flag();    // --help goes to cleave-render, which knows the options
    return [command]() -> int {
        std::vector<std::string> arguments{"cleave-render"};
        const auto words = command->remaining();
        arguments.insert(arguments.end(), words.begin(), words.end());
        run_sibling("cleave-render", arguments,
                    "not installed: cleave render draws with cleave-render, which comes with the "
                    "studio (a build with CLEAVE_STUDIO=ON, or the cleave package)");
    };
}

} // namespace cleave::cli
