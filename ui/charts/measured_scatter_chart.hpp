// Predicted against measured kernel latency, log-log, one point per timed kernel with its name
// in a tooltip, and the y = x line that a perfect predictor's points would lie on; drawn from a
// table model's measured and predicted milliseconds columns (MeasuredComparisonModel).
#pragma once

#include <QChartView>

class QAbstractItemModel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QVXYModelMapper;

namespace cleave::ui {

class MeasuredScatterChart : public QChartView {
    Q_OBJECT

public:
    MeasuredScatterChart(QAbstractItemModel* model, int measuredColumn, int predictedColumn,
                         QWidget* parent = nullptr);

    QScatterSeries* points() const { return points_; }
    QLineSeries* identity() const { return identity_; }

private:
    void updateAxes();
    void showToolTip(const QPointF& point, bool state);

    QAbstractItemModel* model_;
    int measuredColumn_;
    int predictedColumn_;
    QScatterSeries* points_;
    QLineSeries* identity_;
    QVXYModelMapper* mapper_;
    QLogValueAxis* measured_;
    QLogValueAxis* predicted_;
};

} // namespace cleave::ui
