#include "model_loader.hpp"

#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"

#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent>

namespace cleave::ui {

ModelLoader::ModelLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ModelPtr>();
    connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, &ModelLoader::finish);
}

ModelLoader::~ModelLoader() {
    cancel();
    watcher_.waitForFinished();
}

void ModelLoader::load(const QString& path) {
    if (isLoading()) {
        cancel();
        watcher_.waitForFinished();
    }
    path_ = path;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    QPointer<ModelLoader> self(this);
    auto flag = cancel_;
    const std::string file = path.toStdString();
    watcher_.setFuture(QtConcurrent::run([self, flag, file]() -> Outcome {
        graph::LoadOptions options;
        options.progress = [self, flag](double fraction, std::string_view stage) {
            const auto percent = static_cast<int>(fraction * 100.0);
            const QString text =
                QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
            QMetaObject::invokeMethod(
                self.data(),
                [self, percent, text] {
                    if (self)
                        emit self->progress(percent, text);
                },
                Qt::QueuedConnection);
            return !flag->load();
        };
        try {
            return {
                std::make_shared<const graph::Model>(graph::load_model(file, options)), {}, false};
        } catch (const Cancelled&) {
            return {nullptr, {}, true};
        } catch (const InputError& e) {
            return {nullptr, QString::fromStdString(e.what()), false};
        } catch (const std::exception& e) {
            return {nullptr, QString("internal error: %1").arg(e.what()), false};
        }
    }));
}

void ModelLoader::cancel() {
    if (cancel_)
        cancel_->store(true);
}

bool ModelLoader::isLoading() const {
    return watcher_.isRunning();
}

void ModelLoader::finish() {
    const Outcome outcome = watcher_.result();
    if (outcome.cancelled)
        emit cancelled(path_);
    else if (outcome.model)
        emit loaded(path_, outcome.model);
    else
        emit failed(path_, outcome.error);
}

} // namespace cleave::ui
