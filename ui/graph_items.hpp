// The graph view's items: a node as a rounded box coloured by its op's category, an edge as a
// spline with an arrowhead, and a kernel as a shaded group behind its nodes.
#pragma once

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QPainterPath>
#include <QString>

namespace cleave::ui {

// The fill a node of this op gets: one colour per category (convolution and matrix products,
// activations, pooling, normalization, data movement, constants, the rest).
QColor opColour(const QString& op);

class NodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };

    NodeItem(int node, const QRectF& rect, const QString& op, const QFont& font);

    int node() const { return node_; }
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int node_;
    QRectF rect_;
    QString op_;
    QFont font_;
    QColor fill_;
};

class EdgeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 2 };

    // path: the spline; it ends where the arrowhead, which points at tip, begins.
    EdgeItem(int from, int to, const QPainterPath& path, const QPointF& tip);

    int from() const { return from_; }
    int to() const { return to_; }
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int from_;
    int to_;
    QPainterPath path_;
    QPolygonF arrow_;
    QRectF bounds_;
};

class KernelItem : public QGraphicsItem {
public:
    enum { Type = UserType + 3 };

    // fused: the kernel groups several nodes; a lone node's group shows only when selected.
    KernelItem(int kernel, const QRectF& rect, bool fused);

    int kernel() const { return kernel_; }
    bool isFused() const { return fused_; }
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int kernel_;
    QRectF rect_;
    bool fused_;
};

} // namespace cleave::ui
