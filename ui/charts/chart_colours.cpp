#include "ui/charts/chart_colours.hpp"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QPalette>

namespace cleave::ui {

namespace {

// `share` of the way from `from` to `to`.
QColor blend(const QColor& from, const QColor& to, double share) {
    return QColor::fromRgbF(
        static_cast<float>(from.redF() + (to.redF() - from.redF()) * share),
        static_cast<float>(from.greenF() + (to.greenF() - from.greenF()) * share),
        static_cast<float>(from.blueF() + (to.blueF() - from.blueF()) * share));
}

} // namespace

void applyPaletteToChart(QChartView* view) {
    QChart* chart = view->chart();
    if (!chart)
        return;
    const QPalette& palette = view->palette();
    view->setBackgroundBrush(palette.base());
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    chart->setBackgroundBrush(base);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    chart->legend()->setBrush(Qt::NoBrush);
    chart->legend()->setPen(Qt::NoPen);
    for (auto* axis : chart->axes()) {
        axis->setLabelsBrush(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(blend(base, text, 0.45));
        axis->setGridLineColor(blend(base, text, 0.18));
        axis->setMinorGridLineColor(blend(base, text, 0.08));
    }
    for (auto* series : chart->series())
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series))
            for (auto* set : bars->barSets())
                set->setLabelColor(text);
}

QColor readableOn(const QColor& colour, const QPalette& palette) {
    if (palette.color(QPalette::Window).lightness() >= 128 || colour.lightness() >= 130)
        return colour;
    QColor lifted = colour.toHsl();
    lifted.setHsl(lifted.hslHue(), lifted.hslSaturation(), 130, lifted.alpha());
    return lifted.toRgb();
}

} // namespace cleave::ui
