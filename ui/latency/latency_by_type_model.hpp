// Predicted latency summed by kernel type, slowest type first: type, kernels, ms and share of the
// kernels' time. Feeds the breakdown chart (and any table that wants it).
#pragma once

#include "ui/document/latency_report.hpp"

#include <QAbstractTableModel>

namespace cleave::ui {

class LatencyByTypeModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Type, Kernels, LatencyMs, Share, ColumnCount };

    explicit LatencyByTypeModel(QObject* parent = nullptr);

    // A report without figures (or null) empties the table.
    void setReport(LatencyReportPtr report);
    const LatencyReportPtr& report() const { return report_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row {
        QString type;
        int kernels = 0;
        double ms = 0;
    };

    LatencyReportPtr report_;
    std::vector<Row> rows_;
    double total_ms_ = 0; // of the kernels
};

} // namespace cleave::ui
