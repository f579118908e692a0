#include "ui/latency/measured_comparison_model.hpp"

#include "ui/tables/latency_format.hpp"

#include <QLocale>
#include <cmath>

namespace cleave::ui {

namespace {

double errorPercent(const MeasuredKernelPoint& point) {
    return point.measured_ms > 0
               ? 100 * (point.predicted_ms - point.measured_ms) / point.measured_ms
               : 0;
}

} // namespace

MeasuredComparisonModel::MeasuredComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void MeasuredComparisonModel::setReport(LatencyReportPtr report) {
    beginResetModel();
    report_ = std::move(report);
    endResetModel();
}

const std::vector<MeasuredKernelPoint>& MeasuredComparisonModel::points() const {
    static const std::vector<MeasuredKernelPoint> none;
    return report_ && report_->hasFigures() ? report_->measured_kernels : none;
}

double MeasuredComparisonModel::meanAbsolutePercentageError() const {
    const auto& all = points();
    if (all.empty())
        return 0;
    double sum = 0;
    for (const auto& point : all)
        sum += std::abs(errorPercent(point));
    return sum / static_cast<double>(all.size());
}

int MeasuredComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(points().size());
}

int MeasuredComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MeasuredComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const auto& point = points()[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case Kernel:
            return QString::fromStdString(point.name);
        case Type:
            return QString::fromStdString(point.type);
        case MeasuredMs:
            return point.measured_ms;
        case PredictedMs:
            return point.predicted_ms;
        case ErrorPercent:
            return errorPercent(point);
        default:
            break;
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("<b>%1</b> (%2)<br>measured %3 ms, predicted %4 ms (%5%)")
            .arg(QString::fromStdString(point.name).toHtmlEscaped(),
                 QString::fromStdString(point.type).toHtmlEscaped(),
                 QString::fromStdString(format_ms(point.measured_ms)),
                 QString::fromStdString(format_ms(point.predicted_ms)),
                 QLocale().toString(errorPercent(point), 'f', 0));
    return {};
}

QVariant MeasuredComparisonModel::headerData(int section, Qt::Orientation orientation,
                                             int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Kernel:
        return tr("Kernel");
    case Type:
        return tr("Type");
    case MeasuredMs:
        return tr("Measured (ms)");
    case PredictedMs:
        return tr("Predicted (ms)");
    case ErrorPercent:
        return tr("Error (%)");
    default:
        return {};
    }
}

} // namespace cleave::ui
