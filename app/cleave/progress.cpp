#include "progress.hpp"

#include <cstdio>
#include <unistd.h>
#include <utility>

namespace cleave::cli {

namespace {

bool quiet_flag = false;

// Off a terminal, a passing state is printed at most this often.
constexpr std::chrono::seconds kPlainInterval{5};

} // namespace

void set_quiet(bool quiet) {
    quiet_flag = quiet;
}

bool quiet() {
    return quiet_flag;
}

void warn(const std::string& text) {
    if (!quiet_flag)
        std::fprintf(stderr, "cleave: warning: %s\n", text.c_str());
}

void note(const std::string& text) {
    if (!quiet_flag)
        std::fprintf(stderr, "cleave: note: %s\n", text.c_str());
}

Progress::Progress() : terminal_(::isatty(STDERR_FILENO) == 1) {}

Progress::~Progress() {
    clear();
}

void Progress::update(const std::string& state) {
    if (quiet_flag)
        return;
    if (terminal_) {
        // Pad over what the last live line left, then return to the line's start.
        std::fprintf(stderr, "\r%s", state.c_str());
        if (state.size() < live_width_)
            std::fprintf(stderr, "%*s", static_cast<int>(live_width_ - state.size()), "");
        std::fputc('\r', stderr);
        std::fflush(stderr);
        live_width_ = state.size();
        return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (last_printed_ != std::chrono::steady_clock::time_point{} &&
        now - last_printed_ < kPlainInterval)
        return;
    last_printed_ = now;
    std::fprintf(stderr, "%s\n", state.c_str());
}

void Progress::line(const std::string& text) {
    if (quiet_flag)
        return;
    clear();
    std::fprintf(stderr, "%s\n", text.c_str());
    last_printed_ = std::chrono::steady_clock::now();
}

void Progress::clear() {
    if (!terminal_ || live_width_ == 0)
        return;
    std::fprintf(stderr, "%*s\r", static_cast<int>(live_width_), "");
    std::fflush(stderr);
    live_width_ = 0;
}

ProgressControl::ProgressControl(Progress& progress, std::string prefix)
    : progress_(progress), prefix_(std::move(prefix)),
      control_([this](const TaskProgress& report) { print(report); }) {}

void ProgressControl::print(const TaskProgress& report) {
    if (!noted_ && !cancelled_note_.empty() && control_.cancelled()) {
        progress_.line(cancelled_note_);
        noted_ = true;
    }
    const std::string state = prefix_ + std::string(report.stage);
    if (report.lasting)
        progress_.line(state);
    else
        progress_.update(state);
}

} // namespace cleave::cli
