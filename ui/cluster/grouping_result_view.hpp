// The Grouping tab's result: the groups in colour (a legend), per-group bars of the feature totals
// (each against an equal share) and of the serving latency, a table of the groups and one of the
// spread across groups for every feature set.
#pragma once

#include "core/grouping/grouping_run.hpp"

#include <QColor>
#include <QList>
#include <QWidget>

class QLabel;
class QStandardItemModel;
class QTableView;

namespace cleave::ui {

class GroupBarsChart;

class GroupingResultView : public QWidget {
    Q_OBJECT

public:
    explicit GroupingResultView(QWidget* parent = nullptr);

    // Qualitative colours (ColorBrewer Set2, then evenly spread hues), one per group.
    static QList<QColor> groupColours(int groups);

    void setOutcome(const grouping::GroupingOutcome& outcome);
    void clear();

    GroupBarsChart* featureChart() const { return featureChart_; }
    GroupBarsChart* servingChart() const { return servingChart_; }
    QTableView* comparisonTable() const { return comparisonTable_; }
    QString legendText() const;

private:
    void fillLegend(const grouping::GroupingOutcome& outcome);
    void fillGroupTable(const grouping::GroupingOutcome& outcome);
    void fillFeatureChart(const grouping::GroupingOutcome& outcome);
    void fillServingChart(const grouping::GroupingOutcome& outcome);
    void fillComparison(const grouping::GroupingOutcome& outcome);

    QLabel* legend_;
    GroupBarsChart* featureChart_;
    GroupBarsChart* servingChart_;
    QStandardItemModel* groupModel_;
    QTableView* groupTable_;
    QStandardItemModel* comparisonModel_;
    QTableView* comparisonTable_;
    QLabel* comparisonNote_;
};

} // namespace cleave::ui
