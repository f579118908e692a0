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
    // The fill instead of the op's colour (an invalid colour: the op's again).
    void setFill(const QColor& fill);
    QColor fill() const { return fill_; }
    QRectF rect() const { return rect_; }
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
    // A new spline and arrowhead (an edge between blocks when one is collapsed or moved).
    void setRoute(const QPainterPath& path, const QPointF& tip);
    const QPainterPath& path() const { return path_; }
    // The tensor's shape ("1x64x56x56"), drawn beside the edge's middle once it is readable.
    void setLabel(const QString& label, const QFont& font);
    QString label() const { return label_; }
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int from_;
    int to_;
    QPainterPath path_;
    QPolygonF arrow_;
    QRectF bounds_;
    QString label_;
    QFont font_;
    QRectF labelRect_;
};

class KernelItem : public QGraphicsItem {
public:
    enum { Type = UserType + 3 };

    // fused: the kernel groups several nodes; a lone node's group shows only when selected.
    KernelItem(int kernel, const QRectF& rect, bool fused);

    int kernel() const { return kernel_; }
    bool isFused() const { return fused_; }
    // The group's colour instead of the default blue (an invalid colour: the default again).
    void setTint(const QColor& tint);
    QColor tint() const { return tint_; }
    // Collapsed, a fused group is one opaque box over its nodes, labelled with its type and size.
    void setCollapsed(bool collapsed);
    bool isCollapsed() const { return collapsed_; }
    void setLabel(const QString& label, const QFont& font);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int kernel_;
    QRectF rect_;
    bool fused_;
    QColor tint_;
    bool collapsed_ = false;
    QString label_;
    QFont font_;
};

// A block of a large model's layout (layout::LayoutBlock): the parent of its nodes, the edges
// between them and its kernels, whose drawing it clips, so that a view finds what is on show
// block by block. Collapsed, it hides them and is one box with its scope and size.
class BlockItem : public QGraphicsItem {
public:
    enum { Type = UserType + 4 };
    static constexpr qreal kCollapsedHeight = 34;

    BlockItem(int block, const QRectF& rect, const QString& name, int nodes, const QFont& font);

    int block() const { return block_; }
    QString name() const { return name_; }
    bool isCollapsed() const { return collapsed_; }
    void setCollapsed(bool collapsed);
    QRectF expandedRect() const { return rect_; } // in its own coordinates
    // As wide as the block, or as its label where that is wider, about the same centre.
    QRectF collapsedRect() const;
    // How much shorter it is collapsed than open; 0 while open.
    qreal saving() const { return collapsed_ ? rect_.height() - kCollapsedHeight : 0; }
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int block_;
    QRectF rect_;
    QString name_;
    QFont font_;
    QString label_;
    qreal labelWidth_;
    bool collapsed_ = false;
};

} // namespace cleave::ui
