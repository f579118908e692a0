#include "ui/document/model_load_runner.hpp"

#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/task_control.hpp"

#include <QFile>
#include <QFutureWatcher>
#include <QMetaObject>
#include <QtConcurrent>

namespace cleave::ui {

ModelLoadRunner::ModelLoadRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ModelPtr>();
}

ModelLoadRunner::~ModelLoadRunner() {
    cancel();
    // Superseded jobs were cancelled when they were replaced; all stop at their next stage.
    pool_.waitForDone();
}

void ModelLoadRunner::load(const QString& path, std::map<std::string, graph::Shape> inputShapes,
                           graph::DimBindings dims) {
    cancel();
    auto job = std::make_shared<Job>();
    job->path = path;
    job->inputShapes = std::move(inputShapes);
    job->dims = std::move(dims);
    current_ = job;
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        finish(job, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(&pool_, &ModelLoadRunner::run, job, this));
}

void ModelLoadRunner::cancel() {
    if (current_)
        current_->control.cancel();
}

ModelLoadRunner::Outcome ModelLoadRunner::run(const std::shared_ptr<Job>& job, ModelLoadRunner* loader) {
    // The job's control cancels the load; this one, part of it, posts its progress.
    const TaskControl reporting(&job->control, [job, loader](const TaskProgress& report) {
        const auto percent = static_cast<int>(report.fraction.value_or(0.0) * 100.0);
        const QString text =
            QString::fromUtf8(report.stage.data(), static_cast<qsizetype>(report.stage.size()));
        // The destructor waits for this worker, so loader outlives the queued call's posting;
        // Qt drops the call if loader is gone by the time it would run.
        QMetaObject::invokeMethod(
            loader,
            [job, loader, percent, text] {
                if (job == loader->current_ && !job->control.cancelled())
                    emit loader->progress(percent, text);
            },
            Qt::QueuedConnection);
    });
    graph::LoadOptions options;
    options.input_shapes = job->inputShapes;
    options.dims = job->dims;
    options.control = &reporting;
    try {
        return {std::make_shared<const graph::Model>(
                    graph::load_model(QFile::encodeName(job->path).toStdString(), options)),
                {},
                false};
    } catch (const Cancelled&) {
        return {nullptr, {}, true};
    } catch (const InputError& e) {
        return {nullptr, QString::fromStdString(e.what()), false};
    } catch (const std::exception& e) {
        return {nullptr, tr("%1: internal error: %2").arg(job->path, e.what()), false};
    }
}

void ModelLoadRunner::finish(const std::shared_ptr<Job>& job, const Outcome& outcome) {
    if (job != current_)
        return; // superseded by a newer load
    current_.reset();
    // A Cancel that came after the last stage still wins: the user asked not to see it.
    if (outcome.cancelled || job->control.cancelled())
        emit cancelled(job->path);
    else if (outcome.model) {
        loadedShapes_ = job->inputShapes;
        emit loaded(job->path, outcome.model);
    }
    else
        emit failed(job->path, outcome.error);
}

} // namespace cleave::ui
