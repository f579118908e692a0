#include "ui/graph/graph_layout_runner.hpp"

#include "core/task_control.hpp"

#include <QFutureWatcher>
#include <QtConcurrent>

namespace cleave::ui {

GraphLayoutRunner::GraphLayoutRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<LaidOutGraphPtr>();
    // Graphviz runs one layout at a time anyway (core/layout serializes it); a second thread
    // would only wait on its lock.
    pool_.setMaxThreadCount(1);
}

GraphLayoutRunner::~GraphLayoutRunner() {
    cancel();
    // A cancelled job stops at its next step; dot itself cannot be interrupted, so this waits
    // for the layout in progress.
    pool_.waitForDone();
}

void GraphLayoutRunner::start(ModelPtr model, KernelGraphPtr kernels,
                              std::vector<layout::Size> node_sizes) {
    cancel();
    auto job = std::make_shared<Job>();
    job->model = std::move(model);
    job->kernels = std::move(kernels);
    job->node_sizes = std::move(node_sizes);
    current_ = job;
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        finish(job, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(&pool_, &GraphLayoutRunner::run, job));
}

void GraphLayoutRunner::cancel() {
    if (current_)
        current_->control.cancel();
    current_.reset();
}

GraphLayoutRunner::Outcome GraphLayoutRunner::run(const std::shared_ptr<Job>& job) {
    if (job->control.cancelled())
        return {}; // superseded while it waited for the pool
    layout::LayoutOptions options;
    options.kernels = job->kernels.get();
    options.node_sizes = job->node_sizes;
    options.control = &job->control;
    try {
        auto graph = std::make_shared<LaidOutGraph>();
        graph->model = job->model;
        graph->kernels = job->kernels;
        graph->layout = layout::layout_graph(*job->model, options);
        return {std::move(graph), {}};
    } catch (const Cancelled&) {
        return {};
    } catch (const std::exception& e) {
        return {nullptr, QString::fromStdString(e.what())};
    }
}

void GraphLayoutRunner::finish(const std::shared_ptr<Job>& job, const Outcome& outcome) {
    if (job != current_)
        return; // cancelled or superseded
    current_.reset();
    if (outcome.graph)
        emit laidOut(outcome.graph);
    else
        emit failed(outcome.error);
}

} // namespace cleave::ui
