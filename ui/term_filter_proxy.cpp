#include "term_filter_proxy.hpp"

#include <QRegularExpression>

namespace cleave::ui {

TermFilterProxy::TermFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(SortRole);
}

void TermFilterProxy::setFilterText(const QString& text) {
    terms_ = text.split(QRegularExpression("\\s+"), Qt::SkipEmptyParts);
    invalidateRowsFilter();
}

bool TermFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const {
    if (terms_.isEmpty())
        return true;
    const QString text = sourceModel()->index(row, 0, parent).data(SearchRole).toString();
    for (const auto& term : terms_)
        if (!text.contains(term, Qt::CaseInsensitive))
            return false;
    return true;
}

} // namespace cleave::ui
