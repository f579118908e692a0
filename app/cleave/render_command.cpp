// cleave render: drawing the studio's views needs Qt Widgets, which cleave does not link. The
// studio's build installs cleave-render beside cleave; this command runs it with the same
// arguments (its --help included), so its output and exit code are cleave render's.
#include "commands.hpp"
#include "core/input_error.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace cleave::cli {

namespace {

std::filesystem::path renderer_path() {
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error)
        throw std::runtime_error("cannot find this program's own path: " + error.message());
    return self.parent_path() / "cleave-render";
}

int forward(const std::vector<std::string>& arguments) {
    const auto renderer = renderer_path();
    std::vector<std::string> words{"cleave-render"};
    words.insert(words.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (auto& word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    ::execv(renderer.c_str(), argv.data());
    const int why = errno;
    if (why == ENOENT)
        throw InputError(renderer.string(), "",
                         "not installed: cleave render draws with cleave-render, which comes "
                         "with the studio (a build with CLEAVE_STUDIO=ON, or the cleave package)");
    throw std::runtime_error("cannot run " + renderer.string() + ": " + std::strerror(why));
}

} // namespace

Action add_render_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "render", "Draw a studio view (graph, partition, front, hypervolume, breakdown) to a PNG "
                  "or SVG file, with no display (runs cleave-render; 'cleave render --help')");
    command->prefix_command();
    command->fallthrough(false); // every word after "render" is cleave-render's
    command->set_help_flag(); // --help goes to cleave-render, which knows the options
    return [command] { return forward(command->remaining()); };
}

} // namespace cleave::cli
