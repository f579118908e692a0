// cleave-dse: `cleave dse` in a program of its own, the one command-line program that links
// pagmo2, so that no other command pays for its start-up. cleave runs it with the words after
// "dse"; it parses them as `cleave dse` (cleave's top level, knowing only dse), so its help,
// messages and exit codes are cleave dse's. Run alone, `cleave-dse ARGS` is `cleave dse ARGS`.
#include "cli_main.hpp"
#include "commands.hpp"
#include "progress.hpp"

#include <vector>

int main(int argc, char** argv) {
    cleave::cli::keep_freed_memory();
    CLI::App app{"", "cleave"};
    bool quiet = false;
    cleave::cli::add_cleave_top_level(app, quiet);
    const auto dse = cleave::cli::add_dse_command(app);
    static char command[] = "dse";
    std::vector<char*> words{argv[0], command};
    words.insert(words.end(), argv + 1, argv + argc);
    words.push_back(nullptr);
    cleave::cli::exit_after_command(cleave::cli::parse_and_run(
        app, static_cast<int>(words.size()) - 1, words.data(), "cleave", [&] {
            cleave::cli::set_quiet(quiet);
            return dse();
        }));
}
