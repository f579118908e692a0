// The graph tab: a search row (every term must match a node's name or op; Enter and Shift+Enter
// step through the matches), the choice of colours (op category or kernel latency), zoom and fit
// buttons, and the graph view below. It shows the document's kernels, latency and selection, and
// what is picked in the view becomes the document's selection.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace cleave::ui {

class GraphView;
class StudioDocument;

class GraphPage : public QWidget {
    Q_OBJECT

public:
    explicit GraphPage(StudioDocument* document, QWidget* parent = nullptr);

    GraphView* view() const { return view_; }
    QLineEdit* searchEdit() const { return searchEdit_; }
    QComboBox* colourBox() const { return colours_; }
    QToolButton* collapseButton() const { return collapse_; }
    QToolButton* foldBlocksButton() const { return foldBlocks_; }
    QString matchText() const; // "2 of 5", "no match", or empty

    void focusSearch();

private:
    void showMatches(int current, int count);
    void observe();

    StudioDocument* document_;
    GraphView* view_;
    bool picking_ = false; // the view's own pick: it shows it already
    QLineEdit* searchEdit_;
    QLabel* matchLabel_;
    QComboBox* colours_;
    QToolButton* collapse_ = nullptr;
    QToolButton* foldBlocks_ = nullptr;
    QToolButton* previous_;
    QToolButton* next_;
};

} // namespace cleave::ui
