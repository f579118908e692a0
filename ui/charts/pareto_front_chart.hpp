// The DSE tab's Pareto front: one point per solution at two chosen quantities, coloured by a
// third in five bins (dark blue: least, yellow: most; Qt 6.4's scatter has no per-point colour),
// the legend giving each bin's range. Hovering or clicking a point reports its index.
#pragma once

#include <QChartView>
#include <QPointF>
#include <QString>
#include <vector>

class QScatterSeries;
class QValueAxis;

namespace cleave::ui {

class ParetoFrontChart : public QChartView {
    Q_OBJECT

public:
    explicit ParetoFrontChart(QWidget* parent = nullptr);

    // `colour`: one value per point, or empty for one colour; `colourUnit` ends the legend.
    void setPoints(const std::vector<QPointF>& points, const std::vector<double>& colour,
                   const QString& xTitle, const QString& yTitle, const QString& colourUnit);
    const std::vector<QScatterSeries*>& series() const { return series_; }
    // The point `index`'s series and position (for tests and tooltips); null when out of range.
    QScatterSeries* seriesOf(int index) const;

signals:
    void pointHovered(int index, bool state);
    void pointClicked(int index);

private:
    int indexAt(const QScatterSeries* series, const QPointF& point) const;

    QValueAxis* x_;
    QValueAxis* y_;
    std::vector<QScatterSeries*> series_;
    std::vector<std::vector<int>> indices_; // per series, per point: the index given
};

} // namespace cleave::ui
