#include "ui/graph/graph_scene.hpp"

#include "core/fusion/rule_engine.hpp"
#include "ui/graph/graph_items.hpp"
#include "ui/tables/latency_format.hpp"

#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>
#include <QPalette>
#include <algorithm>
#include <cmath>

namespace cleave::ui {

namespace {

constexpr qreal kFontPixels = 11;
constexpr qreal kPaddingX = 10;
constexpr qreal kPaddingY = 6;
constexpr qreal kMinimumWidth = 48;
// Room around the drawing, so that its edge nodes can be panned away from the window's border.
constexpr qreal kMargin = 60;

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString opName(const graph::Node& node) {
    return qs(node.domain.empty() ? node.op : node.domain + "." + node.op);
}

QRectF rect(const layout::Rect& r) {
    return {r.x, r.y, r.width, r.height};
}

layout::Rect layoutRect(const QRectF& r) {
    return {r.x(), r.y(), r.width(), r.height()};
}

QPointF point(const layout::Point& p) {
    return {p.x, p.y};
}

QString shapes(const graph::Model& model, const std::vector<int>& tensors) {
    QStringList list;
    for (const int t : tensors)
        if (t >= 0)
            list << qs(graph::shape_to_string(model.tensors[static_cast<std::size_t>(t)].shape));
    return list.join(", ");
}

QString nodeToolTip(const graph::Model& model, const graph::Node& node) {
    QString tip = QString("<b>%1</b><br>%2").arg(qs(node.name).toHtmlEscaped(), opName(node));
    const QString out = shapes(model, node.outputs);
    if (!out.isEmpty())
        tip += QString(" → %1").arg(out);
    if (node.cost.macs > 0)
        tip += QObject::tr("<br>%1 MACs").arg(QLocale().toString(qlonglong(node.cost.macs)));
    return tip;
}

QString kernelToolTip(const fusion::Kernel& kernel, int index) {
    return QObject::tr("Kernel %1: <b>%2</b>%3<br>%4, %5 nodes")
        .arg(index)
        .arg(qs(kernel.type).toHtmlEscaped())
        .arg(kernel.launches > 1 ? QString(" ×%1").arg(kernel.launches) : QString())
        .arg(qs(kernel.name).toHtmlEscaped())
        .arg(kernel.nodes.size());
}

// The shape of the tensor `from` passes to `to` ("1x64x56x56"), or empty.
QString edgeShape(const graph::Model& model, int from, int to) {
    const auto& inputs = model.nodes[static_cast<std::size_t>(to)].inputs;
    for (const int tensor : model.nodes[static_cast<std::size_t>(from)].outputs)
        if (tensor >= 0 && std::find(inputs.begin(), inputs.end(), tensor) != inputs.end())
            return qs(graph::shape_to_string(model.tensors[static_cast<std::size_t>(tensor)].shape));
    return {};
}

QPainterPath spline(const layout::EdgePath& edge) {
    QPainterPath path(point(edge.points.front()));
    std::size_t i = 1;
    for (; i + 2 < edge.points.size(); i += 3)
        path.cubicTo(point(edge.points[i]), point(edge.points[i + 1]), point(edge.points[i + 2]));
    for (; i < edge.points.size(); ++i) // a polyline tail, should a route not be a whole spline
        path.lineTo(point(edge.points[i]));
    return path;
}

} // namespace

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
    font_.setPixelSize(static_cast<int>(kFontPixels));
    connect(this, &QGraphicsScene::changed, this, [this] { overviewStale_ = true; });
}

const QImage& GraphScene::overview() {
    if (!overviewStale_)
        return overview_;
    overviewStale_ = false;
    const QRectF area = sceneRect();
    if (area.isEmpty()) {
        overview_ = QImage();
        return overview_;
    }
    constexpr qreal kMaxSide = 16384;
    constexpr qreal kMaxPixels = 16.0 * 1024 * 1024;
    qreal scale = std::min({1.0, kMaxSide / area.width(), kMaxSide / area.height()});
    scale = std::min(scale, std::sqrt(kMaxPixels / (area.width() * area.height())));
    overview_ = QImage(std::max(1, qRound(area.width() * scale)),
                       std::max(1, qRound(area.height() * scale)), QImage::Format_RGB32);
    QPainter painter(&overview_);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.fillRect(overview_.rect(), backgroundBrush().style() == Qt::NoBrush
                                           ? palette().base()
                                           : backgroundBrush());
    render(&painter, QRectF(overview_.rect()), area, Qt::IgnoreAspectRatio);
    painter.end();
    return overview_;
}

void GraphScene::drawOverview(QPainter* painter, const QRectF& target, const QRectF& visible) {
    const QImage& image = overview();
    const QRectF area = sceneRect();
    const QRectF shown = visible.intersected(area);
    if (image.isNull() || shown.isEmpty())
        return;
    const qreal sx = image.width() / area.width(), sy = image.height() / area.height();
    const QRectF source((shown.x() - area.x()) * sx, (shown.y() - area.y()) * sy,
                        shown.width() * sx, shown.height() * sy);
    // `target` shows `visible`; the image covers only its part inside the scene.
    const qreal tx = target.width() / visible.width(), ty = target.height() / visible.height();
    const QRectF into(target.x() + (shown.x() - visible.x()) * tx,
                      target.y() + (shown.y() - visible.y()) * ty, shown.width() * tx,
                      shown.height() * ty);
    painter->save();
    painter->setRenderHint(QPainter::SmoothPixmapTransform);
    painter->drawImage(into, image, source);
    painter->restore();
}

std::vector<layout::Size> GraphScene::nodeSizes(const graph::Model& model) const {
    const QFontMetricsF metrics(font_);
    const qreal height = std::ceil(metrics.height() + 2 * kPaddingY);
    std::vector<layout::Size> sizes;
    sizes.reserve(model.nodes.size());
    for (const auto& node : model.nodes) {
        const qreal width = metrics.horizontalAdvance(opName(node)) + 2 * kPaddingX;
        sizes.push_back({std::ceil(std::max(kMinimumWidth, width)), height});
    }
    return sizes;
}

void GraphScene::setGraph(LaidOutGraphPtr graph) {
    clear();
    nodes_.clear();
    edges_.clear();
    kernels_.clear();
    blocks_.clear();
    blockOfNode_.clear();
    crossings_.clear();
    shift_ = 0;
    graph_ = std::move(graph);
    bounds_ = {};
    if (!graph_) {
        setSceneRect({});
        return;
    }
    const auto& model = *graph_->model;
    const auto& layout = graph_->layout;
    bounds_ = rect(layout.bounds);
    // Blocks parent their items and clip them: a view then looks at a block's items only when
    // the block is in sight, so the scene needs no index, which moving blocks would rebuild.
    const bool blocked = !layout.blocks.empty();
    setItemIndexMethod(blocked ? QGraphicsScene::NoIndex : QGraphicsScene::BspTreeIndex);
    if (blocked) {
        blockOfNode_.assign(model.nodes.size(), -1);
        for (std::size_t b = 0; b < layout.blocks.size(); ++b) {
            const auto& block = layout.blocks[b];
            auto* item = new BlockItem(static_cast<int>(b), rect(block.rect), qs(block.name),
                                       static_cast<int>(block.nodes.size()), font_);
            addItem(item);
            blocks_ << item;
            for (const int n : block.nodes)
                blockOfNode_[static_cast<std::size_t>(n)] = static_cast<int>(b);
        }
    }
    const auto place = [&](QGraphicsItem* item, int node) {
        if (blocked)
            item->setParentItem(blocks_[blockOfNode_[static_cast<std::size_t>(node)]]);
        else
            addItem(item);
    };
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
        const auto& node = model.nodes[n];
        auto* item = new NodeItem(static_cast<int>(n), rect(layout.nodes[n]), opName(node), font_);
        item->setToolTip(nodeToolTip(model, node));
        place(item, static_cast<int>(n));
        nodes_ << item;
    }
    QFont small = font_;
    small.setPixelSize(static_cast<int>(kFontPixels) - 2);
    const auto constant = blocked ? fusion::load_time_constants(model) : std::vector<bool>();
    for (const auto& edge : layout.edges) {
        const QPainterPath path = spline(edge);
        auto* item = new EdgeItem(edge.from, edge.to, path, point(edge.arrow_tip));
        item->setLabel(edgeShape(model, edge.from, edge.to), small);
        if (blocked && blockOfNode(edge.from) != blockOfNode(edge.to)) {
            addItem(item);
            qreal x = 0;
            for (const auto& p : edge.points)
                x = std::max(x, p.x);
            crossings_.push_back({item, edge.beside, x, path, point(edge.arrow_tip), false,
                                  constant[static_cast<std::size_t>(edge.from)]});
        } else {
            place(item, edge.from);
        }
        edges_ << item;
    }
    if (graph_->kernels) {
        const auto& kernels = graph_->kernels->kernels;
        for (std::size_t k = 0; k < kernels.size(); ++k) {
            auto* item = new KernelItem(static_cast<int>(k), rect(layout.kernels[k]),
                                        kernels[k].nodes.size() > 1);
            if (item->isFused()) { // a lone node's group is drawn only when selected
                item->setToolTip(kernelToolTip(kernels[k], static_cast<int>(k)));
                item->setLabel(QObject::tr("%1\n%2 nodes")
                                   .arg(qs(kernels[k].type))
                                   .arg(kernels[k].nodes.size()),
                               font_);
            }
            place(item, kernels[k].nodes.front());
            kernels_ << item;
        }
    }
    setSceneRect(bounds_.adjusted(-kMargin, -kMargin, kMargin, kMargin));
}

int GraphScene::blockOfNode(int node) const {
    return blockOfNode_.empty() ? -1 : blockOfNode_[static_cast<std::size_t>(node)];
}

void GraphScene::setBlockCollapsed(int block, bool collapsed) {
    if (block < 0 || block >= blocks_.size() || blocks_[block]->isCollapsed() == collapsed)
        return;
    blocks_[block]->setCollapsed(collapsed);
    restackBlocks();
}

void GraphScene::setBlocksCollapsed(bool collapsed) {
    for (auto* block : std::as_const(blocks_))
        block->setCollapsed(collapsed);
    restackBlocks();
}

QRectF GraphScene::endOf(int node) const {
    const auto* block = blocks_[blockOfNode_[static_cast<std::size_t>(node)]];
    if (block->isCollapsed())
        return block->mapRectToScene(block->collapsedRect());
    const auto* item = nodes_[node];
    return item->mapRectToScene(item->rect());
}

// Each block moves up by what the collapsed blocks above it save; an edge between blocks whose
// ends moved apart is routed again as core/layout routes it: a short curve or an arc.
void GraphScene::restackBlocks() {
    qreal shift = 0;
    for (auto* block : std::as_const(blocks_)) {
        if (block->pos().y() != -shift)
            block->setPos(0, -shift);
        shift += block->saving();
    }
    for (auto& crossing : crossings_) {
        const auto* source = blocks_[blockOfNode(crossing.item->from())];
        const auto* target = blocks_[blockOfNode(crossing.item->to())];
        // A constant read inside a folded block (a shape every layer reshapes to) is no data
        // flow between blocks: its arc would only cross the folded stack.
        crossing.item->setVisible(!crossing.constant ||
                                  (!source->isCollapsed() && !target->isCollapsed()));
        // Both ends open and moved alike: the laid-out route, moved with them.
        if (!source->isCollapsed() && !target->isCollapsed() &&
            source->pos().y() == target->pos().y()) {
            if (crossing.rerouted) {
                crossing.item->setRoute(crossing.path, crossing.tip);
                crossing.rerouted = false;
            }
            if (crossing.item->pos().y() != source->pos().y())
                crossing.item->setPos(0, source->pos().y());
            continue;
        }
        crossing.rerouted = true;
        crossing.item->setPos(0, 0);
        const fusion::Edge edge{crossing.item->from(), crossing.item->to(), -1};
        const auto from = layoutRect(endOf(edge.from)), to = layoutRect(endOf(edge.to));
        const auto route = crossing.beside ? layout::arc_at(edge, from, to, crossing.x)
                                           : layout::curve_down(edge, from, to);
        crossing.item->setRoute(spline(route), point(route.arrow_tip));
    }
    shift_ = shift;
    setSceneRect(graphBounds().adjusted(-kMargin, -kMargin, kMargin, kMargin));
}

void GraphScene::setKernelLatency(const std::vector<double>& ms, const LatencyRamp& ramp,
                                  const QString& device) {
    if (!graph_)
        return;
    const auto& model = *graph_->model;
    const fusion::KernelGraph* kernels = graph_->kernels.get();
    const bool show = kernels && ms.size() == kernels->kernels.size() && !ramp.isEmpty();
    const auto latency = [&](int kernel) {
        return QObject::tr("%1 ms on %2")
            .arg(qs(format_ms(ms[static_cast<std::size_t>(kernel)])), device.toHtmlEscaped());
    };
    for (auto* item : std::as_const(nodes_)) {
        const auto& node = model.nodes[static_cast<std::size_t>(item->node())];
        QString tip = nodeToolTip(model, node);
        if (show) {
            const int kernel = kernels->kernel_of_node[static_cast<std::size_t>(item->node())];
            item->setFill(ramp.colour(ms[static_cast<std::size_t>(kernel)]));
            tip += QObject::tr("<br>kernel %1: %2").arg(kernel).arg(latency(kernel));
        } else {
            item->setFill({});
        }
        item->setToolTip(tip);
    }
    for (auto* item : std::as_const(kernels_)) {
        const int k = item->kernel();
        item->setTint(show ? ramp.colour(ms[static_cast<std::size_t>(k)]) : QColor());
        if (item->isFused())
            item->setToolTip(
                kernelToolTip(graph_->kernels->kernels[static_cast<std::size_t>(k)], k) +
                (show ? "<br>" + latency(k) : QString()));
    }
}

void GraphScene::setKernelsCollapsed(bool collapsed) {
    for (auto* item : std::as_const(kernels_))
        item->setCollapsed(collapsed);
}

int GraphScene::collapsedCount() const {
    return static_cast<int>(std::count_if(kernels_.begin(), kernels_.end(),
                                          [](const KernelItem* k) { return k->isCollapsed(); }));
}

NodeItem* GraphScene::nodeItem(int node) const {
    return node >= 0 && node < nodes_.size() ? nodes_[node] : nullptr;
}

KernelItem* GraphScene::kernelItem(int kernel) const {
    return kernel >= 0 && kernel < kernels_.size() ? kernels_[kernel] : nullptr;
}

} // namespace cleave::ui
