// Progress of long commands on stderr, one convention for every command: on a terminal one live
// line, rewritten in place and cleared when the work ends; anywhere else (a log, a pipe) plain
// lines, a passing state at most every few seconds, never a carriage return; nothing at all with
// the global --quiet, which leaves results and errors alone.
#pragma once

#include "core/task_control.hpp"

#include <chrono>
#include <string>

namespace cleave::cli {

void set_quiet(bool quiet);
bool quiet();

// "cleave: warning: TEXT" on stderr, unless quiet.
void warn(const std::string& text);
// "cleave: note: TEXT" on stderr, unless quiet: a documented default was taken.
void note(const std::string& text);

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

// The one way a command shows a core operation's progress: it hands the operation control(),
// whose reports print through `progress`, each after `prefix`: a lasting report as a line(),
// any other as the passing state (update()). Ctrl-C cancels it while an Interrupt holds it.
class ProgressControl {
public:
    explicit ProgressControl(Progress& progress, std::string prefix = {});

    TaskControl& control() { return control_; }
    // A line printed once, before the first report after a cancel: what happens now.
    void note_when_cancelled(std::string note) { cancelled_note_ = std::move(note); }

private:
    void print(const TaskProgress& report);

    Progress& progress_;
    std::string prefix_;
    std::string cancelled_note_;
    bool noted_ = false;
    TaskControl control_; // last: its callback prints through the members above
};

} // namespace cleave::cli
