// The Grouping tab's bars: one bar set per device group, in the group's colour, over categories
// (the features balanced, or the serving latencies), so a balanced grouping shows as bars of one
// height in each category. Hovering a bar shows its tooltip.
#pragma once

#include <QChartView>
#include <QColor>
#include <QList>
#include <QStringList>
#include <vector>

class QBarCategoryAxis;
class QBarSeries;
class QValueAxis;

namespace cleave::ui {

class GroupBarsChart : public QChartView {
    Q_OBJECT

public:
    explicit GroupBarsChart(const QString& title, QWidget* parent = nullptr);

    // values[group][category] and their tooltips; group g drawn in colours[g].
    void setBars(const QStringList& categories, const std::vector<std::vector<double>>& values,
                 const std::vector<std::vector<QString>>& tips, const QList<QColor>& colours,
                 const QString& valueTitle);
    void clear();
    QBarSeries* series() const { return series_; }
    QStringList categories() const;

private:
    QBarSeries* series_;
    QBarCategoryAxis* categories_;
    QValueAxis* values_;
    std::vector<std::vector<QString>> tips_;
};

} // namespace cleave::ui
