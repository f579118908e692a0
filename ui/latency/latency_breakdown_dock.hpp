// Where the predicted time goes: the device's total, and latency by kernel type as a bar chart
// (or, when the device has no figures, why not).
#pragma once

#include "ui/document/latency_report.hpp"

#include <QDockWidget>

class QLabel;

namespace cleave::ui {

class LatencyBreakdownChart;
class LatencyByTypeModel;

class StudioDocument;

// Shows the document's latency.
class LatencyBreakdownDock : public QDockWidget {
    Q_OBJECT

public:
    explicit LatencyBreakdownDock(StudioDocument* document, QWidget* parent = nullptr);

    void setReport(LatencyReportPtr report);

    const LatencyByTypeModel* byType() const { return byType_; }
    LatencyBreakdownChart* chart() const { return chart_; }
    QString headline() const;

private:
    LatencyByTypeModel* byType_;
    QLabel* headline_;
    LatencyBreakdownChart* chart_;
};

} // namespace cleave::ui
