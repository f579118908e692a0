// The loaded model at a glance: file, producer, opsets, inputs and outputs, node and parameter
// counts, GMACs and GFLOPs, nodes per op type and the importer's warnings.
#pragma once

#include "ui/document/core_ptrs.hpp"

#include <QDockWidget>

class QTextBrowser;

namespace cleave::ui {

class StudioDocument;

// Shows the document's model.
class ModelSummaryDock : public QDockWidget {
    Q_OBJECT

public:
    explicit ModelSummaryDock(StudioDocument* document, QWidget* parent = nullptr);

    void setModel(const ModelPtr& model);
    QString text() const; // the summary as plain text

private:
    QTextBrowser* browser_;
};

} // namespace cleave::ui
