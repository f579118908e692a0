#include "ui/tables/term_filter_proxy.hpp"

#include <QRegularExpression>

namespace cleave::ui {

TermFilterProxy::TermFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(SortRole);
}

QStringList TermFilterProxy::terms(const QString& text) {
    static const QRegularExpression whitespace("\\s+");
    return text.split(whitespace, Qt::SkipEmptyParts);
}

bool TermFilterProxy::matchesAll(const QString& text, const QStringList& terms) {
    for (const auto& term : terms)
        if (!text.contains(term, Qt::CaseInsensitive))
            return false;
    return true;
}

void TermFilterProxy::setFilterText(const QString& text) {
    terms_ = terms(text);
    invalidateRowsFilter();
}

bool TermFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const {
    if (terms_.isEmpty())
        return true;
    return matchesAll(sourceModel()->index(row, 0, parent).data(SearchRole).toString(), terms_);
}

} // namespace cleave::ui
