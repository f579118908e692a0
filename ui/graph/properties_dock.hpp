// What the user clicked, in detail: a node (name, op, attributes sorted, inputs and outputs with
// dtype and shape, MACs, FLOPs, weights, its kernel) or a kernel (type, member nodes, MACs, bytes
// in and out, weights), whichever the document has selected. Names of kernels and nodes are links
// that select them.
#pragma once

#include "ui/document/core_ptrs.hpp"

#include <QDockWidget>

class QTextBrowser;

namespace cleave::ui {

class StudioDocument;

class PropertiesDock : public QDockWidget {
    Q_OBJECT

public:
    explicit PropertiesDock(StudioDocument* document, QWidget* parent = nullptr);

    // The model and its kernels (either may be null); shows nothing until a node or kernel is.
    void setGraph(ModelPtr model, KernelGraphPtr kernels);
    void showNode(int node);
    void showKernel(int kernel);
    void showNothing();

    QString text() const; // what the dock shows, as plain text
    int shownNode() const { return node_; }
    int shownKernel() const { return kernel_; }

private:
    StudioDocument* document_;
    QTextBrowser* browser_;
    ModelPtr model_;
    KernelGraphPtr kernels_;
    int node_ = -1;
    int kernel_ = -1;
};

} // namespace cleave::ui
