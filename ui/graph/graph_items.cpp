#include "ui/graph/graph_items.hpp"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QPainter>
#include <QPalette>
#include <QSet>
#include <QStyleOptionGraphicsItem>
#include <algorithm>
#include <cmath>

namespace cleave::ui {

namespace {

const QColor kSelection(255, 140, 0);
const QColor kEdge(120, 120, 120);
const QColor kEdgeOnDark(160, 160, 160);
const QColor kGroup(66, 133, 244);

bool isDark(const QColor& colour) {
    return colour.lightness() < 140;
}

qreal levelOfDetail(const QPainter* painter, const QStyleOptionGraphicsItem* option) {
    return option->levelOfDetailFromTransform(painter->worldTransform());
}

QSet<QString> opSet(const char* names) {
    const QStringList list = QString(names).split(' ', Qt::SkipEmptyParts);
    return {list.begin(), list.end()};
}

// Below this scale (the minimap, a fitted deep graph) shapes are a few pixels: plain fills
// look the same and draw several times faster than outlined rounded shapes.
constexpr qreal kCoarse = 0.3;

} // namespace

QColor opColour(const QString& op) {
    static const QSet<QString> layer =
        opSet("Conv ConvTranspose ConvInteger Gemm MatMul MatMulInteger QLinearConv QLinearMatMul "
              "Einsum LSTM GRU RNN FusedConv FusedGemm FusedMatMul Attention");
    static const QSet<QString> activation = opSet(
        "Relu LeakyRelu PRelu Sigmoid HardSigmoid HardSwish Tanh Elu Selu Celu Gelu Softplus "
        "Softsign Mish Clip Softmax LogSoftmax ThresholdedRelu Swish QuickGelu BiasGelu FastGelu "
        "Hardmax Erf");
    static const QSet<QString> pooling = opSet("MaxPool AveragePool GlobalAveragePool "
                                               "GlobalMaxPool LpPool GlobalLpPool MaxRoiPool "
                                               "RoiAlign MaxUnpool");
    static const QSet<QString> normalization =
        opSet("BatchNormalization InstanceNormalization LayerNormalization GroupNormalization "
              "LpNormalization LRN MeanVarianceNormalization SkipLayerNormalization "
              "SimplifiedLayerNormalization");
    static const QSet<QString> movement = opSet(
        "Reshape Flatten Transpose Concat Split Slice Gather GatherElements GatherND Squeeze "
        "Unsqueeze Expand Pad Tile Resize Upsample Cast Identity Dropout Shape Size SpaceToDepth "
        "DepthToSpace ScatterND ScatterElements Where SplitToSequence ConcatFromSequence");
    if (layer.contains(op))
        return {51, 85, 136};
    if (activation.contains(op))
        return {112, 41, 33};
    if (pooling.contains(op))
        return {51, 85, 51};
    if (normalization.contains(op))
        return {64, 64, 104};
    if (movement.contains(op))
        return {108, 79, 71};
    if (op == "Constant" || op == "ConstantOfShape")
        return {250, 250, 250};
    return {226, 226, 226};
}

NodeItem::NodeItem(int node, const QRectF& rect, const QString& op, const QFont& font)
    : node_(node), rect_(rect), op_(op), font_(font), fill_(opColour(op)) {
    setFlag(ItemIsSelectable);
    setZValue(2);
}

void NodeItem::setFill(const QColor& fill) {
    fill_ = fill.isValid() ? fill : opColour(op_);
    update();
}

QRectF NodeItem::boundingRect() const {
    return rect_.adjusted(-2, -2, 2, 2);
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const qreal lod = levelOfDetail(painter, option);
    if (lod < kCoarse && !isSelected()) {
        painter->fillRect(rect_, fill_);
        return;
    }
    QPen pen(isSelected() ? kSelection : fill_.darker(isDark(fill_) ? 140 : 125));
    pen.setCosmetic(true);
    pen.setWidthF(isSelected() ? 3.0 : 1.0);
    painter->setPen(pen);
    painter->setBrush(fill_);
    painter->drawRoundedRect(rect_, 3, 3);
    // Text smaller than a few pixels is noise, and most of the drawing time of a zoomed-out view.
    if (lod * font_.pixelSize() < 4.5)
        return;
    painter->setFont(font_);
    painter->setPen(isDark(fill_) ? Qt::white : QColor(34, 34, 34));
    painter->drawText(rect_, Qt::AlignCenter, op_);
}

EdgeItem::EdgeItem(int from, int to, const QPainterPath& path, const QPointF& tip)
    : from_(from), to_(to) {
    setZValue(1);
    setRoute(path, tip);
}

void EdgeItem::setRoute(const QPainterPath& path, const QPointF& tip) {
    prepareGeometryChange();
    path_ = path;
    const QPointF end = path.currentPosition();
    QPointF direction = tip - end;
    qreal length = std::hypot(direction.x(), direction.y());
    if (length < 0.5) { // no room was left for an arrowhead: draw a small one along the curve
        direction = end - path.pointAtPercent(0.98);
        const qreal d = std::hypot(direction.x(), direction.y());
        direction = d > 0 ? direction * (5.0 / d) : QPointF(0, 5);
        length = 5.0;
    }
    const QPointF normal(-direction.y() * 0.35, direction.x() * 0.35);
    const QPointF base = tip - direction;
    arrow_.clear();
    arrow_ << tip << base + normal << base - normal;
    bounds_ = path_.controlPointRect().united(arrow_.boundingRect()).adjusted(-2, -2, 2, 2);
    if (!label_.isEmpty())
        setLabel(label_, font_);
}

void EdgeItem::setLabel(const QString& label, const QFont& font) {
    prepareGeometryChange();
    label_ = label;
    font_ = font;
    const QFontMetricsF metrics(font_);
    const QPointF middle = path_.pointAtPercent(0.5);
    labelRect_ = QRectF(middle + QPointF(4, -metrics.height() / 2),
                        QSizeF(metrics.horizontalAdvance(label_) + 2, metrics.height()));
    bounds_ = bounds_.united(labelRect_);
}

QRectF EdgeItem::boundingRect() const {
    return bounds_;
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const bool coarse = levelOfDetail(painter, option) < kCoarse;
    // On a dark theme's background the edges need more light to stand out.
    const QColor edge =
        scene() && isDark(scene()->palette().color(QPalette::Base)) ? kEdgeOnDark : kEdge;
    QPen pen(edge);
    pen.setCosmetic(true);
    pen.setWidthF(coarse ? 1.0 : 1.2);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    if (coarse) // hairlines without antialiasing take the rasterizer's fast path
        painter->setRenderHint(QPainter::Antialiasing, false);
    painter->drawPath(path_);
    if (coarse)
        return; // an arrowhead would be under a pixel
    painter->setPen(Qt::NoPen);
    painter->setBrush(edge);
    painter->drawPolygon(arrow_);
    // Shapes only where they can be read: at a few pixels they are noise and drawing time.
    if (label_.isEmpty() || levelOfDetail(painter, option) * font_.pixelSize() < 6)
        return;
    painter->setFont(font_);
    painter->setPen(scene() ? scene()->palette().color(QPalette::PlaceholderText) : kEdge);
    painter->drawText(labelRect_, Qt::AlignLeft | Qt::AlignVCenter, label_);
}

KernelItem::KernelItem(int kernel, const QRectF& rect, bool fused)
    : kernel_(kernel), rect_(rect), fused_(fused) {
    setFlag(ItemIsSelectable);
    setZValue(0);
}

void KernelItem::setTint(const QColor& tint) {
    tint_ = tint;
    update();
}

void KernelItem::setCollapsed(bool collapsed) {
    if (!fused_ || collapsed == collapsed_)
        return;
    collapsed_ = collapsed;
    setZValue(collapsed ? 3 : 0); // over its nodes and the edges between them
    update();
}

void KernelItem::setLabel(const QString& label, const QFont& font) {
    label_ = label;
    font_ = font;
    update();
}

QRectF KernelItem::boundingRect() const {
    return rect_.adjusted(-2, -2, 2, 2);
}

void KernelItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    if (!fused_ && !isSelected())
        return;
    if (collapsed_) {
        const QColor fill = tint_.isValid() ? tint_ : QColor(214, 226, 240);
        QPen pen(isSelected() ? kSelection : fill.darker(isDark(fill) ? 160 : 140));
        pen.setCosmetic(true);
        pen.setWidthF(isSelected() ? 3.0 : 1.5);
        painter->setPen(pen);
        painter->setBrush(fill);
        painter->drawRoundedRect(rect_, 6, 6);
        if (levelOfDetail(painter, option) * font_.pixelSize() < 4.5)
            return;
        painter->setFont(font_);
        painter->setPen(isDark(fill) ? Qt::white : QColor(34, 34, 34));
        painter->drawText(rect_.adjusted(4, 2, -4, -2), Qt::AlignCenter | Qt::TextWordWrap, label_);
        return;
    }
    QColor line = isSelected() ? kSelection : tint_.isValid() ? tint_.darker(130) : kGroup;
    QColor fill = line;
    fill.setAlpha(isSelected() ? 56 : 30);
    line.setAlpha(isSelected() ? 255 : 110);
    if (levelOfDetail(painter, option) < kCoarse && !isSelected()) {
        painter->fillRect(rect_, fill);
        return;
    }
    QPen pen(line);
    pen.setCosmetic(true);
    pen.setWidthF(isSelected() ? 2.5 : 1.0);
    painter->setPen(pen);
    painter->setBrush(fill);
    painter->drawRoundedRect(rect_, 6, 6);
}

BlockItem::BlockItem(int block, const QRectF& rect, const QString& name, int nodes,
                     const QFont& font)
    : block_(block), rect_(rect), name_(name), font_(font),
      label_(QObject::tr("%1 · %2 nodes (double-click to open)").arg(name).arg(nodes)),
      labelWidth_(QFontMetricsF(font).horizontalAdvance(label_) + 24) {
    // Children are drawn only inside: a view skips a block out of sight without looking at them.
    setFlag(ItemClipsChildrenToShape);
    setZValue(0);
}

void BlockItem::setCollapsed(bool collapsed) {
    if (collapsed == collapsed_)
        return;
    prepareGeometryChange();
    collapsed_ = collapsed;
    for (auto* child : childItems())
        child->setVisible(!collapsed);
}

QRectF BlockItem::collapsedRect() const {
    const qreal width = std::max(rect_.width(), labelWidth_);
    return {rect_.center().x() - width / 2, rect_.y(), width, kCollapsedHeight};
}

QRectF BlockItem::boundingRect() const {
    // Room for the edges' shape labels, which dot did not know about.
    return collapsed_ ? collapsedRect().adjusted(-2, -2, 2, 2) : rect_.adjusted(-80, -16, 80, 16);
}

void BlockItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    if (!collapsed_)
        return;
    const QRectF box = collapsedRect();
    QPen pen(kEdge);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->setBrush(QColor(226, 230, 236));
    painter->drawRoundedRect(box, 4, 4);
    if (levelOfDetail(painter, option) * font_.pixelSize() < 4.5)
        return;
    painter->setFont(font_);
    painter->setPen(QColor(34, 34, 34));
    painter->drawText(box, Qt::AlignCenter, label_);
}

} // namespace cleave::ui
