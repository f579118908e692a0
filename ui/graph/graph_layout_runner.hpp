// Lays a model out (core/layout) off the UI thread for the graph view. A new request cancels the
// one before it, whose outcome is never reported, so only the newest ends in laidOut() or failed().
#pragma once

#include "core/fusion/kernel_graph.hpp"
#include "core/layout/graph_layout.hpp"
#include "core/task_control.hpp"
#include "ui/document/core_ptrs.hpp"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <memory>
#include <vector>

namespace cleave::ui {

// A layout together with the model and kernels it was computed for.
struct LaidOutGraph {
    ModelPtr model;
    KernelGraphPtr kernels; // may be null: no groups
    layout::GraphLayout layout;
};
using LaidOutGraphPtr = std::shared_ptr<const LaidOutGraph>;

class GraphLayoutRunner : public QObject {
    Q_OBJECT

public:
    explicit GraphLayoutRunner(QObject* parent = nullptr);
    ~GraphLayoutRunner() override; // cancels and waits for the workers still running

    // Starts a layout and returns at once; node_sizes: one per node, as the view will draw them.
    void start(ModelPtr model, KernelGraphPtr kernels, std::vector<layout::Size> node_sizes);
    void cancel();
    bool isRunning() const { return current_ != nullptr; }

signals:
    void laidOut(cleave::ui::LaidOutGraphPtr graph);
    void failed(const QString& message);

private:
    struct Job {
        ModelPtr model;
        KernelGraphPtr kernels;
        std::vector<layout::Size> node_sizes;
        TaskControl control; // cancel() cancels it
    };
    struct Outcome {
        LaidOutGraphPtr graph;
        QString error;
    };

    static Outcome run(const std::shared_ptr<Job>& job);
    void finish(const std::shared_ptr<Job>& job, const Outcome& outcome);

    // Our own pool, so that the destructor waits for exactly our workers.
    QThreadPool pool_;
    std::shared_ptr<Job> current_;
};

} // namespace cleave::ui

Q_DECLARE_METATYPE(cleave::ui::LaidOutGraphPtr)
