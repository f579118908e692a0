// Many points drawn as one graphics item over a QChart's plot area: QScatterSeries makes an item
// per marker and slows to seconds at thousands of points, so the DSE front's evaluated points are
// drawn from small pre-rendered sprites into a cached image, rebuilt only when the points, the
// axes or the plot area change. Hover and click find the nearest point within a few pixels.
#pragma once

#include <QColor>
#include <QGraphicsObject>
#include <QImage>
#include <QPointF>
#include <vector>

class QChart;
class QValueAxis;

namespace cleave::ui {

class ScatterCloudItem : public QGraphicsObject {
    Q_OBJECT

public:
    enum class Mark : unsigned char { dot, square, cross };
    struct Point {
        QPointF value;
        QColor colour;
        Mark mark = Mark::dot;
    };

    // Lies over `chart`'s plot area, under its series (which keep their own hover and clicks).
    ScatterCloudItem(QChart* chart, QValueAxis* x, QValueAxis* y);

    void setPoints(std::vector<Point> points);
    const std::vector<Point>& points() const { return points_; }
    // The index of the point drawn within `radius` pixels of `position` (item coordinates), the
    // nearest; -1 for none.
    int indexAt(const QPointF& position, double radius = 5.0) const;
    // Where point `index` is drawn, in item coordinates.
    QPointF positionOf(int index) const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

signals:
    void hovered(int index, bool state);
    void clicked(int index);

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;

private:
    void geometryChanged();
    void render();

    QChart* chart_;
    QValueAxis* x_;
    QValueAxis* y_;
    QRectF area_;
    std::vector<Point> points_;
    std::vector<QPointF> positions_; // item coordinates, per point
    QImage cache_;
    bool dirty_ = true;
    int hovered_ = -1;
};

} // namespace cleave::ui
