#include "ui/tables/count_cell.hpp"

#include "ui/tables/term_filter_proxy.hpp"

#include <QLocale>

namespace cleave::ui {

QVariant countCell(std::int64_t value, int role) {
    if (role == TermFilterProxy::SortRole)
        return QVariant::fromValue<qlonglong>(value);
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::DisplayRole)
        return value == 0 ? QString("–") : QLocale().toString(static_cast<qlonglong>(value));
    return {};
}

QVariant rowNumberCell(int row, int role) {
    if (role == Qt::DisplayRole || role == TermFilterProxy::SortRole)
        return row;
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

} // namespace cleave::ui
