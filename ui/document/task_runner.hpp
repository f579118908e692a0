// Work off the UI thread for a job with no runner of its own (reading a dataset, writing a
// package, a grouping, a measured run): `work` runs on a worker, `done` gets its result back on
// the runner's thread. Jobs run one at a time; a newer start supersedes the one before it, whose
// result is dropped, so only the newest job's `done` is called; the destructor waits for the
// worker still running.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent>
#include <functional>
#include <memory>

namespace cleave::ui {

class TaskRunner : public QObject {
    Q_OBJECT

public:
    explicit TaskRunner(QObject* parent = nullptr);
    ~TaskRunner() override; // waits for the worker still running

    template <typename Result>
    void start(std::function<Result()> work, std::function<void(Result)> done) {
        auto job = std::make_shared<int>(0); // identity of this start
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
        watcher->setFuture(QtConcurrent::run(&pool_, std::move(work)));
    }
    void cancel() { current_.reset(); } // the running job's result is dropped
    bool isRunning() const { return current_ != nullptr; }

private:
    QThreadPool pool_; // our own, so that the destructor waits for exactly our workers
    std::shared_ptr<int> current_;
};

} // namespace cleave::ui
