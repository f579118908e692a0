#include "ui/latency/kernel_table_model.hpp"

#include "ui/tables/count_cell.hpp"

#include <QLocale>

namespace cleave::ui {

KernelTableModel::KernelTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelTableModel::setKernels(ModelPtr model, KernelGraphPtr kernels) {
    beginResetModel();
    model_ = std::move(model);
    kernels_ = kernels ? std::move(kernels) : std::make_shared<const fusion::KernelGraph>();
    latency_.clear();
    endResetModel();
}

void KernelTableModel::setLatency(std::vector<predict::KernelLatency> latency) {
    if (latency.size() != kernels_->kernels.size())
        latency.clear();
    latency_ = std::move(latency);
    if (!kernels_->kernels.empty())
        emit dataChanged(index(0, Latency), index(rowCount() - 1, Latency));
}

int KernelTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(kernels_->kernels.size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString KernelTableModel::ops(const fusion::Kernel& kernel) const {
    QStringList list;
    for (const int n : kernel.nodes)
        list << QString::fromStdString(model_->nodes[static_cast<std::size_t>(n)].op);
    return list.join(" + ");
}

QVariant KernelTableModel::data(const QModelIndex& index, int role) const {
    if (!model_ || !index.isValid())
        return {};
    const auto& kernel = kernels_->kernels[static_cast<std::size_t>(index.row())];
    if (role == SearchRole)
        return QString::fromStdString(kernel.type + '\n' + kernel.name) + '\n' + ops(kernel);
    switch (index.column()) {
    case Index:
        if (role != SearchRole)
            return rowNumberCell(index.row(), role);
        break;
    case Type:
        if (role == Qt::DisplayRole || role == SortRole)
            return QString::fromStdString(kernel.type) +
                   (kernel.launches > 1 ? QString(" ×%1").arg(kernel.launches) : QString());
        break;
    case Name:
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole)
            return QString::fromStdString(kernel.name);
        break;
    case Ops:
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
            return ops(kernel);
        if (role == SortRole)
            return static_cast<int>(kernel.nodes.size());
        break;
    case Macs:
        return countCell(kernel.macs, role);
    case BytesIn:
        return countCell(kernel.bytes_in, role);
    case BytesOut:
        return countCell(kernel.bytes_out, role);
    case WeightBytes:
        return countCell(kernel.weight_bytes, role);
    case Latency:
        return latencyCell(index.row(), role);
    default:
        break;
    }
    return {};
}

QVariant KernelTableModel::latencyCell(int row, int role) const {
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (latency_.empty())
        return {};
    const auto& latency = latency_[static_cast<std::size_t>(row)];
    const double ms = latency.us / 1000;
    if (role == SortRole)
        return ms;
    if (role == Qt::DisplayRole)
        return QLocale().toString(ms, 'f', 3);
    if (role == Qt::ToolTipRole)
        return latency.memory_bound
                   ? tr("%1 µs: its bytes at the memory bandwidth of the model's working set "
                        "(the model for %2 gave less)")
                         .arg(QLocale().toString(latency.us, 'f', 1),
                              QString::fromStdString(latency.model_class))
                   : tr("%1 µs, by the model for %2")
                         .arg(QLocale().toString(latency.us, 'f', 1),
                              QString::fromStdString(latency.model_class));
    return {};
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::TextAlignmentRole)
        return section >= Macs || section == Latency ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                     : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Index:
        return tr("#");
    case Type:
        return tr("Type");
    case Name:
        return tr("Kernel");
    case Ops:
        return tr("Nodes");
    case Macs:
        return tr("MACs");
    case BytesIn:
        return tr("Bytes in");
    case BytesOut:
        return tr("Bytes out");
    case WeightBytes:
        return tr("Weights");
    case Latency:
        return tr("Latency (ms)");
    default:
        return {};
    }
}

} // namespace cleave::ui
