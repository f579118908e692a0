// One protocol for every long operation in core (an import, a layout, a search, a training, a
// calibration, a measurement): the caller owns a TaskControl and may cancel, pause or resume it
// from any thread; the work calls check() or report() at its safe points, where a cancel throws
// cleave::Cancelled (the one way long work stops) and a pause holds it until resumed. report()
// also hands the caller's callback how far the work is and what it is doing.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace cleave {

// Thrown at a safe point of work whose TaskControl, or a parent of it, was cancelled.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

struct TaskProgress {
    // Of the whole work, from 0 to 1 and never decreasing; empty: not known (a line of news).
    std::optional<double> fraction;
    std::string_view stage; // what is being done, for people; valid during the callback only
    // A step worth a line of its own in a log (a phase begun or ended, a note), not a passing
    // state that the next report replaces.
    bool lasting = false;
};

class TaskControl {
public:
    // Called on the working thread; a front end posts what it shows to its own thread.
    using ProgressCallback = std::function<void(const TaskProgress&)>;

    TaskControl() = default;
    explicit TaskControl(ProgressCallback on_progress);
    // A part of `parent`'s work with progress of its own (none: its reports go nowhere):
    // cancelling or pausing the parent stops or holds it too; cancelling it leaves the parent.
    TaskControl(const TaskControl* parent, ProgressCallback on_progress = {});
    TaskControl(const TaskControl&) = delete;
    TaskControl& operator=(const TaskControl&) = delete;

    // From any thread, or a signal handler: each is one lock-free atomic operation. A cancel is
    // final; the work stops at its next safe point.
    void cancel() { state_.fetch_or(kCancelled, std::memory_order_release); }
    void pause() { state_.fetch_or(kPaused, std::memory_order_release); }
    void resume() { state_.fetch_and(~kPaused, std::memory_order_release); }
    bool cancelled() const; // this control or a parent
    bool paused() const;    // this control or a parent, whether or not the work has stopped yet

    // From the working thread, at a safe point: throws Cancelled once cancelled; while paused,
    // waits for a resume or a cancel. One atomic load when neither is set.
    void check() const {
        if (state_.load(std::memory_order_acquire) != 0 || parent_)
            hold_or_throw();
    }
    // Hands `progress` to the callback, then check()s.
    void report(const TaskProgress& progress) const;

private:
    static constexpr unsigned kCancelled = 1;
    static constexpr unsigned kPaused = 2;
    static_assert(std::atomic<unsigned>::is_always_lock_free, "cancel() must be signal-safe");

    unsigned chain_state() const; // this control's state and its parents'
    void hold_or_throw() const;

    std::atomic<unsigned> state_{0};
    const TaskControl* parent_ = nullptr;
    ProgressCallback on_progress_;
};

// Work may be given no control (a null pointer): then nothing is reported and nothing stops it.
inline void checkpoint(const TaskControl* control) {
    if (control)
        control->check();
}
inline void report_progress(const TaskControl* control, const TaskProgress& progress) {
    if (control)
        control->report(progress);
}
// A lasting line of news, how far the work is not known (a calibration's steps).
inline void report_line(const TaskControl* control, std::string_view line) {
    report_progress(control, {.fraction = std::nullopt, .stage = line, .lasting = true});
}

} // namespace cleave
