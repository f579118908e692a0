#include "node_filter_proxy.hpp"

#include "node_table_model.hpp"

#include <QRegularExpression>

namespace cleave::ui {

NodeFilterProxy::NodeFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(NodeTableModel::SortRole);
}

void NodeFilterProxy::setFilterText(const QString& text) {
    terms_ = text.split(QRegularExpression("\\s+"), Qt::SkipEmptyParts);
    invalidateRowsFilter();
}

bool NodeFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const {
    if (terms_.isEmpty())
        return true;
    const QString text =
        sourceModel()->index(row, 0, parent).data(NodeTableModel::SearchRole).toString();
    for (const auto& term : terms_)
        if (!text.contains(term, Qt::CaseInsensitive))
            return false;
    return true;
}

} // namespace cleave::ui
