#include "interrupt.hpp"

#include <atomic>

namespace cleave::cli {

namespace {

std::atomic<bool> raised_flag{false};

extern "C" void on_interrupt(int) {
    raised_flag = true;
}

} // namespace

Interrupt::Interrupt() : previous_(std::signal(SIGINT, on_interrupt)) {
    raised_flag = false;
}

Interrupt::~Interrupt() {
    std::signal(SIGINT, previous_);
}

bool Interrupt::raised() const {
    return raised_flag;
}

} // namespace cleave::cli
