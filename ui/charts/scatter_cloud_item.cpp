#include "ui/charts/scatter_cloud_item.hpp"

#include <QChart>
#include <QGraphicsScene>
#include <QGraphicsSceneHoverEvent>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsView>
#include <QPainter>
#include <QValueAxis>
#include <cmath>
#include <map>
#include <tuple>

namespace cleave::ui {

namespace {

constexpr int kSprite = 9; // pixels, odd so a point sits on the centre pixel

QImage sprite(const QColor& colour, ScatterCloudItem::Mark mark, qreal ratio) {
    QImage image(QSize(kSprite, kSprite) * ratio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPointF c(kSprite / 2.0, kSprite / 2.0);
    switch (mark) {
    case ScatterCloudItem::Mark::dot: {
        QColor fill = colour;
        fill.setAlphaF(0.55);
        painter.setPen(Qt::NoPen);
        painter.setBrush(fill);
        painter.drawEllipse(c, 2.6, 2.6);
        break;
    }
    case ScatterCloudItem::Mark::square:
        painter.setPen(QPen(colour, 1.2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(c - QPointF(2.8, 2.8), QSizeF(5.6, 5.6)));
        break;
    case ScatterCloudItem::Mark::cross:
        painter.setPen(QPen(colour, 1.5));
        painter.drawLine(c + QPointF(-3, -3), c + QPointF(3, 3));
        painter.drawLine(c + QPointF(-3, 3), c + QPointF(3, -3));
        break;
    }
    return image;
}

} // namespace

ScatterCloudItem::ScatterCloudItem(QChart* chart, QValueAxis* x, QValueAxis* y)
    : QGraphicsObject(chart), chart_(chart), x_(x), y_(y) {
    setZValue(3.5); // over the grid and axes (3), under the series (4)
    setAcceptHoverEvents(true);
    setAcceptedMouseButtons(Qt::LeftButton);
    connect(chart, &QChart::plotAreaChanged, this, [this] { geometryChanged(); });
    for (auto* axis : {x_, y_})
        connect(axis, &QValueAxis::rangeChanged, this, [this] { geometryChanged(); });
    geometryChanged();
}

void ScatterCloudItem::setPoints(std::vector<Point> points) {
    points_ = std::move(points);
    hovered_ = -1;
    geometryChanged();
}

void ScatterCloudItem::geometryChanged() {
    const QRectF area = chart_->plotArea();
    if (area != area_) {
        prepareGeometryChange();
        area_ = area;
    }
    positions_.resize(points_.size());
    const double xSpan = x_->max() - x_->min(), ySpan = y_->max() - y_->min();
    for (std::size_t i = 0; i < points_.size(); ++i) {
        const auto& v = points_[i].value;
        positions_[i] = xSpan > 0 && ySpan > 0
                            ? QPointF(area_.left() + (v.x() - x_->min()) / xSpan * area_.width(),
                                      area_.bottom() - (v.y() - y_->min()) / ySpan * area_.height())
                            : area_.center();
    }
    dirty_ = true;
    update();
}

QRectF ScatterCloudItem::boundingRect() const {
    return area_;
}

QPointF ScatterCloudItem::positionOf(int index) const {
    return index >= 0 && index < static_cast<int>(positions_.size())
               ? positions_[static_cast<std::size_t>(index)]
               : QPointF();
}

void ScatterCloudItem::render() {
    const qreal ratio = chart_->scene() && !chart_->scene()->views().isEmpty()
                            ? chart_->scene()->views().front()->devicePixelRatioF()
                            : 1.0;
    const QSize size = (area_.size() * ratio).toSize();
    if (cache_.size() != size)
        cache_ = QImage(size.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    cache_.setDevicePixelRatio(ratio);
    cache_.fill(Qt::transparent);
    QPainter painter(&cache_);
    std::map<std::tuple<QRgb, Mark>, QImage> sprites;
    const QPointF half(kSprite / 2.0, kSprite / 2.0);
    // Oldest first, so the newest points lie on top.
    for (std::size_t i = 0; i < points_.size(); ++i) {
        const auto& p = points_[i];
        auto it = sprites.find({p.colour.rgba(), p.mark});
        if (it == sprites.end())
            it = sprites
                     .emplace(std::tuple{p.colour.rgba(), p.mark}, sprite(p.colour, p.mark, ratio))
                     .first;
        const QPointF at = positions_[i] - area_.topLeft() - half;
        painter.drawImage(QPointF(std::round(at.x()), std::round(at.y())), it->second);
    }
    dirty_ = false;
}

void ScatterCloudItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    if (area_.isEmpty() || points_.empty())
        return;
    if (dirty_)
        render();
    painter->drawImage(area_.topLeft(), cache_);
}

int ScatterCloudItem::indexAt(const QPointF& position, double radius) const {
    int best = -1;
    double bestDistance = radius * radius;
    // Later points are drawn on top: on a tie the later one wins.
    for (std::size_t i = 0; i < positions_.size(); ++i) {
        const double dx = positions_[i].x() - position.x(), dy = positions_[i].y() - position.y();
        const double d = dx * dx + dy * dy;
        if (d <= bestDistance) {
            bestDistance = d;
            best = static_cast<int>(i);
        }
    }
    return best;
}

void ScatterCloudItem::hoverMoveEvent(QGraphicsSceneHoverEvent* event) {
    const int index = indexAt(event->pos());
    if (index == hovered_)
        return;
    if (hovered_ >= 0)
        emit hovered(hovered_, false);
    hovered_ = index;
    if (index >= 0)
        emit hovered(index, true);
}

void ScatterCloudItem::hoverLeaveEvent(QGraphicsSceneHoverEvent*) {
    if (hovered_ >= 0)
        emit hovered(hovered_, false);
    hovered_ = -1;
}

void ScatterCloudItem::mousePressEvent(QGraphicsSceneMouseEvent* event) {
    const int index = indexAt(event->pos());
    if (index < 0) {
        event->ignore();
        return;
    }
    emit clicked(index);
}

} // namespace cleave::ui
