// The DSE tab's Pareto front: one point per solution at two chosen quantities, coloured by a
// third in five bins (dark blue: least, yellow: most; Qt 6.4's scatter has no per-point colour),
// the legend giving each bin's range. Hovering or clicking a point reports its index. Under the
// front, a cloud of other points (what the search evaluated: dominated, infeasible), any number
// of them, drawn by one ScatterCloudItem in the same colours, small, or marked by symbol. Over
// it, known optima (a decoder's exact layer plans) as large stars with a legend entry of their
// own.
#pragma once

#include "ui/charts/scatter_cloud_item.hpp"

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

    struct CloudPoint {
        QPointF value;
        double colour = 0; // unused when the front has no colour values
        ScatterCloudItem::Mark mark = ScatterCloudItem::Mark::dot; // a cross is drawn red
    };

    // `colour`: one value per point, or empty for one colour; `colourUnit` ends the legend. The
    // bins and the axes span the front and the cloud; the axes also the optima.
    void setPoints(const std::vector<QPointF>& points, const std::vector<double>& colour,
                   const QString& xTitle, const QString& yTitle, const QString& colourUnit,
                   const std::vector<CloudPoint>& cloud = {},
                   const std::vector<QPointF>& optima = {});
    ScatterCloudItem* cloud() const { return cloud_; }
    // The colour a point of colour value `value` is drawn in (the bins of the last setPoints).
    QColor colourFor(double value) const;
    const std::vector<QScatterSeries*>& series() const { return series_; }
    QScatterSeries* optima() const { return optima_; }
    // The point `index`'s series and position (for tests and tooltips); null when out of range.
    QScatterSeries* seriesOf(int index) const;

signals:
    void pointHovered(int index, bool state);
    void pointClicked(int index);
    void cloudHovered(int index, bool state); // an index into the last setPoints' cloud
    void cloudClicked(int index);
    void optimumHovered(int index, bool state); // an index into the last setPoints' optima
    void optimumClicked(int index);

private:
    int indexAt(const QScatterSeries* series, const QPointF& point) const;

    QValueAxis* x_;
    QValueAxis* y_;
    std::vector<QScatterSeries*> series_;
    std::vector<std::vector<int>> indices_; // per series, per point: the index given
    ScatterCloudItem* cloud_;
    QScatterSeries* optima_;
    double low_ = 0, high_ = 0; // the colour bins' range; equal: one colour
};

} // namespace cleave::ui
