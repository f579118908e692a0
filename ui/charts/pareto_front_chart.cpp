#include "ui/charts/pareto_front_chart.hpp"

#include "ui/charts/chart_colours.hpp"

#include <QChart>
#include <QLegendMarker>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace cleave::ui {

namespace {

// Five colours from dark blue (least) to yellow (most), after viridis.
const QColor kRamp[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b),
                        QColor(0x21, 0x90, 0x8c), QColor(0x5d, 0xc8, 0x63),
                        QColor(0xfd, 0xe7, 0x25)};
constexpr int kBins = static_cast<int>(std::size(kRamp));
const QColor kPlain(0x21, 0x66, 0xac);
const QColor kInfeasible(0xb1, 0x00, 0x26);
const QColor kOptimum(0xe6, 0x55, 0x0d);

// The index of the point of `points` nearest `point`, with axes of the given spans; -1 for none.
int nearest(const QList<QPointF>& points, const QPointF& point, double xSpan, double ySpan) {
    int best = -1;
    double bestDistance = std::numeric_limits<double>::max();
    for (int i = 0; i < points.size(); ++i) {
        const double dx = (points[i].x() - point.x()) / xSpan;
        const double dy = (points[i].y() - point.y()) / ySpan;
        if (dx * dx + dy * dy < bestDistance) {
            bestDistance = dx * dx + dy * dy;
            best = i;
        }
    }
    return best;
}

// A bin edge with the decimals its range needs, never in exponent form (the legend is narrow).
QString binLabel(double value, double span) {
    const int decimals = span >= 50 ? 0 : span >= 5 ? 1 : span >= 0.5 ? 2 : 3;
    return QString::number(value, 'f', decimals);
}

} // namespace

ParetoFrontChart::ParetoFrontChart(QWidget* parent)
    : QChartView(parent), x_(new QValueAxis(this)), y_(new QValueAxis(this)) {
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(2, 2, 6, 2));
    chart->setTitle(tr("Pareto front"));
    chart->setTitleFont(font());
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    chart->legend()->setFont(small);
    chart->legend()->setAlignment(Qt::AlignBottom);
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    for (auto* axis : {x_, y_}) {
        axis->setLabelsFont(small);
        axis->setTitleFont(small);
        axis->setLabelFormat("%.4g");
    }
    chart->addAxis(x_, Qt::AlignBottom);
    chart->addAxis(y_, Qt::AlignLeft);
    // One series per colour bin, made once: a live update only replaces their points.
    for (int bin = 0; bin < kBins; ++bin) {
        auto* series = new QScatterSeries(this);
        series->setMarkerSize(10);
        chart->addSeries(series);
        series->attachAxis(x_);
        series->attachAxis(y_);
        connect(series, &QScatterSeries::hovered, this,
                [this, series](const QPointF& point, bool state) {
                    const int index = indexAt(series, point);
                    if (index >= 0)
                        emit pointHovered(index, state);
                });
        connect(series, &QScatterSeries::clicked, this, [this, series](const QPointF& point) {
            const int index = indexAt(series, point);
            if (index >= 0)
                emit pointClicked(index);
        });
        series_.push_back(series);
    }
    indices_.resize(series_.size());
    cloud_ = new ScatterCloudItem(chart, x_, y_);
    connect(cloud_, &ScatterCloudItem::hovered, this, &ParetoFrontChart::cloudHovered);
    connect(cloud_, &ScatterCloudItem::clicked, this, &ParetoFrontChart::cloudClicked);
    optima_ = new QScatterSeries(this);
    optima_->setName(tr("exact optimum"));
    optima_->setMarkerShape(QScatterSeries::MarkerShapeStar);
    optima_->setMarkerSize(18);
    chart->addSeries(optima_);
    optima_->attachAxis(x_);
    optima_->attachAxis(y_);
    const auto optimumAt = [this](const QPointF& point) {
        return nearest(optima_->points(), point, std::max(x_->max() - x_->min(), 1e-12),
                       std::max(y_->max() - y_->min(), 1e-12));
    };
    connect(optima_, &QScatterSeries::hovered, this,
            [this, optimumAt](const QPointF& point, bool state) {
                if (const int index = optimumAt(point); index >= 0)
                    emit optimumHovered(index, state);
            });
    connect(optima_, &QScatterSeries::clicked, this, [this, optimumAt](const QPointF& point) {
        if (const int index = optimumAt(point); index >= 0)
            emit optimumClicked(index);
    });
    setPoints({}, {}, {}, {}, {});
}

void ParetoFrontChart::setPoints(const std::vector<QPointF>& points,
                                 const std::vector<double>& colour, const QString& xTitle,
                                 const QString& yTitle, const QString& colourUnit,
                                 const std::vector<CloudPoint>& cloud,
                                 const std::vector<QPointF>& optima) {
    x_->setTitleText(xTitle);
    y_->setTitleText(yTitle);
    double low = std::numeric_limits<double>::max(), high = -low;
    for (const double c : colour) {
        low = std::min(low, c);
        high = std::max(high, c);
    }
    const bool colours = colour.size() == points.size() && !colour.empty();
    if (colours)
        for (const auto& p : cloud) {
            low = std::min(low, p.colour);
            high = std::max(high, p.colour);
        }
    const bool coloured = colours && high > low;
    low_ = coloured ? low : 0;
    high_ = coloured ? high : 0;
    const int bins = coloured ? kBins : 1;
    const double width = coloured ? (high - low) / bins : 0;
    for (int bin = 0; bin < kBins; ++bin) {
        auto* series = series_[static_cast<std::size_t>(bin)];
        const QColor c = readableOn(coloured ? kRamp[bin] : kPlain, palette());
        series->setColor(c);
        // The text colour rings the front's markers, so they stand out of the cloud's dots.
        series->setBorderColor(palette().color(QPalette::WindowText));
        series->setName(coloured ? QStringLiteral("%1–%2%3")
                                       .arg(binLabel(low + width * bin, high - low))
                                       .arg(binLabel(low + width * (bin + 1), high - low))
                                       .arg(bin == bins - 1 ? colourUnit : QString())
                                 : tr("front"));
    }
    std::vector<QList<QPointF>> binned(series_.size());
    for (auto& indices : indices_)
        indices.clear();
    double xLow = std::numeric_limits<double>::max(), xHigh = -xLow, yLow = xLow, yHigh = -xLow;
    for (int i = 0; i < static_cast<int>(points.size()); ++i) {
        const auto& p = points[static_cast<std::size_t>(i)];
        int bin = 0;
        if (coloured)
            bin = std::clamp(static_cast<int>((colour[static_cast<std::size_t>(i)] - low) / width),
                             0, bins - 1);
        binned[static_cast<std::size_t>(bin)].append(p);
        indices_[static_cast<std::size_t>(bin)].push_back(i);
        xLow = std::min(xLow, p.x());
        xHigh = std::max(xHigh, p.x());
        yLow = std::min(yLow, p.y());
        yHigh = std::max(yHigh, p.y());
    }
    const auto reach = [&](const QPointF& p) {
        xLow = std::min(xLow, p.x());
        xHigh = std::max(xHigh, p.x());
        yLow = std::min(yLow, p.y());
        yHigh = std::max(yHigh, p.y());
    };
    for (const auto& p : cloud)
        reach(p.value);
    for (const auto& p : optima)
        reach(p);
    for (std::size_t bin = 0; bin < series_.size(); ++bin)
        series_[bin]->replace(binned[bin]);
    optima_->setColor(readableOn(kOptimum, palette()));
    optima_->setBorderColor(palette().color(QPalette::WindowText));
    optima_->replace(QList<QPointF>(optima.begin(), optima.end()));
    // The legend names the colour bins, and the optima where there are any; one plain colour
    // needs one entry.
    auto* legend = chart()->legend();
    legend->setVisible(coloured || !optima.empty());
    for (int bin = 0; bin < kBins; ++bin)
        for (auto* marker : legend->markers(series_[static_cast<std::size_t>(bin)]))
            marker->setVisible(coloured ? bin < bins : bin == 0);
    for (auto* marker : legend->markers(optima_))
        marker->setVisible(!optima.empty());
    std::vector<ScatterCloudItem::Point> drawn;
    drawn.reserve(cloud.size());
    for (const auto& p : cloud)
        drawn.push_back({p.value,
                         p.mark == ScatterCloudItem::Mark::cross ? kInfeasible : colourFor(p.colour),
                         p.mark});
    if (points.empty() && cloud.empty() && optima.empty()) {
        cloud_->setPoints({});
        x_->setRange(0, 1);
        y_->setRange(0, 1);
        return;
    }
    const auto pad = [](double lo, double hi, QValueAxis* axis) {
        const double span = hi > lo ? hi - lo : std::max(std::abs(hi), 1.0);
        axis->setRange(lo - 0.08 * span, hi + 0.08 * span);
        axis->applyNiceNumbers();
    };
    pad(xLow, xHigh, x_);
    pad(yLow, yHigh, y_);
    cloud_->setPoints(std::move(drawn)); // after the axes, so it is laid out once
}

QColor ParetoFrontChart::colourFor(double value) const {
    if (!(high_ > low_))
        return readableOn(kPlain, palette());
    const double width = (high_ - low_) / kBins;
    return readableOn(kRamp[std::clamp(static_cast<int>((value - low_) / width), 0, kBins - 1)],
                      palette());
}

QScatterSeries* ParetoFrontChart::seriesOf(int index) const {
    for (std::size_t s = 0; s < indices_.size(); ++s)
        if (std::find(indices_[s].begin(), indices_[s].end(), index) != indices_[s].end())
            return series_[s];
    return nullptr;
}

// The point as the series holds it; the nearest one if the chart passed it on rounded.
int ParetoFrontChart::indexAt(const QScatterSeries* series, const QPointF& point) const {
    const auto it = std::find(series_.begin(), series_.end(), series);
    if (it == series_.end())
        return -1;
    const auto& indices = indices_[static_cast<std::size_t>(it - series_.begin())];
    const int i = nearest(series->points(), point, std::max(x_->max() - x_->min(), 1e-12),
                          std::max(y_->max() - y_->min(), 1e-12));
    return i >= 0 && i < static_cast<int>(indices.size()) ? indices[static_cast<std::size_t>(i)]
                                                          : -1;
}

} // namespace cleave::ui
