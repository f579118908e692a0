#include "interrupt.hpp"

#include <atomic>

namespace cleave::cli {

namespace {

std::atomic<bool> raised_flag{false};
std::atomic<TaskControl*> interrupted_control{nullptr};
static_assert(std::atomic<TaskControl*>::is_always_lock_free);

// Only lock-free atomic operations, as a signal handler may do (TaskControl::cancel is one).
extern "C" void on_interrupt(int) {
    raised_flag = true;
    if (TaskControl* control = interrupted_control.load())
        control->cancel();
}

} // namespace

Interrupt::Interrupt(TaskControl& control) {
    raised_flag = false;
    interrupted_control = &control;
    previous_ = std::signal(SIGINT, on_interrupt);
}

Interrupt::~Interrupt() {
    std::signal(SIGINT, previous_);
    interrupted_control = nullptr;
}

bool Interrupt::raised() const {
    return raised_flag;
}

} // namespace cleave::cli
