#include "ui/charts/measured_scatter_chart.hpp"

#include <QAbstractItemModel>
#include <QCursor>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QVXYModelMapper>
#include <cmath>
#include <limits>

namespace cleave::ui {

MeasuredScatterChart::MeasuredScatterChart(QAbstractItemModel* model, int measuredColumn,
                                           int predictedColumn, QWidget* parent)
    : QChartView(parent), model_(model), measuredColumn_(measuredColumn),
      predictedColumn_(predictedColumn), points_(new QScatterSeries(this)),
      identity_(new QLineSeries(this)), mapper_(new QVXYModelMapper(this)),
      measured_(new QLogValueAxis(this)), predicted_(new QLogValueAxis(this)) {
    setObjectName("measuredScatterChart");
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(0, 0, 4, 0));
    chart->legend()->hide(); // the dock's tooltip explains the dashed line
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);

    identity_->setName(tr("predicted = measured"));
    QPen line(QColor(120, 120, 120));
    line.setStyle(Qt::DashLine);
    line.setWidthF(1.2);
    identity_->setPen(line);
    points_->setName(tr("kernels"));
    points_->setMarkerSize(7);
    points_->setColor(QColor(0xe3, 0x1a, 0x1c, 170));
    points_->setBorderColor(QColor(0xb1, 0x00, 0x26));
    chart->addSeries(identity_);
    chart->addSeries(points_);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (auto* axis : {measured_, predicted_}) {
        axis->setLabelsFont(small);
        axis->setTitleFont(small);
        axis->setBase(10);
        axis->setLabelFormat("%g");
        axis->setMinorTickCount(8);
        axis->setMinorGridLineVisible(true);
        axis->setMinorGridLineColor(QColor(235, 235, 235));
    }
    measured_->setTitleText(tr("measured (ms)"));
    predicted_->setTitleText(tr("predicted (ms)"));
    chart->addAxis(measured_, Qt::AlignBottom);
    chart->addAxis(predicted_, Qt::AlignLeft);
    for (auto* series : std::initializer_list<QXYSeries*>{identity_, points_}) {
        series->attachAxis(measured_);
        series->attachAxis(predicted_);
    }

    mapper_->setXColumn(measuredColumn_);
    mapper_->setYColumn(predictedColumn_);
    mapper_->setSeries(points_);
    mapper_->setModel(model_);

    connect(model_, &QAbstractItemModel::modelReset, this, &MeasuredScatterChart::updateAxes);
    connect(points_, &QScatterSeries::hovered, this, &MeasuredScatterChart::showToolTip);
    updateAxes();
}

// Both axes span the same decades, so that y = x is the diagonal.
void MeasuredScatterChart::updateAxes() {
    double low = std::numeric_limits<double>::max();
    double high = 0;
    for (int row = 0; row < model_->rowCount(); ++row)
        for (const int column :
             {measuredColumn_, predictedColumn_}) {
            const double ms = model_->index(row, column).data().toDouble();
            if (ms > 0) {
                low = std::min(low, ms);
                high = std::max(high, ms);
            }
        }
    if (high <= 0) {
        low = 0.001;
        high = 10;
    }
    low = std::pow(10.0, std::floor(std::log10(low)));
    high = std::pow(10.0, std::ceil(std::log10(high)));
    if (high <= low)
        high = low * 10;
    for (auto* axis : {measured_, predicted_})
        axis->setRange(low, high);
    identity_->replace(QList<QPointF>{{low, low}, {high, high}});
}

void MeasuredScatterChart::showToolTip(const QPointF& point, bool state) {
    if (!state) {
        QToolTip::hideText();
        return;
    }
    // The hovered point's row: the nearest in log space.
    int best = -1;
    double distance = std::numeric_limits<double>::max();
    for (int row = 0; row < model_->rowCount(); ++row) {
        const double dx = std::log(
            model_->index(row, measuredColumn_).data().toDouble() / point.x());
        const double dy = std::log(
            model_->index(row, predictedColumn_).data().toDouble() / point.y());
        if (dx * dx + dy * dy < distance) {
            distance = dx * dx + dy * dy;
            best = row;
        }
    }
    if (best >= 0)
        QToolTip::showText(QCursor::pos(), model_->index(best, 0).data(Qt::ToolTipRole).toString(),
                           this);
}

} // namespace cleave::ui
