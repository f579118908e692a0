// Ctrl-C for long commands: while an Interrupt is alive, SIGINT only raises its flag, so the
// command can stop where it chooses (after a generation, between networks) and leave the user's
// files whole; the previous handler comes back when it goes.
#pragma once

#include <csignal>

namespace cleave::cli {

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
