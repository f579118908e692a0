// Ctrl-C for long commands: while an Interrupt is alive, SIGINT only raises its flag, so the
// command can stop where it chooses (after a generation, between networks) and leave the user's
// files whole; the previous handler comes back when it goes.
#pragma once

#include <csignal>

namespace cleave::cli {

// The exit status of a command Ctrl-C stopped: 128 + SIGINT, what a shell reports for a program
// the signal ended, so scripts see the same either way.
inline constexpr int kInterruptedExit = 128 + SIGINT;

class Interrupt {
public:
    Interrupt();
    ~Interrupt();
    Interrupt(const Interrupt&) = delete;
    Interrupt& operator=(const Interrupt&) = delete;

    bool raised() const;

private:
    void (*previous_)(int);
};

} // namespace cleave::cli
