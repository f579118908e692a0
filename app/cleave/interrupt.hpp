// Ctrl-C for long commands: while an Interrupt is alive, SIGINT only raises its flag and cancels
// the command's TaskControl, so the work stops at its next safe point (after a generation,
// between networks) and leaves the user's files whole; the previous handler comes back when it
// goes.
#pragma once

#include "core/task_control.hpp"

#include <csignal>

namespace cleave::cli {

// The exit status of a command Ctrl-C stopped: 128 + SIGINT, what a shell reports for a program
// the signal ended, so scripts see the same either way.
inline constexpr int kInterruptedExit = 128 + SIGINT;

class Interrupt {
public:
    explicit Interrupt(TaskControl& control);
    ~Interrupt();
    Interrupt(const Interrupt&) = delete;
    Interrupt& operator=(const Interrupt&) = delete;

    bool raised() const;

private:
    void (*previous_)(int);
};

} // namespace cleave::cli
