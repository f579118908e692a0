#include "ui/document/task_runner.hpp"

namespace cleave::ui {

TaskRunner::TaskRunner(QObject* parent) : QObject(parent) {
    // One job at a time: a superseded job still runs to its end, and the next waits for it
    // rather than competing with it for the cores.
    pool_.setMaxThreadCount(1);
}

TaskRunner::~TaskRunner() {
    current_.reset();
    pool_.waitForDone();
}

} // namespace cleave::ui
