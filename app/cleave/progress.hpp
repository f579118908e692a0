// Progress of long commands on stderr, one convention for every command: on a terminal one live
// line, rewritten in place and cleared when the work ends; anywhere else (a log, a pipe) plain
// lines, a passing state at most every few seconds, never a carriage return; nothing at all with
// the global --quiet, which leaves results and errors alone.
#pragma once

#include <chrono>
#include <string>

namespace cleave::cli {

void set_quiet(bool quiet);
bool quiet();

// "cleave: warning: TEXT" on stderr, unless quiet.
void warn(const std::string& text);

class Progress {
public:
    Progress();
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // The state now (a generation, a network in a list): the live line on a terminal; elsewhere
    // a line of its own when none was printed for a while.
    void update(const std::string& state);
    // A line that stays: a finished stage, a note, a warning.
    void line(const std::string& text);
    // Clears the live line (the destructor does too).
    void clear();

private:
    bool terminal_;
    std::size_t live_width_ = 0;
    std::chrono::steady_clock::time_point last_printed_{};
};

} // namespace cleave::cli
