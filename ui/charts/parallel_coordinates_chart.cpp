#include "ui/charts/parallel_coordinates_chart.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace cleave::ui {

namespace {

constexpr double kPickPixels = 5.0;

// `colour` at `share`, the rest `background`.
QColor mix(const QColor& colour, const QColor& background, double share) {
    return QColor::fromRgbF(
        static_cast<float>(colour.redF() * share + background.redF() * (1 - share)),
        static_cast<float>(colour.greenF() * share + background.greenF() * (1 - share)),
        static_cast<float>(colour.blueF() * share + background.blueF() * (1 - share)));
}

double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b) {
    const QPointF ab = b - a;
    const double length2 = QPointF::dotProduct(ab, ab);
    const double t =
        length2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length2, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::hypot(d.x(), d.y());
}

} // namespace

ParallelCoordinatesChart::ParallelCoordinatesChart(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(240, 160);
    setAttribute(Qt::WA_OpaquePaintEvent); // the cache fills it
}

void ParallelCoordinatesChart::setLines(const QStringList& axes, std::vector<Line> lines) {
    axes_ = axes;
    lines_ = std::move(lines);
    const auto n = static_cast<std::size_t>(axes_.size());
    low_.assign(n, std::numeric_limits<double>::max());
    high_.assign(n, -std::numeric_limits<double>::max());
    for (const auto& line : lines_)
        for (std::size_t a = 0; a < n && a < line.values.size(); ++a) {
            low_[a] = std::min(low_[a], line.values[a]);
            high_[a] = std::max(high_[a], line.values[a]);
        }
    if (hovered_ >= static_cast<int>(lines_.size()))
        hovered_ = -1;
    layoutLines();
}

QRectF ParallelCoordinatesChart::plotArea() const {
    const QFontMetrics metrics(font());
    const double top = metrics.height() * 2.6, bottom = metrics.height() * 1.8;
    const double side = std::max(40.0, metrics.horizontalAdvance("max memory (MiB)") / 2.0 + 6);
    return QRectF(side, top, std::max(1.0, width() - 2 * side),
                  std::max(1.0, height() - top - bottom));
}

void ParallelCoordinatesChart::layoutLines() {
    const QRectF area = plotArea();
    const auto n = static_cast<std::size_t>(axes_.size());
    xy_.assign(lines_.size(), {});
    for (std::size_t i = 0; i < lines_.size(); ++i) {
        auto& points = xy_[i];
        points.resize(n);
        for (std::size_t a = 0; a < n; ++a) {
            const double x = n > 1 ? area.left() + area.width() * static_cast<double>(a) / (n - 1)
                                   : area.center().x();
            const double span = high_[a] - low_[a];
            const double v = a < lines_[i].values.size() ? lines_[i].values[a] : low_[a];
            const double t = span > 0 ? (v - low_[a]) / span : 0.5;
            points[a] = QPointF(x, area.bottom() - t * area.height());
        }
    }
    dirty_ = true;
    update();
}

void ParallelCoordinatesChart::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    layoutLines();
}

QPointF ParallelCoordinatesChart::positionOf(int index, int axis) const {
    if (index < 0 || index >= static_cast<int>(xy_.size()) || axis < 0 || axis >= axisCount())
        return {};
    return xy_[static_cast<std::size_t>(index)][static_cast<std::size_t>(axis)];
}

void ParallelCoordinatesChart::drawLine(QPainter& painter, int index, double width) const {
    const auto& points = xy_[static_cast<std::size_t>(index)];
    if (points.size() < 2)
        return;
    painter.setPen(QPen(lines_[static_cast<std::size_t>(index)].colour, width));
    painter.drawPolyline(points.data(), static_cast<int>(points.size()));
}

void ParallelCoordinatesChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRectF area = plotArea();
    const auto n = axes_.size();
    const QColor base = palette().color(QPalette::Base);
    if (dirty_ || cache_.size() != size() * devicePixelRatioF()) {
        cache_ = QImage(size() * devicePixelRatioF(), QImage::Format_RGB32);
        cache_.setDevicePixelRatio(devicePixelRatioF());
        cache_.fill(base);
        QPainter lines(&cache_);
        // Faint lines first, batched by colour in one call each, in opaque colours mixed with the
        // background: Qt's raster engine blends translucent spans on a thread pool, which costs
        // more than the drawing for thousands of lines. The front on top, antialiased.
        std::map<QRgb, std::vector<QLineF>> faint;
        std::size_t faintLines = 0;
        for (std::size_t i = 0; i < lines_.size(); ++i)
            if (lines_[i].faint) {
                ++faintLines;
                auto& batch = faint[lines_[i].colour.rgba()];
                for (std::size_t a = 1; a < xy_[i].size(); ++a)
                    batch.emplace_back(xy_[i][a - 1], xy_[i][a]);
            }
        lines.setRenderHint(QPainter::Antialiasing, faintLines < 2000);
        for (const auto& [rgba, batch] : faint) {
            lines.setPen(QPen(mix(QColor::fromRgba(rgba), base, 0.3), 0));
            lines.drawLines(batch.data(), static_cast<int>(batch.size()));
        }
        lines.setRenderHint(QPainter::Antialiasing);
        for (int i = 0; i < static_cast<int>(lines_.size()); ++i)
            if (!lines_[static_cast<std::size_t>(i)].faint)
                drawLine(lines, i, 1.6);
        dirty_ = false;
    }
    painter.drawImage(QPointF(0, 0), cache_);
    const QColor text = palette().color(QPalette::Text);
    const QColor axis = palette().color(QPalette::Mid);
    const QFontMetrics metrics(font());
    for (qsizetype a = 0; a < static_cast<qsizetype>(n); ++a) {
        const double x =
            n > 1 ? area.left() + area.width() * static_cast<double>(a) / static_cast<double>(n - 1)
                  : area.center().x();
        painter.setPen(QPen(axis, 1));
        painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    }
    if (hovered_ >= 0) {
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(palette().color(QPalette::Base), 5));
        const auto& points = xy_[static_cast<std::size_t>(hovered_)];
        painter.drawPolyline(points.data(), static_cast<int>(points.size()));
        drawLine(painter, hovered_, 3.0);
    }
    painter.setPen(text);
    for (qsizetype a = 0; a < static_cast<qsizetype>(n); ++a) {
        const double x =
            n > 1 ? area.left() + area.width() * static_cast<double>(a) / static_cast<double>(n - 1)
                  : area.center().x();
        const auto index = static_cast<std::size_t>(a);
        const auto label = [&](double y, const QString& s) {
            const double w = metrics.horizontalAdvance(s);
            painter.drawText(QPointF(std::clamp(x - w / 2, 2.0, width() - w - 2), y), s);
        };
        label(metrics.ascent() + 2, axes_[a]);
        if (!lines_.empty()) {
            label(area.top() - metrics.descent() - 3, QString::number(high_[index], 'g', 4));
            label(area.bottom() + metrics.ascent() + 3, QString::number(low_[index], 'g', 4));
        }
    }
    if (lines_.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(area, Qt::AlignCenter, tr("No solutions yet"));
    }
}

int ParallelCoordinatesChart::lineAt(const QPointF& position) const {
    int best = -1;
    double bestDistance = kPickPixels;
    bool bestFaint = true;
    for (std::size_t i = 0; i < xy_.size(); ++i) {
        const auto& points = xy_[i];
        double d = std::numeric_limits<double>::max();
        for (std::size_t a = 1; a < points.size(); ++a)
            if (position.x() >= points[a - 1].x() - kPickPixels &&
                position.x() <= points[a].x() + kPickPixels)
                d = std::min(d, distanceToSegment(position, points[a - 1], points[a]));
        const bool faint = lines_[i].faint;
        // A front line within reach beats any faint one.
        if (d <= kPickPixels &&
            ((bestFaint && !faint) || (faint == bestFaint && d <= bestDistance))) {
            best = static_cast<int>(i);
            bestDistance = d;
            bestFaint = faint;
        }
    }
    return best;
}

void ParallelCoordinatesChart::mouseMoveEvent(QMouseEvent* event) {
    const int index = lineAt(event->position());
    if (index == hovered_)
        return;
    if (hovered_ >= 0)
        emit lineHovered(hovered_, false);
    hovered_ = index;
    update();
    if (index >= 0)
        emit lineHovered(index, true);
}

void ParallelCoordinatesChart::mousePressEvent(QMouseEvent* event) {
    const int index = lineAt(event->position());
    if (index >= 0 && event->button() == Qt::LeftButton)
        emit lineClicked(index);
    else
        QWidget::mousePressEvent(event);
}

void ParallelCoordinatesChart::leaveEvent(QEvent* event) {
    QWidget::leaveEvent(event);
    if (hovered_ >= 0)
        emit lineHovered(hovered_, false);
    hovered_ = -1;
    update();
}

} // namespace cleave::ui
