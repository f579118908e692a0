// Predicted against measured kernel latency, log-log, one point per timed kernel with its name
// in a tooltip, and the y = x line that a perfect predictor's points would lie on; drawn from a
// MeasuredComparisonModel.
#pragma once

#include <QChartView>

class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QVXYModelMapper;

namespace cleave::ui {

class MeasuredComparisonModel;

class MeasuredScatterChart : public QChartView {
    Q_OBJECT

public:
    explicit MeasuredScatterChart(MeasuredComparisonModel* model, QWidget* parent = nullptr);

    QScatterSeries* points() const { return points_; }
    QLineSeries* identity() const { return identity_; }

private:
    void updateAxes();
    void showToolTip(const QPointF& point, bool state);

    MeasuredComparisonModel* model_;
    QScatterSeries* points_;
    QLineSeries* identity_;
    QVXYModelMapper* mapper_;
    QLogValueAxis* measured_;
    QLogValueAxis* predicted_;
};

} // namespace cleave::ui
