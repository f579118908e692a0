// Work off the UI thread for a job with no runner of its own (reading a dataset, writing a
// package, a grouping, a measured run): `work` runs on a worker, `done` gets its result back on
// the runner's thread. Jobs run one at a time; a newer start supersedes the one before it, whose
// result is dropped, so only the newest job's `done` is called; the destructor waits for the
// worker still running. Each job has a TaskControl of its own, which `work` may take to stop at
// its safe points: cancel(), stop(), a newer start and the destructor cancel it.
#pragma once

#include "core/task_control.hpp"

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent>
#include <functional>
#include <memory>
#include <type_traits>

namespace cleave::ui {

class TaskRunner : public QObject {
    Q_OBJECT

public:
    explicit TaskRunner(QObject* parent = nullptr);
    ~TaskRunner() override; // cancels the job still running and waits for its worker

    // `work`: Result() or Result(const TaskControl&).
    template <typename Result, typename Work>
    void start(Work work, std::function<void(Result)> done) {
        cancel();
        auto job = std::make_shared<TaskControl>(); // also the identity of this start
        current_ = job;
        auto* watcher = new QFutureWatcher<Result>(this);
        connect(watcher, &QFutureWatcherBase::finished, this,
                [this, watcher, job, done = std::move(done)] {
                    watcher->deleteLater();
                    if (job != current_)
                        return; // superseded or cancelled
                    current_.reset();
                    done(watcher->result());
                });
        if constexpr (std::is_invocable_v<Work&, const TaskControl&>)
            watcher->setFuture(QtConcurrent::run(
                &pool_, [work = std::move(work), job]() mutable -> Result { return work(*job); }));
        else
            watcher->setFuture(QtConcurrent::run(&pool_, std::move(work)));
    }
    // The running job is cancelled and its result dropped.
    void cancel();
    // The running job is cancelled; `done` still gets what its work returns (saying so).
    void stop();
    bool isRunning() const { return current_ != nullptr; }

private:
    QThreadPool pool_; // our own, so that the destructor waits for exactly our workers
    std::shared_ptr<TaskControl> current_;
};

} // namespace cleave::ui
