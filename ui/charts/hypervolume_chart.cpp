#include "ui/charts/hypervolume_chart.hpp"

#include "ui/charts/chart_colours.hpp"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>

namespace cleave::ui {

HypervolumeChart::HypervolumeChart(QWidget* parent)
    : QChartView(parent), series_(new QLineSeries(this)), x_(new QValueAxis(this)),
      y_(new QValueAxis(this)) {
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(2, 2, 6, 2));
    chart->setTitle(tr("Hypervolume"));
    chart->setTitleFont(font());
    chart->legend()->hide();
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (auto* axis : {x_, y_}) {
        axis->setLabelsFont(small);
        axis->setTitleFont(small);
    }
    x_->setTitleText(tr("evaluations"));
    x_->setLabelFormat("%.0f");
    x_->setTickCount(3); // the budget's labels are wide; the chart is narrow
    y_->setTitleText(tr("hypervolume (normalised)"));
    y_->setLabelFormat("%.4g");
    chart->addAxis(x_, Qt::AlignBottom);
    chart->addAxis(y_, Qt::AlignLeft);
    series_->setName(tr("hypervolume"));
    updateLineColour();
    chart->addSeries(series_);
    series_->attachAxis(x_);
    series_->attachAxis(y_);
    setHistory({}, 1);
}

void HypervolumeChart::setHistory(const QList<QPointF>& points, double budget) {
    double high = 0;
    for (const auto& p : points)
        high = std::max(high, p.y());
    series_->replace(points);
    const double last = points.isEmpty() ? 1.0 : std::max(points.back().x(), 1.0);
    x_->setRange(0, std::max(last, budget));
    y_->setRange(0, high > 0 ? high * 1.1 : 1.0);
    y_->applyNiceNumbers();
}

void HypervolumeChart::updateLineColour() {
    QPen pen(readableOn(QColor(0x21, 0x66, 0xac), palette()));
    pen.setWidthF(1.6);
    series_->setPen(pen);
}

void HypervolumeChart::changeEvent(QEvent* event) {
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateLineColour();
}

} // namespace cleave::ui
