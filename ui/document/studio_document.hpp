// A window's document (in the manner of Tiled's Document): the state the studio shows, which its
// pages and docks observe through signals rather than own, and which a project saves. It holds
// the open model and its path; every change bumps a revision, so "changed since" is a comparison
// of two numbers, never of serialised state.
#pragma once

#include "ui/document/model_load_runner.hpp"

#include <QObject>
#include <QString>

namespace cleave::ui {

class StudioDocument : public QObject {
    Q_OBJECT

public:
    explicit StudioDocument(QObject* parent = nullptr);

    const ModelPtr& model() const { return model_; }
    const QString& modelPath() const { return modelPath_; } // as opened; empty before a model
    // A model loaded from `path` replaces the one open; observers hear modelChanged.
    void setModel(const QString& path, ModelPtr model);

    // Counts every change of the document since it was made.
    quint64 revision() const { return revision_; }

signals:
    void modelChanged(const QString& path);

private:
    ModelPtr model_;
    QString modelPath_;
    quint64 revision_ = 0;
};

} // namespace cleave::ui
