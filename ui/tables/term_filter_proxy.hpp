// Filters a table by whitespace-separated terms that must all match (case-insensitively) the
// text a row offers under SearchRole; sorts by SortRole so numbers sort as numbers. The node and
// kernel tables both use it.
#pragma once

#include <QSortFilterProxyModel>
#include <QStringList>

namespace cleave::ui {

class TermFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int SearchRole = Qt::UserRole + 2; // read from column 0 of each row

    explicit TermFilterProxy(QObject* parent = nullptr);

    void setFilterText(const QString& text);

    // The matching rule, for searches outside a table (the graph view's): text split at
    // whitespace into terms, and whether every term occurs in a text.
    static QStringList terms(const QString& text);
    static bool matchesAll(const QString& text, const QStringList& terms);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    QStringList terms_;
};

} // namespace cleave::ui
