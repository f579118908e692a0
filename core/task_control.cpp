#include "task_control.hpp"

#include <chrono>
#include <thread>
#include <utility>

namespace cleave {

namespace {

// A paused task looks again this often. Polling rather than a condition variable keeps cancel,
// pause and resume single atomic operations, safe in a signal handler (the CLI's Ctrl-C) and
// free of locks; a resume or cancel is seen well within a person's reaction time.
constexpr std::chrono::milliseconds kPausePoll{10};

} // namespace

TaskControl::TaskControl(ProgressCallback on_progress) : on_progress_(std::move(on_progress)) {}

TaskControl::TaskControl(const TaskControl* parent, ProgressCallback on_progress)
    : parent_(parent), on_progress_(std::move(on_progress)) {}

unsigned TaskControl::chain_state() const {
    unsigned state = 0;
    for (const TaskControl* c = this; c; c = c->parent_)
        state |= c->state_.load(std::memory_order_acquire);
    return state;
}

bool TaskControl::cancelled() const {
    return (chain_state() & kCancelled) != 0;
}

bool TaskControl::paused() const {
    return (chain_state() & kPaused) != 0;
}

void TaskControl::hold_or_throw() const {
    for (;;) {
        const unsigned state = chain_state();
        if (state & kCancelled)
            throw Cancelled();
        if (!(state & kPaused))
            return;
        std::this_thread::sleep_for(kPausePoll);
    }
}

void TaskControl::report(const TaskProgress& progress) const {
    if (on_progress_)
        on_progress_(progress);
    check();
}

} // namespace cleave
