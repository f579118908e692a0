// A measured run's timed kernels beside their predictions, one row each: kernel, type, measured
// ms, predicted ms, error. Feeds the predicted-versus-measured scatter.
#pragma once

#include "ui/document/latency_report.hpp"

#include <QAbstractTableModel>

namespace cleave::ui {

class MeasuredComparisonModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Kernel, Type, MeasuredMs, PredictedMs, ErrorPercent, ColumnCount };

    explicit MeasuredComparisonModel(QObject* parent = nullptr);

    void setReport(LatencyReportPtr report); // null, or without a comparison: no rows
    const LatencyReportPtr& report() const { return report_; }
    // Mean absolute percentage error of the predictions; 0 without rows.
    double meanAbsolutePercentageError() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const std::vector<MeasuredKernelPoint>& points() const;

    LatencyReportPtr report_;
};

} // namespace cleave::ui
