// Loads a model off the UI thread: progress arrives as signals on the UI thread, Cancel stops
// the load at its next stage, and a bad file ends in failed() with the importer's message.
#pragma once

#include "core/graph/dim_bindings.hpp"
#include "core/task_control.hpp"
#include "ui/document/core_ptrs.hpp"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <map>
#include <memory>
#include <string>

namespace cleave::ui {

class ModelLoadRunner : public QObject {
    Q_OBJECT

public:
    explicit ModelLoadRunner(QObject* parent = nullptr);
    ~ModelLoadRunner() override; // cancels and waits for the workers still running

    // Starts loading and returns at once. A load still running is cancelled and its outcome
    // never reported, so only the newest request ends in loaded(), failed() or cancelled().
    // `inputShapes`: dims for graph inputs by name, as --input-shape gives them (a project's);
    // `dims`: the symbolic dims bound, as --dim, --batch, --prefill and --decode give them.
    void load(const QString& path, std::map<std::string, graph::Shape> inputShapes = {},
              graph::DimBindings dims = {});
    void cancel();
    bool isLoading() const { return current_ != nullptr; }
    // The input shapes the last model that ended in loaded() was read with.
    const std::map<std::string, graph::Shape>& loadedInputShapes() const { return loadedShapes_; }

signals:
    void progress(int percent, const QString& stage);
    void loaded(const QString& path, cleave::ui::ModelPtr model);
    void failed(const QString& path, const QString& message);
    void cancelled(const QString& path);

private:
    struct Job {
        QString path;
        std::map<std::string, graph::Shape> inputShapes;
        graph::DimBindings dims;
        TaskControl control; // cancel() cancels it
    };
    struct Outcome {
        ModelPtr model;
        QString error;
        bool cancelled = false;
    };

    static Outcome run(const std::shared_ptr<Job>& job, ModelLoadRunner* loader);
    void finish(const std::shared_ptr<Job>& job, const Outcome& outcome);

    // Our own pool, so that the destructor can wait for exactly our workers.
    QThreadPool pool_;
    std::shared_ptr<Job> current_;
    std::map<std::string, graph::Shape> loadedShapes_;
};

} // namespace cleave::ui
