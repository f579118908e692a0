#include "ui/graph/node_table_page.hpp"

#include "ui/document/studio_document.hpp"
#include "ui/graph/node_table_model.hpp"
#include "ui/tables/term_filter_proxy.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>

namespace cleave::ui {

NodeTablePage::NodeTablePage(StudioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), nodes_(new NodeTableModel(this)),
      proxy_(new TermFilterProxy(this)), view_(new QTableView(this)),
      filterEdit_(new QLineEdit(this)), countLabel_(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    auto* filterRow = new QHBoxLayout;
    filterEdit_->setPlaceholderText(
        tr("Filter by name, op or shape; every term must match (Ctrl+F)"));
    filterEdit_->setClearButtonEnabled(true);
    filterEdit_->setAcceptDrops(false); // a dropped model opens; its URL is no filter text
    new QShortcut(QKeySequence(Qt::Key_Escape), filterEdit_, filterEdit_, &QLineEdit::clear,
                  Qt::WidgetShortcut);
    filterRow->addWidget(filterEdit_, 1);
    filterRow->addWidget(countLabel_);
    layout->addLayout(filterRow);
    layout->addWidget(view_, 1);

    proxy_->setSourceModel(nodes_);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(NodeTableModel::Index, Qt::AscendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    view_->setWordWrap(false);
    // Node names share long prefixes (/layer1/layer1.0/...); their ends tell them apart.
    view_->setTextElideMode(Qt::ElideMiddle);
    auto* header = view_->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(NodeTableModel::Name, QHeaderView::Stretch);
    header->setHighlightSections(false);

    connect(filterEdit_, &QLineEdit::textChanged, this, [this](const QString& text) {
        proxy_->setFilterText(text);
        updateCount();
    });
    connect(document_, &StudioDocument::modelChanged, this, &NodeTablePage::showModel);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    document_->selectNode(proxy_->mapToSource(current).row());
            });
    connect(document_, &StudioDocument::selectionChanged, this, [this](const Selection& picked) {
        if (picked.node >= 0)
            return selectNodes({picked.node});
        if (picked.kernel < 0 || !document_->kernels())
            return;
        const auto& nodes =
            document_->kernels()->kernels[static_cast<std::size_t>(picked.kernel)].nodes;
        selectNodes(QList<int>(nodes.begin(), nodes.end()));
    });
    showModel();
}

void NodeTablePage::focusFilter() {
    filterEdit_->setFocus(Qt::ShortcutFocusReason);
    filterEdit_->selectAll();
}

void NodeTablePage::showModel() {
    nodes_->setModel(document_->model());
    view_->resizeColumnsToContents();
    view_->horizontalHeader()->setSectionResizeMode(NodeTableModel::Name, QHeaderView::Stretch);
    updateCount();
}

void NodeTablePage::updateCount() {
    const QLocale locale;
    const int all = nodes_->rowCount();
    const int shown = proxy_->rowCount();
    countLabel_->setText(
        shown == all ? tr("%1 nodes").arg(locale.toString(all))
                     : tr("%1 of %2 nodes").arg(locale.toString(shown), locale.toString(all)));
}

// The rows of these nodes selected, the first scrolled to; the current row stays.
void NodeTablePage::selectNodes(const QList<int>& nodes) {
    auto* selection = view_->selectionModel();
    QItemSelection rows;
    for (const int node : nodes) {
        const auto index = proxy_->mapFromSource(nodes_->index(node, 0));
        if (index.isValid())
            rows.select(index, index.siblingAtColumn(NodeTableModel::ColumnCount - 1));
    }
    selection->select(rows, QItemSelectionModel::ClearAndSelect);
    if (!rows.isEmpty())
        view_->scrollTo(rows.first().topLeft(), QAbstractItemView::PositionAtCenter);
}

} // namespace cleave::ui
