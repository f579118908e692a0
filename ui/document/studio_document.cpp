#include "ui/document/studio_document.hpp"

#include <utility>

namespace cleave::ui {

StudioDocument::StudioDocument(QObject* parent) : QObject(parent) {}

void StudioDocument::setModel(const QString& path, ModelPtr model) {
    model_ = std::move(model);
    modelPath_ = path;
    ++revision_;
    emit modelChanged(path);
}

} // namespace cleave::ui
