// The whole graph in a corner of the graph view, with the part the view shows as a rectangle:
// pressing or dragging anywhere on it centres the view there.
#pragma once

#include <QGraphicsView>

namespace cleave::ui {

class GraphMinimap : public QGraphicsView {
    Q_OBJECT

public:
    // Shows view's scene and follows view's scrolling and zooming.
    explicit GraphMinimap(QGraphicsView* view, QWidget* parent = nullptr);

    // Fits the scene into the minimap again; call when the scene's contents change.
    void refit();
    // The size the minimap takes for the scene's proportions, at most maximum.
    QSize sizeFor(const QSize& maximum) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    QRectF visibleArea() const; // of the main view, in scene coordinates
    void centreViewAt(const QPoint& position);

    QGraphicsView* view_;
};

} // namespace cleave::ui
