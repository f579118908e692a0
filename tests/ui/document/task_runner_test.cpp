// TaskRunner's jobs and their TaskControl: stop() cancels the running job, which returns saying
// so, and `done` gets that; cancel() cancels it and drops its result; a newer start cancels the
// job before it; the destructor cancels the job still running and waits for it; work that takes
// no control runs as before.
#include "ui/document/task_runner.hpp"

#include <QtTest>
#include <atomic>
#include <thread>

using cleave::Cancelled;
using cleave::TaskControl;
using cleave::ui::TaskRunner;

namespace {

// Work that runs until its control is cancelled, then says so.
struct UntilCancelled {
    std::atomic<bool> started = false;
    std::atomic<bool> returned = false;

    QString operator()(const TaskControl& control) {
        started = true;
        try {
            for (;;) {
                control.check();
                std::this_thread::yield();
            }
        } catch (const Cancelled&) {
            returned = true;
            return "cancelled";
        }
    }
};

} // namespace

class TaskRunnerTest : public QObject {
    Q_OBJECT

private slots:
    void stopCancelsTheJobAndKeepsItsResult() {
        TaskRunner runner;
        UntilCancelled work;
        QString result;
        runner.start<QString>([&](const TaskControl& c) { return work(c); },
                              [&](const QString& r) { result = r; });
        QTRY_VERIFY(work.started);
        QVERIFY(runner.isRunning());
        runner.stop();
        QTRY_COMPARE(result, QString("cancelled"));
        QVERIFY(!runner.isRunning());
    }

    void cancelStopsTheJobAndDropsItsResult() {
        TaskRunner runner;
        UntilCancelled work;
        bool first_done = false;
        runner.start<QString>([&](const TaskControl& c) { return work(c); },
                              [&](const QString&) { first_done = true; });
        QTRY_VERIFY(work.started);
        runner.cancel();
        QVERIFY(!runner.isRunning());
        QTRY_VERIFY(work.returned);
        // Jobs run one at a time: once the next one is done, the first one's end has been seen.
        int next = 0;
        runner.start<int>([] { return 7; }, [&](int r) { next = r; });
        QTRY_COMPARE(next, 7);
        QVERIFY(!first_done);
    }

    void aNewerStartCancelsTheJobBefore() {
        TaskRunner runner;
        UntilCancelled first;
        bool first_done = false;
        runner.start<QString>([&](const TaskControl& c) { return first(c); },
                              [&](const QString&) { first_done = true; });
        QTRY_VERIFY(first.started);
        QString second;
        runner.start<QString>([] { return QString("second"); },
                              [&](const QString& r) { second = r; });
        QTRY_COMPARE(second, QString("second"));
        QVERIFY(first.returned);
        QVERIFY(!first_done);
    }

    void theDestructorCancelsTheRunningJob() {
        UntilCancelled work;
        {
            TaskRunner runner;
            runner.start<QString>([&](const TaskControl& c) { return work(c); },
                                  [](const QString&) {});
            QTRY_VERIFY(work.started);
        } // without the cancel this would wait for ever
        QVERIFY(work.returned);
    }
};

QTEST_GUILESS_MAIN(TaskRunnerTest)
#include "task_runner_test.moc"
