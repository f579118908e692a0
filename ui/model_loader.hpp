// Loads a model off the UI thread: progress arrives as signals on the UI thread, Cancel stops
// the load at its next stage, and a bad file ends in failed() with the importer's message.
#pragma once

#include "core/graph/model.hpp"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>

namespace cleave::ui {

using ModelPtr = std::shared_ptr<const graph::Model>;

class ModelLoader : public QObject {
    Q_OBJECT

public:
    explicit ModelLoader(QObject* parent = nullptr);
    ~ModelLoader() override;

    // Starts loading; a load already running is cancelled first.
    void load(const QString& path);
    void cancel();
    bool isLoading() const;

signals:
    void progress(int percent, const QString& stage);
    void loaded(const QString& path, cleave::ui::ModelPtr model);
    void failed(const QString& path, const QString& message);
    void cancelled(const QString& path);

private:
    struct Outcome {
        ModelPtr model;
        QString error;
        bool cancelled = false;
    };

    void finish();

    QFutureWatcher<Outcome> watcher_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    QString path_;
};

} // namespace cleave::ui

Q_DECLARE_METATYPE(cleave::ui::ModelPtr)
