// Predicted against measured: with a measured dataset open, the runs of the model on show (one
// chosen, by default the one at the model's own input shape), and a scatter of its timed kernels'
// measured and predicted latency on the chosen device, with the mean error and both end-to-end
// times.
#pragma once

#include "ui/latency/latency_report.hpp"

#include <QDockWidget>

class QComboBox;
class QLabel;

namespace cleave::ui {

class MeasuredComparisonModel;
class MeasuredScatterChart;

using MeasuredDatasetPtr = std::shared_ptr<const profile::MeasuredDataset>;

class MeasuredComparisonDock : public QDockWidget {
    Q_OBJECT

public:
    explicit MeasuredComparisonDock(QWidget* parent = nullptr);

    void setDataset(MeasuredDatasetPtr dataset);
    const MeasuredDatasetPtr& dataset() const { return dataset_; }
    // The model on show, and its name as measured datasets know it (the file's stem).
    void setModel(ModelPtr model, const QString& name);
    // Shown when it is for the chosen run.
    void setReport(const LatencyReportPtr& report);

    const MeasuredRunPtr& run() const { return run_; }
    QComboBox* runBox() const { return runs_; }
    MeasuredScatterChart* chart() const { return chart_; }
    const MeasuredComparisonModel* comparison() const { return comparison_; }
    QString summary() const;

signals:
    void runChosen(cleave::ui::MeasuredRunPtr run); // null: none to compare with

private:
    void listRuns();
    void chooseRun(int index);

    MeasuredDatasetPtr dataset_;
    ModelPtr model_;
    QString name_;
    MeasuredRunPtr run_;
    MeasuredComparisonModel* comparison_;
    QComboBox* runs_;
    QLabel* summary_;
    MeasuredScatterChart* chart_;
};

} // namespace cleave::ui
