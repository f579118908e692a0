#include "ui/charts/latency_breakdown_chart.hpp"

#include <QAbstractItemModel>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCursor>
#include <QHorizontalBarSeries>
#include <QSortFilterProxyModel>
#include <QToolTip>
#include <QVBarModelMapper>
#include <QValueAxis>
#include <algorithm>

namespace cleave::ui {

namespace {
const QColor kBar(0xfd, 0x8d, 0x3c); // the middle of the latency ramp
} // namespace

LatencyBreakdownChart::LatencyBreakdownChart(QAbstractItemModel* model, int typeColumn,
                                             int msColumn, QWidget* parent)
    : QChartView(parent), model_(model), typeColumn_(typeColumn), msColumn_(msColumn), bottomUp_(new QSortFilterProxyModel(this)),
      series_(new QHorizontalBarSeries(this)), mapper_(new QVBarModelMapper(this)),
      types_(new QBarCategoryAxis(this)), ms_(new QValueAxis(this)) {
    setObjectName("latencyBreakdownChart");
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->hide();
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(0, 0, 4, 0));
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);

    series_->setBarWidth(0.7);
    series_->setLabelsVisible(true);
    series_->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series_->setLabelsPrecision(3);
    series_->setLabelsFormat("@value ms");
    chart->addSeries(series_);
    types_->setGridLineVisible(false);
    // Each type gets a band of the chart's height, and a label taller than its band is cut.
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    types_->setLabelsFont(small);
    types_->setTruncateLabels(false); // the axis is as wide as its longest type
    ms_->setLabelsFont(small);
    ms_->setLabelFormat("%g ms");
    chart->addAxis(types_, Qt::AlignLeft);
    chart->addAxis(ms_, Qt::AlignBottom);
    series_->attachAxis(types_);
    series_->attachAxis(ms_);

    mapper_->setFirstBarSetColumn(msColumn_);
    mapper_->setLastBarSetColumn(msColumn_);
    mapper_->setSeries(series_);
    bottomUp_->setSourceModel(model_);
    bottomUp_->sort(msColumn_, Qt::AscendingOrder);
    mapper_->setModel(bottomUp_);

    connect(bottomUp_, &QAbstractItemModel::modelReset, this, &LatencyBreakdownChart::updateAxes);
    connect(bottomUp_, &QAbstractItemModel::layoutChanged, this,
            &LatencyBreakdownChart::updateAxes);
    connect(series_, &QAbstractBarSeries::hovered, this, [this](bool status, int index) {
        if (status)
            QToolTip::showText(QCursor::pos(),
                               bottomUp_->index(index, 0).data(Qt::ToolTipRole).toString(), this);
        else
            QToolTip::hideText();
    });
    updateAxes();
}

QBarSet* LatencyBreakdownChart::bars() const {
    const auto sets = series_->barSets();
    return sets.isEmpty() ? nullptr : sets.first();
}

QStringList LatencyBreakdownChart::categories() const {
    return types_->categories();
}

void LatencyBreakdownChart::updateAxes() {
    QStringList types;
    double high = 0;
    for (int row = 0; row < bottomUp_->rowCount(); ++row) {
        types << bottomUp_->index(row, typeColumn_).data().toString();
        high =
            std::max(high, bottomUp_->index(row, msColumn_).data().toDouble());
    }
    types_->setCategories(types);
    // Room on the right for the value written after the longest bar.
    ms_->setRange(0, high > 0 ? high * 1.18 : 1);
    ms_->applyNiceNumbers();
    if (auto* set = bars()) {
        set->setColor(kBar);
        set->setBorderColor(kBar.darker(120));
        set->setLabelColor(palette().text().color());
        set->setLabelFont(types_->labelsFont());
    }
}

} // namespace cleave::ui
