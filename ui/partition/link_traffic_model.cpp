#include "ui/partition/link_traffic_model.hpp"

#include "ui/tables/latency_format.hpp"
#include "ui/document/partition_document.hpp"

#include <QLocale>
#include <algorithm>
#include <tuple>

namespace cleave::ui {

LinkTrafficModel::LinkTrafficModel(PartitionDocument* document, QObject* parent)
    : QAbstractTableModel(parent), document_(document) {
    connect(document_, &PartitionDocument::mappingChanged, this, &LinkTrafficModel::refresh);
    refresh();
}

void LinkTrafficModel::refresh() {
    beginResetModel();
    rows_.clear();
    if (document_->hasMapping()) {
        const auto& cluster = *document_->inputs()->request.cluster;
        for (const auto& transfer : document_->evaluation().transfers) {
            const int from = static_cast<int>(
                cluster.pes[static_cast<std::size_t>(transfer.from_pe)].host_index);
            const int to =
                static_cast<int>(cluster.pes[static_cast<std::size_t>(transfer.to_pe)].host_index);
            auto row = std::find_if(rows_.begin(), rows_.end(), [&](const Row& r) {
                return r.from_host == from && r.to_host == to;
            });
            if (row == rows_.end())
                row = rows_.insert(rows_.end(), Row{from, to, 0, 0, 0});
            ++row->tensors;
            row->bytes += transfer.bytes;
            row->ms += transfer.ms;
        }
        std::sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
            return std::tie(a.from_host, a.to_host) < std::tie(b.from_host, b.to_host);
        });
    }
    endResetModel();
}

int LinkTrafficModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int LinkTrafficModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LinkTrafficModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    const auto& cluster = *document_->inputs()->request.cluster;
    const auto host = [&](int h) {
        return QString::fromStdString(cluster.hosts[static_cast<std::size_t>(h)].host);
    };
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Link:
            return row.from_host == row.to_host
                       ? tr("within %1 (memory)").arg(host(row.from_host))
                       : tr("%1 → %2").arg(host(row.from_host), host(row.to_host));
        case Tensors:
            return row.tensors;
        case Bytes:
            return QLocale().formattedDataSize(row.bytes, 1);
        case Milliseconds:
            return QString::fromStdString(format_ms(row.ms));
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Link)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Link && row.from_host != row.to_host) {
        const auto link = cluster.link(cluster.hosts[static_cast<std::size_t>(row.from_host)].host,
                                       cluster.hosts[static_cast<std::size_t>(row.to_host)].host);
        return tr("%1 Gbit/s, %2 µs latency per transfer")
            .arg(link.bandwidth_gbps)
            .arg(link.latency_us);
    }
    return {};
}

QVariant LinkTrafficModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Link:
        return tr("Link");
    case Tensors:
        return tr("Tensors");
    case Bytes:
        return tr("Bytes / input");
    case Milliseconds:
        return tr("ms / input");
    default:
        return {};
    }
}

} // namespace cleave::ui
