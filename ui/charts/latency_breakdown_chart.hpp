// Predicted latency by kernel type as horizontal bars, the slowest type on top, drawn from a table
// model's type and milliseconds columns (the latency dock's LatencyByTypeModel). All QtCharts
// code lives in ui/charts/, behind our own models.
#pragma once

#include <QChartView>

class QAbstractItemModel;
class QBarCategoryAxis;
class QSortFilterProxyModel;
class QBarSet;
class QHorizontalBarSeries;
class QValueAxis;
class QVBarModelMapper;

namespace cleave::ui {

class LatencyBreakdownChart : public QChartView {
    Q_OBJECT

public:
    LatencyBreakdownChart(QAbstractItemModel* model, int typeColumn, int msColumn,
                          QWidget* parent = nullptr);

    // One value per kernel type, from the bottom of the chart up (fastest type first); may be null.
    QBarSet* bars() const;
    QStringList categories() const; // the kernel types along the axis, bottom up

private:
    void updateAxes();

    QAbstractItemModel* model_;
    int typeColumn_;
    int msColumn_;
    QSortFilterProxyModel* bottomUp_; // bars stack upwards: the slowest type last, on top
    QHorizontalBarSeries* series_;
    QVBarModelMapper* mapper_;
    QBarCategoryAxis* types_;
    QValueAxis* ms_;
};

} // namespace cleave::ui
