// Predicted latency by kernel type as horizontal bars, the slowest type on top, drawn from a
// LatencyByTypeModel. All QtCharts code lives in ui/charts/, behind our own models.
#pragma once

#include <QChartView>

class QBarCategoryAxis;
class QSortFilterProxyModel;
class QBarSet;
class QHorizontalBarSeries;
class QValueAxis;
class QVBarModelMapper;

namespace cleave::ui {

class LatencyByTypeModel;

class LatencyBreakdownChart : public QChartView {
    Q_OBJECT

public:
    explicit LatencyBreakdownChart(LatencyByTypeModel* model, QWidget* parent = nullptr);

    // One value per kernel type, from the bottom of the chart up (fastest type first); may be null.
    QBarSet* bars() const;
    QStringList categories() const; // the kernel types along the axis, bottom up

private:
    void updateAxes();

    LatencyByTypeModel* model_;
    QSortFilterProxyModel* bottomUp_; // bars stack upwards: the slowest type last, on top
    QHorizontalBarSeries* series_;
    QVBarModelMapper* mapper_;
    QBarCategoryAxis* types_;
    QValueAxis* ms_;
};

} // namespace cleave::ui
