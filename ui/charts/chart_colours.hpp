// A chart's own colours (background, title, legend, axes, grid, bar labels) taken from a widget
// palette, so that charts follow the studio's light and dark themes. Series keep their colours:
// QChart::setTheme would reset them, and the fonts, that each chart chose.
#pragma once

class QChartView;
class QColor;
class QPalette;

namespace cleave::ui {

// From the view's palette; the view's own background too, so that the chart fills it edge to edge.
void applyPaletteToChart(QChartView* view);

// A series colour that reads on the palette's background: on a dark theme a dark colour (the
// low end of a viridis ramp, a deep blue line) is lifted to a lightness of at least 130 of 255,
// keeping its hue; on a light theme, unchanged.
QColor readableOn(const QColor& colour, const QPalette& palette);

} // namespace cleave::ui
