#include "ui/graph/graph_view.hpp"

#include "ui/graph/graph_items.hpp"
#include "ui/graph/graph_minimap.hpp"
#include "ui/graph/graph_scene.hpp"
#include "ui/tables/term_filter_proxy.hpp"
#include "ui/latency/latency_legend.hpp"

#include <QApplication>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <limits>

namespace cleave::ui {

namespace {

constexpr qreal kMinimumZoom = 0.02;
constexpr qreal kMaximumZoom = 8.0;
// Below this the op names are too small to read: a graph that only fits smaller opens at its
// top (the inputs) at this zoom or more, and search results are shown at least this large.
constexpr qreal kReadableZoom = 0.7;
constexpr int kOverlayMargin = 10;

QString searchText(const graph::Node& node) {
    return QString::fromStdString(node.name) + '\n' +
           QString::fromStdString(node.domain.empty() ? node.op : node.domain + "." + node.op);
}

} // namespace

GraphView::GraphView(QWidget* parent)
    : QGraphicsView(parent), scene_(new GraphScene(this)), runner_(new GraphLayoutRunner(this)),
      minimap_(nullptr), status_(new QLabel(this)), legend_(new LatencyLegend(this)) {
    setObjectName("graphView");
    setScene(scene_);
    minimap_ = new GraphMinimap(this, this);
    minimap_->hide();
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setDragMode(QGraphicsView::NoDrag); // panning and picking are ours: a drag anywhere pans
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setBackgroundBrush(palette().base());
    setFocusPolicy(Qt::StrongFocus);
    // Dropped files go on to the window, which opens models.
    setAcceptDrops(false);
    viewport()->setAcceptDrops(false);

    status_->setObjectName("graphStatus");
    status_->setAlignment(Qt::AlignCenter);
    status_->setWordWrap(true);
    status_->setMargin(12);
    status_->setAutoFillBackground(true);
    status_->setFrameShape(QFrame::StyledPanel);
    status_->hide();
    legend_->hide();

    connect(runner_, &GraphLayoutRunner::laidOut, this, &GraphView::showLayout);
    connect(runner_, &GraphLayoutRunner::failed, this, [this](const QString& message) {
        showStatus(tr("Could not lay out the graph: %1").arg(message));
        emit layoutFailed(message);
    });
}

GraphView::~GraphView() = default;

void GraphView::setGraph(ModelPtr model, KernelGraphPtr kernels) {
    const bool sameModel = model && model == model_;
    model_ = model;
    if (!sameModel) {
        scene_->setGraph(nullptr);
        applyLatency();
        minimap_->hide();
        matches_.clear();
        current_ = -1;
        emit matchesChanged(current_, 0);
    }
    if (!model) {
        runner_->cancel();
        showStatus({});
        return;
    }
    showStatus(tr("Laying out…"));
    runner_->start(std::move(model), std::move(kernels), scene_->nodeSizes(*model_));
}

void GraphView::setLatency(LatencyReportPtr report) {
    latency_ = std::move(report);
    applyLatency();
}

void GraphView::setColourByLatency(bool on) {
    colourByLatency_ = on;
    applyLatency();
}

bool GraphView::showsLatency() const {
    return showsLatency_;
}

// Colours only when the prediction is for the kernels on show: a new rule set's prediction may
// arrive before its layout, or after.
void GraphView::applyLatency() {
    const auto& graph = scene_->graph();
    const bool show = colourByLatency_ && graph && latency_ && latency_->hasFigures() &&
                      latency_->request.kernels == graph->kernels;
    std::vector<double> ms;
    if (show)
        for (const auto& kernel : latency_->latency.kernels)
            ms.push_back(kernel.us / 1000);
    const LatencyRamp ramp(ms);
    const QString device = latency_ ? QString::fromStdString(latency_->request.device) : QString();
    if (show || showsLatency_)
        scene_->setKernelLatency(ms, ramp, device);
    showsLatency_ = show && !ramp.isEmpty();
    if (showsLatency_)
        legend_->setRamp(ramp, device);
    legend_->setVisible(showsLatency_);
    placeOverlays();
}

bool GraphView::isLayingOut() const {
    return runner_->isRunning();
}

QString GraphView::statusText() const {
    return status_->isHidden() ? QString() : status_->text();
}

void GraphView::showStatus(const QString& text) {
    status_->setText(text);
    status_->setVisible(!text.isEmpty());
    placeOverlays();
}

void GraphView::showLayout(const LaidOutGraphPtr& graph) {
    const bool relayout = scene_->graph() && scene_->graph()->model == graph->model;
    // A new rule set for the same model keeps the zoom and the node at the centre in place.
    const int anchor = relayout ? nodeNearestToCentre() : -1;
    QPointF offset;
    if (anchor >= 0)
        offset = mapToScene(viewport()->rect().center()) -
                 scene_->nodeItem(anchor)->sceneBoundingRect().center();
    const QList<int> selected = relayout ? selectedNodes() : QList<int>{};

    scene_->setGraph(graph);
    showsLatency_ = false; // new items wear op colours
    applyLatency();
    showStatus({});
    minimap_->setVisible(!scene_->graphBounds().isEmpty());
    placeOverlays();
    minimap_->refit();
    if (anchor >= 0)
        centerOn(scene_->nodeItem(anchor)->sceneBoundingRect().center() + offset);
    else
        showStart();
    if (!relayout && !searchText_.trimmed().isEmpty()) {
        search(searchText_); // the search box still holds terms from the model before
    } else if (!matches_.isEmpty()) {
        selectMatches();
    } else {
        for (const int node : selected)
            if (auto* item = scene_->nodeItem(node))
                item->setSelected(true);
    }
    emit layoutFinished();
}

int GraphView::nodeNearestToCentre() const {
    const QPointF centre = mapToScene(viewport()->rect().center());
    int best = -1;
    qreal distance = std::numeric_limits<qreal>::max();
    for (const auto* item : scene_->nodeItems()) {
        const QPointF d = item->sceneBoundingRect().center() - centre;
        const qreal dd = QPointF::dotProduct(d, d);
        if (dd < distance) {
            distance = dd;
            best = item->node();
        }
    }
    return best;
}

void GraphView::showStart() {
    const QRectF bounds = scene_->graphBounds();
    if (bounds.isEmpty())
        return;
    const QSizeF room = viewport()->size();
    const qreal fit = std::min(room.width() / bounds.width(), room.height() / bounds.height());
    if (fit >= kReadableZoom) {
        setScale(std::min(fit, 1.0));
        centerOn(bounds.center());
        return;
    }
    // Too big to read whole: start at the inputs, as wide as fits (readable, at most 1:1).
    const qreal scale = std::clamp(room.width() / bounds.width(), kReadableZoom, 1.0);
    setScale(scale);
    const auto* first = scene_->nodeItem(0);
    const qreal x = bounds.width() * scale <= room.width() || !first
                        ? bounds.center().x()
                        : first->sceneBoundingRect().center().x();
    centerOn(x, bounds.top() + room.height() / (2 * scale) - kOverlayMargin);
}

void GraphView::placeOverlays() {
    const QRect area = viewport()->geometry();
    if (!status_->isHidden()) {
        const int width = std::min(area.width() - 2 * kOverlayMargin, 420);
        status_->setFixedWidth(std::max(width, 80));
        status_->adjustSize();
        status_->move(area.center() - QPoint(status_->width() / 2, status_->height() / 2));
        status_->raise();
    }
    if (!legend_->isHidden()) {
        legend_->resize(legend_->sizeHint());
        legend_->move(area.left() + kOverlayMargin,
                      area.bottom() - kOverlayMargin - legend_->height());
        legend_->raise();
    }
    // Deep graphs make a tall, narrow overview: it may take the view's height, not its width.
    const QSize size = minimap_->sizeFor(
        QSize(std::min(180, area.width() / 4), std::max(0, area.height() - 2 * kOverlayMargin)));
    if (!size.isEmpty()) {
        minimap_->resize(size);
        minimap_->move(area.right() - kOverlayMargin - size.width(),
                       area.bottom() - kOverlayMargin - size.height());
    }
}

qreal GraphView::zoom() const {
    return transform().m11();
}

void GraphView::setScale(qreal scale) {
    setTransform(QTransform::fromScale(scale, scale));
    minimap_->viewport()->update();
}

void GraphView::zoomBy(qreal factor) {
    const qreal target = std::clamp(zoom() * factor, kMinimumZoom, kMaximumZoom);
    if (target == zoom())
        return;
    scale(target / zoom(), target / zoom());
    minimap_->viewport()->update();
}

void GraphView::fitGraph() {
    const QRectF bounds = scene_->graphBounds();
    if (bounds.isEmpty())
        return;
    fitInView(bounds.adjusted(-kOverlayMargin, -kOverlayMargin, kOverlayMargin, kOverlayMargin),
              Qt::KeepAspectRatio);
    if (zoom() > kMaximumZoom)
        setScale(kMaximumZoom);
    minimap_->viewport()->update();
}

void GraphView::zoomToActualSize() {
    const QPointF centre = mapToScene(viewport()->rect().center());
    setScale(1.0);
    centerOn(centre);
}

void GraphView::setKernelsCollapsed(bool collapsed) {
    scene_->setKernelsCollapsed(collapsed);
}

// The fused kernel under `position`, if any: the group a double-click collapses or expands.
KernelItem* GraphView::groupAt(const QPoint& position) const {
    for (auto* item : items(position)) {
        if (auto* kernel = qgraphicsitem_cast<KernelItem*>(item); kernel && kernel->isFused())
            return kernel;
        if (auto* node = qgraphicsitem_cast<NodeItem*>(item); node && scene_->graph() &&
                                                             scene_->graph()->kernels) {
            auto* kernel = scene_->kernelItem(
                scene_->graph()->kernels->kernel_of_node[static_cast<std::size_t>(node->node())]);
            return kernel && kernel->isFused() ? kernel : nullptr;
        }
    }
    return nullptr;
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QGraphicsView::mouseDoubleClickEvent(event);
    const QPoint at = event->position().toPoint();
    if (auto* kernel = groupAt(at))
        kernel->setCollapsed(!kernel->isCollapsed());
    else if (auto* block = qgraphicsitem_cast<BlockItem*>(itemAt(at))) // a box, or open space
        scene_->setBlockCollapsed(block->block(), !block->isCollapsed());
    event->accept();
}

void GraphView::setBlocksCollapsed(bool collapsed) {
    scene_->setBlocksCollapsed(collapsed);
}

void GraphView::selectNode(int node) {
    auto* item = scene_->nodeItem(node);
    scene_->clearSelection();
    if (!item)
        return;
    // A node found inside a collapsed block or group opens it.
    scene_->setBlockCollapsed(scene_->blockOfNode(node), false);
    if (const auto& graph = scene_->graph(); graph && graph->kernels)
        if (auto* kernel = scene_->kernelItem(
                graph->kernels->kernel_of_node[static_cast<std::size_t>(node)]))
            kernel->setCollapsed(false);
    item->setSelected(true);
    ensureVisible(item, 60, 60);
}

void GraphView::selectKernel(int kernel) {
    auto* item = scene_->kernelItem(kernel);
    scene_->clearSelection();
    if (!item)
        return;
    scene_->setBlockCollapsed(
        scene_->blockOfNode(
            scene_->graph()->kernels->kernels[static_cast<std::size_t>(kernel)].nodes.front()),
        false);
    item->setSelected(true);
    ensureVisible(item, 40, 40);
}

QList<int> GraphView::selectedNodes() const {
    QList<int> nodes;
    for (const auto* item : scene_->nodeItems())
        if (item->isSelected())
            nodes << item->node();
    return nodes;
}

QList<int> GraphView::selectedKernels() const {
    QList<int> kernels;
    for (const auto* item : scene_->kernelItems())
        if (item->isSelected())
            kernels << item->kernel();
    return kernels;
}

int GraphView::search(const QString& text) {
    searchText_ = text;
    matches_.clear();
    current_ = -1;
    const QStringList terms = TermFilterProxy::terms(text);
    if (model_ && !terms.isEmpty())
        for (std::size_t n = 0; n < model_->nodes.size(); ++n)
            if (TermFilterProxy::matchesAll(searchText(model_->nodes[n]), terms))
                matches_ << static_cast<int>(n);
    selectMatches();
    if (!matches_.isEmpty()) {
        current_ = 0;
        focusCurrentMatch();
    }
    emit matchesChanged(current_, static_cast<int>(matches_.size()));
    return static_cast<int>(matches_.size());
}

void GraphView::selectMatches() {
    scene_->clearSelection();
    for (const int node : matches_)
        if (auto* item = scene_->nodeItem(node))
            item->setSelected(true);
}

void GraphView::findNext() {
    if (matches_.isEmpty())
        return;
    current_ = (current_ + 1) % static_cast<int>(matches_.size());
    selectMatches();
    focusCurrentMatch();
    emit matchesChanged(current_, static_cast<int>(matches_.size()));
}

void GraphView::findPrevious() {
    if (matches_.isEmpty())
        return;
    const int count = static_cast<int>(matches_.size());
    current_ = (current_ - 1 + count) % count;
    selectMatches();
    focusCurrentMatch();
    emit matchesChanged(current_, count);
}

void GraphView::focusCurrentMatch() {
    const int node = matches_[current_];
    if (auto* item = scene_->nodeItem(node)) {
        if (zoom() < kReadableZoom)
            setScale(kReadableZoom);
        centerOn(item);
    }
    emit nodeActivated(node);
}

void GraphView::pick(const QPoint& position) {
    const auto hits = items(position); // topmost first
    // A collapsed group lies over its nodes: it is what is picked.
    if (auto* kernel = hits.isEmpty() ? nullptr : qgraphicsitem_cast<KernelItem*>(hits.front());
        kernel && kernel->isCollapsed()) {
        scene_->clearSelection();
        kernel->setSelected(true);
        emit kernelActivated(kernel->kernel());
        return;
    }
    for (auto* item : hits)
        if (auto* node = qgraphicsitem_cast<NodeItem*>(item)) {
            scene_->clearSelection();
            node->setSelected(true);
            emit nodeActivated(node->node());
            return;
        }
    for (auto* item : hits)
        if (auto* kernel = qgraphicsitem_cast<KernelItem*>(item))
            if (kernel->isFused()) { // a lone node's group is invisible: no target
                scene_->clearSelection();
                kernel->setSelected(true);
                emit kernelActivated(kernel->kernel());
                return;
            }
    scene_->clearSelection();
}

void GraphView::paintEvent(QPaintEvent* event) {
    // A large graph zoomed out shows its overview image: painting thousands of items a frame
    // cannot keep up, and at this scale their text is unreadable anyway.
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    const QRectF area = scene_->sceneRect();
    if (!scene_->large() || area.isEmpty() ||
        scene_->nodeItems().size() * (visible.intersected(area).height() / area.height()) *
                (visible.intersected(area).width() / area.width()) <=
            GraphScene::kMaxNodesPainted) {
        QGraphicsView::paintEvent(event);
        return;
    }
    QPainter painter(viewport());
    painter.fillRect(event->rect(), backgroundBrush());
    scene_->drawOverview(&painter, QRectF(viewport()->rect()), visible);
}

void GraphView::wheelEvent(QWheelEvent* event) {
    const QPoint delta = event->angleDelta();
    const int steps = delta.y() != 0 ? delta.y() : delta.x();
    if (steps == 0)
        return;
    // 120 units are one notch of a mouse wheel: 20% per notch, finer on touchpads.
    zoomBy(std::pow(1.2, steps / 120.0));
    event->accept();
}

void GraphView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton && event->button() != Qt::MiddleButton)
        return QGraphicsView::mousePressEvent(event);
    pressed_ = true;
    panning_ = false;
    pressPosition_ = lastPosition_ = event->position().toPoint();
    event->accept();
}

void GraphView::mouseMoveEvent(QMouseEvent* event) {
    if (!pressed_)
        return QGraphicsView::mouseMoveEvent(event);
    const QPoint position = event->position().toPoint();
    if (!panning_ &&
        (position - pressPosition_).manhattanLength() >= QApplication::startDragDistance()) {
        panning_ = true;
        viewport()->setCursor(Qt::ClosedHandCursor);
    }
    if (panning_) {
        const QPoint delta = position - lastPosition_;
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
    }
    lastPosition_ = position;
    event->accept();
}

void GraphView::mouseReleaseEvent(QMouseEvent* event) {
    if (!pressed_)
        return QGraphicsView::mouseReleaseEvent(event);
    if (!panning_ && event->button() == Qt::LeftButton)
        pick(event->position().toPoint());
    pressed_ = false;
    panning_ = false;
    viewport()->unsetCursor();
    event->accept();
}

void GraphView::keyPressEvent(QKeyEvent* event) {
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return QGraphicsView::keyPressEvent(event);
    switch (event->key()) {
    case Qt::Key_F:
        fitGraph();
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25);
        break;
    case Qt::Key_Minus:
        zoomBy(1 / 1.25);
        break;
    case Qt::Key_0:
        zoomToActualSize();
        break;
    default:
        return QGraphicsView::keyPressEvent(event);
    }
    event->accept();
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    placeOverlays();
}

void GraphView::scrollContentsBy(int dx, int dy) {
    QGraphicsView::scrollContentsBy(dx, dy);
    minimap_->viewport()->update();
}

} // namespace cleave::ui
