#include "ui/cluster/cluster_link_model.hpp"

#include "ui/document/cluster_document.hpp"

#include <QFont>

namespace cleave::ui {

ClusterLinkModel::ClusterLinkModel(ClusterDocument* document, QObject* parent)
    : QAbstractTableModel(parent), document_(document) {
    connect(document_, &ClusterDocument::changed, this, [this] {
        beginResetModel();
        endResetModel();
    });
}

int ClusterLinkModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 1 + static_cast<int>(document_->cluster().pairs.size());
}

int ClusterLinkModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClusterLinkModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const auto& cluster = document_->cluster();
    const bool fallback = index.row() == 0;
    const device::Link link =
        fallback ? cluster.default_link
                 : cluster.pairs[static_cast<std::size_t>(pairOf(index.row()))].link;
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case A:
            return fallback ? tr("any host")
                            : QString::fromStdString(
                                  cluster.pairs[static_cast<std::size_t>(pairOf(index.row()))].a);
        case B:
            return fallback ? tr("any other (switch)")
                            : QString::fromStdString(
                                  cluster.pairs[static_cast<std::size_t>(pairOf(index.row()))].b);
        case Bandwidth:
            return link.bandwidth_gbps;
        case Latency:
            return link.latency_us;
        }
    }
    if (role == Qt::FontRole && fallback && (index.column() == A || index.column() == B)) {
        QFont italic;
        italic.setItalic(true);
        return italic;
    }
    if (role == Qt::ToolTipRole)
        return fallback ? tr("The link between any two hosts without a direct link of their own: "
                             "through the switch")
                        : tr("A direct link between two hosts; it replaces the switch's for them");
    if (role == Qt::TextAlignmentRole && (index.column() == Bandwidth || index.column() == Latency))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ClusterLinkModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case A:
        return tr("Host A");
    case B:
        return tr("Host B");
    case Bandwidth:
        return tr("Bandwidth (Gbit/s)");
    case Latency:
        return tr("Latency (us)");
    }
    return {};
}

Qt::ItemFlags ClusterLinkModel::flags(const QModelIndex& index) const {
    auto flags = QAbstractTableModel::flags(index);
    if (index.column() == Bandwidth || index.column() == Latency ||
        (index.row() > 0 && (index.column() == A || index.column() == B)))
        flags |= Qt::ItemIsEditable;
    return flags;
}

bool ClusterLinkModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid())
        return false;
    const auto& cluster = document_->cluster();
    const bool fallback = index.row() == 0;
    device::LinkPair pair;
    if (fallback)
        pair.link = cluster.default_link;
    else
        pair = cluster.pairs[static_cast<std::size_t>(pairOf(index.row()))];
    bool ok = true;
    switch (index.column()) {
    case A:
        pair.a = value.toString().toStdString();
        break;
    case B:
        pair.b = value.toString().toStdString();
        break;
    case Bandwidth:
        pair.link.bandwidth_gbps = value.toDouble(&ok);
        break;
    case Latency:
        pair.link.latency_us = value.toDouble(&ok);
        break;
    }
    if (!ok) {
        emit editRefused(tr("expected a number, found \"%1\"").arg(value.toString()));
        return false;
    }
    const QString error = fallback ? document_->setDefaultLink(pair.link)
                                   : document_->setPair(pairOf(index.row()), pair);
    if (!error.isEmpty()) {
        emit editRefused(error);
        return false;
    }
    return true;
}

} // namespace cleave::ui
