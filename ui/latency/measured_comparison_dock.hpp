// Predicted against measured: with the document's measured dataset, the runs of the model on show
// (one chosen, the document's measured run: by default the one at the model's own input shape),
// and a scatter of its timed kernels' measured and predicted latency on the chosen device, with
// the mean error and both end-to-end times.
#pragma once

#include "ui/document/latency_report.hpp"

#include <QDockWidget>

class QComboBox;
class QLabel;

namespace cleave::ui {

class MeasuredComparisonModel;
class StudioDocument;
class MeasuredScatterChart;

class MeasuredComparisonDock : public QDockWidget {
    Q_OBJECT

public:
    explicit MeasuredComparisonDock(StudioDocument* document, QWidget* parent = nullptr);

    const MeasuredRunPtr& run() const;
    QComboBox* runBox() const { return runs_; }
    MeasuredScatterChart* chart() const { return chart_; }
    const MeasuredComparisonModel* comparison() const { return comparison_; }
    QString summary() const;

private:
    void listRuns();
    void chooseRun(int index);
    // Shown when it is for the chosen run.
    void setReport(const LatencyReportPtr& report);
    // The model's name as measured datasets know it (the file's stem).
    QString modelName() const;

    StudioDocument* document_;
    MeasuredComparisonModel* comparison_;
    QComboBox* runs_;
    QLabel* summary_;
    MeasuredScatterChart* chart_;
};

} // namespace cleave::ui
