// Filters the node table: every whitespace-separated term must match (case-insensitively) the
// node's name, its op or one of its output shapes.
#pragma once

#include <QSortFilterProxyModel>
#include <QStringList>

namespace cleave::ui {

class NodeFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit NodeFilterProxy(QObject* parent = nullptr);

    void setFilterText(const QString& text);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    QStringList terms_;
};

} // namespace cleave::ui
