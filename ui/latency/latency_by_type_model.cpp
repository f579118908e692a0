#include "ui/latency/latency_by_type_model.hpp"

#include "ui/tables/latency_format.hpp"

#include <QLocale>
#include <algorithm>
#include <map>

namespace cleave::ui {

LatencyByTypeModel::LatencyByTypeModel(QObject* parent) : QAbstractTableModel(parent) {}

void LatencyByTypeModel::setReport(LatencyReportPtr report) {
    beginResetModel();
    report_ = std::move(report);
    rows_.clear();
    total_ms_ = 0;
    if (report_ && report_->hasFigures() && report_->request.kernels) {
        const auto& kernels = report_->request.kernels->kernels;
        std::map<std::string, Row> by_type;
        for (std::size_t k = 0; k < kernels.size(); ++k) {
            auto& row = by_type[kernels[k].type];
            row.type = QString::fromStdString(kernels[k].type);
            row.kernels += 1;
            row.ms += report_->latency.kernels[k].us / 1000;
        }
        for (auto& [_, row] : by_type) {
            total_ms_ += row.ms;
            rows_.push_back(std::move(row));
        }
        std::stable_sort(rows_.begin(), rows_.end(),
                         [](const Row& a, const Row& b) { return a.ms > b.ms; });
    }
    endResetModel();
}

int LatencyByTypeModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int LatencyByTypeModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LatencyByTypeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    const double share = total_ms_ > 0 ? row.ms / total_ms_ : 0;
    if (role == Qt::TextAlignmentRole)
        return index.column() == Type ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    // The chart's mappers read Qt::DisplayRole: numbers stay numbers there.
    if (role == Qt::EditRole || role == Qt::DisplayRole) {
        switch (index.column()) {
        case Type:
            return row.type;
        case Kernels:
            return row.kernels;
        case LatencyMs:
            return row.ms;
        case Share:
            return share;
        default:
            break;
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("%1: %2, %3 ms, %4% of the kernels' time")
            .arg(row.type, row.kernels == 1 ? tr("1 kernel") : tr("%1 kernels").arg(row.kernels),
                 QString::fromStdString(format_ms(row.ms)),
                 QLocale().toString(100 * share, 'f', 1));
    return {};
}

QVariant LatencyByTypeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Type:
        return tr("Kernel type");
    case Kernels:
        return tr("Kernels");
    case LatencyMs:
        return tr("Latency (ms)");
    case Share:
        return tr("Share");
    default:
        return {};
    }
}

} // namespace cleave::ui
