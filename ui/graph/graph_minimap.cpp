#include "ui/graph/graph_minimap.hpp"

#include "ui/graph/graph_scene.hpp"

#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>

namespace cleave::ui {

GraphMinimap::GraphMinimap(QGraphicsView* view, QWidget* parent)
    : QGraphicsView(view->scene(), parent), view_(view) {
    setObjectName("graphMinimap");
    setInteractive(false);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // A few pixels per node: antialiasing would only blur them, and costs time on every scroll.
    setRenderHint(QPainter::Antialiasing, false);
    setFrameShape(QFrame::Box);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
    // The rectangle moves with every scroll of the main view; only it is redrawn with the items.
    const auto follow = [this] { viewport()->update(); };
    connect(view_->horizontalScrollBar(), &QScrollBar::valueChanged, this, follow);
    connect(view_->verticalScrollBar(), &QScrollBar::valueChanged, this, follow);
}

void GraphMinimap::refit() {
    if (scene())
        fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    viewport()->update();
}

QSize GraphMinimap::sizeFor(const QSize& maximum) const {
    const QRectF area = scene() ? scene()->sceneRect() : QRectF();
    if (area.isEmpty())
        return {};
    const QSizeF size = area.size().scaled(QSizeF(maximum), Qt::KeepAspectRatio);
    // Very tall or wide graphs still get a strip that can be hit.
    return QSize(std::max(24, qRound(size.width())), std::max(24, qRound(size.height())));
}

QRectF GraphMinimap::visibleArea() const {
    return view_->mapToScene(view_->viewport()->rect()).boundingRect();
}

void GraphMinimap::paintEvent(QPaintEvent* event) {
    // A large graph's overview is one image, not every item again at each scroll of the view.
    auto* graph = qobject_cast<GraphScene*>(scene());
    if (!graph || !graph->large()) {
        QGraphicsView::paintEvent(event);
        return;
    }
    QPainter painter(viewport());
    painter.fillRect(event->rect(), backgroundBrush());
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    graph->drawOverview(&painter, QRectF(viewport()->rect()), visible);
    painter.setTransform(viewportTransform());
    drawForeground(&painter, visible);
}

void GraphMinimap::drawForeground(QPainter* painter, const QRectF&) {
    const QRectF area = visibleArea().intersected(sceneRect());
    if (area.isEmpty())
        return;
    QPen pen(QColor(255, 140, 0));
    pen.setCosmetic(true);
    pen.setWidthF(1.5);
    painter->setPen(pen);
    painter->setBrush(QColor(255, 140, 0, 40));
    painter->drawRect(area);
}

void GraphMinimap::centreViewAt(const QPoint& position) {
    view_->centerOn(mapToScene(position));
}

void GraphMinimap::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton)
        centreViewAt(event->position().toPoint());
}

void GraphMinimap::mouseMoveEvent(QMouseEvent* event) {
    if (event->buttons() & Qt::LeftButton)
        centreViewAt(event->position().toPoint());
}

void GraphMinimap::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    refit();
}

void GraphMinimap::wheelEvent(QWheelEvent* event) {
    event->accept(); // the minimap keeps its fit: zooming it would hide the overview
}

} // namespace cleave::ui
