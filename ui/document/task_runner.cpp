#include "ui/document/task_runner.hpp"

namespace cleave::ui {

TaskRunner::TaskRunner(QObject* parent) : QObject(parent) {
    // One job at a time: a superseded job still runs to its next safe point (or, if it takes no
    // control, to its end), and the next waits for it rather than competing with it for the cores.
    pool_.setMaxThreadCount(1);
}

TaskRunner::~TaskRunner() {
    cancel();
    pool_.waitForDone();
}

void TaskRunner::cancel() {
    stop();
    current_.reset();
}

void TaskRunner::stop() {
    if (current_)
        current_->cancel();
}

} // namespace cleave::ui
