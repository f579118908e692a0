// A chart's own colours (background, title, legend, axes, grid, bar labels) taken from a widget
// palette, so that charts follow the studio's light and dark themes. Series keep their colours:
// QChart::setTheme would reset them, and the fonts, that each chart chose.
#pragma once

class QChartView;

namespace cleave::ui {

// From the view's palette; the view's own background too, so that the chart fills it edge to edge.
void applyPaletteToChart(QChartView* view);

} // namespace cleave::ui
