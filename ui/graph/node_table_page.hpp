// The Nodes tab: the document's model as a table of nodes (NodeTableModel) with a filter where
// every term must match a name, an op or a shape, and a count of the nodes shown. The document's
// selection is the table's (a node, or a kernel's members); a row picked selects its node.
#pragma once

#include <QList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QTableView;

namespace cleave::ui {

class NodeTableModel;
class StudioDocument;
class TermFilterProxy;

class NodeTablePage : public QWidget {
    Q_OBJECT

public:
    explicit NodeTablePage(StudioDocument* document, QWidget* parent = nullptr);

    QTableView* view() const { return view_; }
    QLineEdit* filterEdit() const { return filterEdit_; }
    void focusFilter();

private:
    void showModel();
    void updateCount();
    void selectNodes(const QList<int>& nodes);

    StudioDocument* document_;
    NodeTableModel* nodes_;
    TermFilterProxy* proxy_;
    QTableView* view_;
    QLineEdit* filterEdit_;
    QLabel* countLabel_;
};

} // namespace cleave::ui
