// The DSE tab's hypervolume of the front over the evaluations spent, one point per generation.
#pragma once

#include <QChartView>
#include <QList>
#include <QPointF>

class QLineSeries;
class QValueAxis;

namespace cleave::ui {

class HypervolumeChart : public QChartView {
    Q_OBJECT

public:
    explicit HypervolumeChart(QWidget* parent = nullptr);

    // (evaluations, hypervolume) points; the x axis spans at least `budget` evaluations.
    void setHistory(const QList<QPointF>& points, double budget);
    QLineSeries* series() const { return series_; }

protected:
    void changeEvent(QEvent* event) override; // a theme's palette: the line follows

private:
    void updateLineColour();

    QLineSeries* series_;
    QValueAxis* x_;
    QValueAxis* y_;
};

} // namespace cleave::ui
