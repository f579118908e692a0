// Predicts latency (latency_report) off the UI thread. A new request supersedes the one before
// it, whose report is dropped, so only the newest ends in predicted().
#pragma once

#include "ui/document/latency_report.hpp"

#include <QObject>
#include <QThreadPool>

namespace cleave::ui {

class LatencyRunner : public QObject {
    Q_OBJECT

public:
    explicit LatencyRunner(QObject* parent = nullptr);
    ~LatencyRunner() override; // waits for the prediction still running

    void start(LatencyRequest request);
    bool isRunning() const { return current_ != nullptr; }

signals:
    void predicted(cleave::ui::LatencyReportPtr report);

private:
    struct Job {
        LatencyRequest request;
    };

    QThreadPool pool_;
    std::shared_ptr<Job> current_;
};

} // namespace cleave::ui
