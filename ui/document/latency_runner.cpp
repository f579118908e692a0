#include "ui/document/latency_runner.hpp"

#include <QFutureWatcher>
#include <QtConcurrent>

namespace cleave::ui {

LatencyRunner::LatencyRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<LatencyReportPtr>();
    pool_.setMaxThreadCount(1);
}

LatencyRunner::~LatencyRunner() {
    current_.reset();
    pool_.waitForDone();
}

void LatencyRunner::start(LatencyRequest request) {
    auto job = std::make_shared<Job>();
    job->request = std::move(request);
    current_ = job;
    auto* watcher = new QFutureWatcher<LatencyReportPtr>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        if (job != current_)
            return; // superseded
        current_.reset();
        emit predicted(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(&pool_, [job]() -> LatencyReportPtr {
        return std::make_shared<const LatencyReport>(predict_latency(job->request));
    }));
}

} // namespace cleave::ui
