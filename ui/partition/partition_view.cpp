#include "ui/partition/partition_view.hpp"

#include "ui/tables/latency_format.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/export/view_export.hpp"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace cleave::ui {

namespace {

// Tableau 10: distinct hues that stay apart for the usual 2-8 PEs of a mapping.
constexpr QRgb kPalette[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                             0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
constexpr int kHandleReach = 4; // pixels either side of a handle that grab it
constexpr int kOverviewKernels = 1000; // above this, the overview lane
constexpr double kFewestShown = 8; // kernels on show at the deepest zoom

} // namespace

PartitionView::PartitionView(PartitionDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
    setObjectName("partitionView");
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    connect(document_, &PartitionDocument::inputsChanged, this, &PartitionView::updateInputs);
    connect(document_, &PartitionDocument::mappingChanged, this, [this] {
        if (selected_ >= static_cast<int>(document_->mapping().points.size()))
            selected_ = -1;
        update();
    });
    updateInputs();
}

void PartitionView::updateInputs() {
    first_ = last_ = 0;
    selected_ = -1;
    draggedSplit_ = -1;
    pressedSegment_ = -1;
    draggingSegment_ = false;
    colorIndex_.clear();
    lanes_.clear();
    laneOf_.clear();
    labelWidth_ = fontMetrics().horizontalAdvance("nx01_arm012345");
    if (const auto& inputs = document_->inputs()) {
        int next = 0;
        for (int pe = 0; pe < inputs->peCount(); ++pe) {
            colorIndex_.push_back(inputs->hasLatencies(pe) ? next++ : -1);
            labelWidth_ = std::max(labelWidth_, fontMetrics().horizontalAdvance(peKey(pe)));
            const bool shown = showAllLanes_ || inputs->hasLatencies(pe);
            laneOf_.push_back(shown ? static_cast<int>(lanes_.size()) : -1);
            if (shown)
                lanes_.push_back(pe);
        }
    }
    labelWidth_ += 12;
    updateGeometry();
    update();
}

void PartitionView::setShowAllLanes(bool all) {
    showAllLanes_ = all;
    const int selected = selected_;
    updateInputs();
    selectSplit(selected);
}

void PartitionView::selectSplit(int split) {
    selected_ =
        split >= 0 && split < static_cast<int>(document_->mapping().points.size()) ? split : -1;
    update();
}

QColor PartitionView::peColor(int pe) const {
    if (pe < 0 || pe >= static_cast<int>(colorIndex_.size()) ||
        colorIndex_[static_cast<std::size_t>(pe)] < 0)
        return palette().color(QPalette::Disabled, QPalette::WindowText);
    return QColor(kPalette[colorIndex_[static_cast<std::size_t>(pe)] % std::size(kPalette)]);
}

QString PartitionView::peKey(int pe) const {
    return QString::fromStdString(
        document_->inputs()->request.cluster->pes[static_cast<std::size_t>(pe)].key);
}

double PartitionView::segmentComputeMs(int segment) const {
    const int pe = document_->mapping().pes[static_cast<std::size_t>(segment)];
    const auto& row = document_->inputs()->kernel_ms[static_cast<std::size_t>(pe)];
    double sum = 0;
    for (int k = document_->segmentBegin(segment); k < document_->segmentEnd(segment); ++k)
        sum += row[static_cast<std::size_t>(k)];
    return sum;
}

// Geometry, top to bottom: handle knobs, the strip, the kernel axis, the overview lane of a large
// model, one lane per PE.
double PartitionView::plotLeft() const {
    return kMargin + labelWidth_;
}

double PartitionView::plotWidth() const {
    return std::max(1.0, width() - plotLeft() - kMargin - 4);
}

double PartitionView::firstShown() const {
    return last_ > first_ ? first_ : 0;
}

double PartitionView::lastShown() const {
    return last_ > first_ ? last_ : std::max(1, document_->kernelCount());
}

void PartitionView::showKernels(double first, double last) {
    const double count = std::max(1, document_->kernelCount());
    const double span = std::clamp(last - first, std::min(kFewestShown, count), count);
    first = std::clamp(first, 0.0, count - span);
    first_ = first;
    last_ = first + span;
    if (first_ <= 0 && last_ >= count)
        first_ = last_ = 0;
    update();
}

double PartitionView::kernelX(int boundary) const {
    return plotLeft() + plotWidth() * (boundary - firstShown()) / (lastShown() - firstShown());
}

// Where x falls on the kernel axis, in kernel boundaries (fractions between them).
double PartitionView::boundaryUnder(double x) const {
    return firstShown() + (x - plotLeft()) / plotWidth() * (lastShown() - firstShown());
}

int PartitionView::boundaryAt(double x) const {
    return std::clamp(static_cast<int>(std::lround(boundaryUnder(x))), 0,
                      document_->kernelCount());
}

int PartitionView::kernelAt(double x) const {
    const double at = boundaryUnder(x);
    return at < firstShown() || at >= std::min<double>(document_->kernelCount(), lastShown())
               ? -1
               : static_cast<int>(at);
}

bool PartitionView::hasOverview() const {
    return document_->kernelCount() > kOverviewKernels;
}

QPoint PartitionView::overviewPosition(double boundary) const {
    const double count = std::max(1, document_->kernelCount());
    return {static_cast<int>(std::lround(plotLeft() + plotWidth() * boundary / count)),
            overviewTop() + kOverviewHeight / 2};
}

void PartitionView::centreOverviewAt(double x) {
    const double count = std::max(1, document_->kernelCount());
    const double centre = (x - plotLeft()) / plotWidth() * count;
    const double span = lastShown() - firstShown();
    showKernels(centre - span / 2, centre + span / 2);
}

// Moves the window so that `boundary` is on show, keeping its width.
void PartitionView::keepInView(int boundary) {
    const double first = firstShown(), last = lastShown(), span = last - first;
    if (boundary < first)
        showKernels(boundary - span / 10, boundary - span / 10 + span);
    else if (boundary > last)
        showKernels(boundary + span / 10 - span, boundary + span / 10);
}

int PartitionView::stripTop() const {
    return kMargin + kKnobHeight + 2;
}

int PartitionView::stripHeight() const {
    return fontMetrics().height() * 4;
}

// Under the kernel axis: the overview lane (large models only), then the PE lanes.
int PartitionView::overviewTop() const {
    return stripTop() + stripHeight() + fontMetrics().height() + 6;
}

int PartitionView::lanesTop() const {
    return overviewTop() + (hasOverview() ? kOverviewHeight + 6 : 0);
}

int PartitionView::laneHeight() const {
    return fontMetrics().height() + 4;
}

int PartitionView::laneTop(int pe) const {
    return lanesTop() + laneOf_[static_cast<std::size_t>(pe)] * laneHeight();
}

int PartitionView::contentHeight() const {
    return lanesTop() + std::max<int>(1, static_cast<int>(lanes_.size())) * laneHeight() + kMargin;
}

QSize PartitionView::sizeHint() const {
    return {800, contentHeight()};
}

QSize PartitionView::minimumSizeHint() const {
    return {labelWidth_ + 200, contentHeight()};
}

int PartitionView::splitAt(QPointF position) const {
    if (!document_->hasMapping() || position.y() < kMargin ||
        position.y() > contentHeight() - kMargin)
        return -1;
    const auto& points = document_->mapping().points;
    int best = -1;
    double bestDistance = kHandleReach + 0.5;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const double distance = std::abs(kernelX(points[i]) - position.x());
        if (distance < bestDistance) {
            bestDistance = distance;
            best = static_cast<int>(i);
        }
    }
    return best;
}

int PartitionView::laneAt(double y) const {
    if (!document_->inputs() || y < lanesTop())
        return -1;
    const int lane = static_cast<int>((y - lanesTop()) / laneHeight());
    return lane < static_cast<int>(lanes_.size()) ? lanes_[static_cast<std::size_t>(lane)] : -1;
}

int PartitionView::segmentAt(QPointF position) const {
    if (!document_->hasMapping())
        return -1;
    const int kernel = kernelAt(position.x());
    if (kernel < 0)
        return -1;
    const int segment = document_->segmentOf(kernel);
    if (position.y() >= stripTop() && position.y() < overviewTop())
        return segment;
    const int lane = laneAt(position.y());
    return lane >= 0 && lane == document_->mapping().pes[static_cast<std::size_t>(segment)]
               ? segment
               : -1;
}

QPoint PartitionView::handlePosition(int split) const {
    return {static_cast<int>(
                std::lround(kernelX(document_->mapping().points[static_cast<std::size_t>(split)]))),
            kMargin + kKnobHeight / 2};
}

QPoint PartitionView::boundaryPosition(int point) const {
    return {static_cast<int>(std::lround(kernelX(point))), kMargin + kKnobHeight / 2};
}

QPoint PartitionView::lanePosition(int pe, int kernel) const {
    return {static_cast<int>(std::lround((kernelX(kernel) + kernelX(kernel + 1)) / 2)),
            laneTop(pe) + laneHeight() / 2};
}

bool PartitionView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

QString PartitionView::toolTipAt(QPointF position) const {
    const auto& inputs = document_->inputs();
    if (!inputs)
        return {};
    const int lane = laneAt(position.y());
    if (lane >= 0 && position.x() < plotLeft())
        return inputs->hasLatencies(lane)
                   ? tr("%1: %2 of %3")
                         .arg(
                             peKey(lane),
                             QString::fromStdString(
                                 inputs->request.cluster->pes[static_cast<std::size_t>(lane)]
                                     .spec.name),
                             QString::fromStdString(
                                 inputs->request.cluster->pes[static_cast<std::size_t>(lane)].host))
                   : QString::fromStdString(inputs->pe_errors[static_cast<std::size_t>(lane)]);
    if (!document_->hasMapping())
        return {};
    const int split = splitAt(position);
    if (split >= 0)
        return tr("Split %1 before kernel %2: drag it, or click it and press Left/Right (Shift: "
                  "10 kernels); Delete removes it")
            .arg(split + 1)
            .arg(document_->mapping().points[static_cast<std::size_t>(split)]);
    const int kernel = kernelAt(position.x());
    if (kernel < 0)
        return {};
    const int pe = document_->peOfKernel(kernel);
    if (position.y() >= stripTop() && position.y() < stripTop() + stripHeight()) {
        const auto& k = inputs->request.kernels->kernels[static_cast<std::size_t>(kernel)];
        QString text =
            tr("Kernel %1: %2 (%3)\n%4 ms on %5")
                .arg(kernel)
                .arg(QString::fromStdString(k.type), QString::fromStdString(k.name),
                     QString::fromStdString(format_ms(inputs->kernel_ms[static_cast<std::size_t>(
                         pe)][static_cast<std::size_t>(kernel)])),
                     peKey(pe));
        for (std::size_t b = 0; b < inputs->blocks.size(); ++b) {
            const auto& block = inputs->blocks[b];
            if (kernel >= block.begin && kernel < block.end && !block.name.empty())
                text += tr("\nin %1 (kernels %2–%3, %4 ms as mapped)")
                            .arg(QString::fromStdString(block.name))
                            .arg(block.begin)
                            .arg(block.end - 1)
                            .arg(QString::fromStdString(format_ms(blockMs(b))));
        }
        return text;
    }
    const int segment = segmentAt(position);
    if (segment >= 0)
        return tr("Segment %1: kernels %2–%3 on %4, %5 ms of compute\nDrag it to another lane to "
                  "run it there")
            .arg(segment + 1)
            .arg(document_->segmentBegin(segment))
            .arg(document_->segmentEnd(segment) - 1)
            .arg(peKey(pe), QString::fromStdString(format_ms(segmentComputeMs(segment))));
    return {};
}

void PartitionView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !document_->hasMapping())
        return QWidget::mousePressEvent(event);
    const QPointF position = event->position();
    if (hasOverview() && position.y() >= overviewTop() &&
        position.y() < overviewTop() + kOverviewHeight) {
        draggingOverview_ = true;
        centreOverviewAt(position.x());
        return;
    }
    const int split = splitAt(position);
    if (split >= 0) {
        selectSplit(split);
        draggedSplit_ = split;
        ++dragId_;
        return;
    }
    pressedSegment_ = laneAt(position.y()) >= 0 ? segmentAt(position) : -1;
    pressPosition_ = position.toPoint();
    const int kernel = kernelAt(position.x());
    if (kernel >= 0 && position.y() >= stripTop() && position.y() < overviewTop())
        emit kernelActivated(kernel);
}

void PartitionView::mouseMoveEvent(QMouseEvent* event) {
    const QPointF position = event->position();
    if (draggingOverview_) {
        centreOverviewAt(position.x());
        return;
    }
    if (draggedSplit_ >= 0) {
        document_->moveSplit(draggedSplit_, boundaryAt(position.x()), dragId_);
        return;
    }
    if (pressedSegment_ >= 0) {
        if (!draggingSegment_ &&
            (position.toPoint() - pressPosition_).manhattanLength() >= 4) // QApplication's is 10
            draggingSegment_ = true;
        if (draggingSegment_) {
            dropLane_ = laneAt(position.y());
            setCursor(dropLane_ >= 0 && document_->isUsable(dropLane_) ? Qt::ClosedHandCursor
                                                                       : Qt::ForbiddenCursor);
            update();
        }
        return;
    }
    if (splitAt(position) >= 0)
        setCursor(Qt::SplitHCursor);
    else if (laneAt(position.y()) >= 0 && segmentAt(position) >= 0)
        setCursor(Qt::OpenHandCursor);
    else
        unsetCursor();
}

void PartitionView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mouseReleaseEvent(event);
    if (draggedSplit_ >= 0)
        document_->moveSplit(draggedSplit_, boundaryAt(event->position().x()), dragId_);
    else if (draggingSegment_ && dropLane_ >= 0)
        document_->assignSegment(pressedSegment_, dropLane_);
    draggedSplit_ = -1;
    pressedSegment_ = -1;
    draggingSegment_ = false;
    draggingOverview_ = false;
    dropLane_ = -1;
    unsetCursor();
    update();
}

void PartitionView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || splitAt(event->position()) >= 0)
        return;
    const int point = boundaryAt(event->position().x());
    if (document_->addSplit(point))
        selectSplit(static_cast<int>(std::lower_bound(document_->mapping().points.begin(),
                                                      document_->mapping().points.end(), point) -
                                     document_->mapping().points.begin()));
}

void PartitionView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_0 && event->modifiers() & Qt::ControlModifier) {
        showKernels(0, document_->kernelCount());
        return;
    }
    if (selected_ < 0 || !document_->hasMapping())
        return QWidget::keyPressEvent(event);
    const int step = event->modifiers() & Qt::ShiftModifier ? 10 : 1;
    const int point = document_->mapping().points[static_cast<std::size_t>(selected_)];
    switch (event->key()) {
    case Qt::Key_Left:
        document_->moveSplit(selected_, point - step);
        keepInView(document_->mapping().points[static_cast<std::size_t>(selected_)]);
        return;
    case Qt::Key_Right:
        document_->moveSplit(selected_, point + step);
        keepInView(document_->mapping().points[static_cast<std::size_t>(selected_)]);
        return;
    case Qt::Key_Delete:
    case Qt::Key_Backspace:
        document_->removeSplit(selected_);
        selectSplit(std::min(selected_, static_cast<int>(document_->mapping().points.size()) - 1));
        return;
    case Qt::Key_Escape:
        selectSplit(-1);
        return;
    default:
        return QWidget::keyPressEvent(event);
    }
}

// Tab steps through the handles; past the last (or before the first) it leaves the view.
bool PartitionView::focusNextPrevChild(bool next) {
    const int splits = static_cast<int>(document_->mapping().points.size());
    const int target = selected_ < 0 ? (next ? 0 : splits - 1) : selected_ + (next ? 1 : -1);
    if (hasFocus() && document_->hasMapping() && target >= 0 && target < splits) {
        selectSplit(target);
        return true;
    }
    selectSplit(-1);
    return QWidget::focusNextPrevChild(next);
}

void PartitionView::contextMenuEvent(QContextMenuEvent* event) {
    if (!document_->hasMapping())
        return;
    const QPointF position = event->pos();
    QMenu menu(this);
    menu.setToolTipsVisible(true);
    const int split = splitAt(position);
    if (split >= 0) {
        const int point = document_->mapping().points[static_cast<std::size_t>(split)];
        menu.addAction(tr("Remove Split at Kernel %1").arg(point), this,
                       [this, split] { document_->removeSplit(split); });
    } else if (const int kernel = kernelAt(position.x()); kernel >= 0) {
        const int segment = document_->segmentOf(kernel);
        auto* runOn = menu.addMenu(tr("Run Segment %1 (Kernels %2–%3) On")
                                       .arg(segment + 1)
                                       .arg(document_->segmentBegin(segment))
                                       .arg(document_->segmentEnd(segment) - 1));
        runOn->setToolTipsVisible(true);
        const auto& inputs = *document_->inputs();
        for (int pe = 0; pe < inputs.peCount(); ++pe) {
            auto* action = runOn->addAction(
                peKey(pe), this, [this, segment, pe] { document_->assignSegment(segment, pe); });
            action->setCheckable(true);
            action->setChecked(document_->mapping().pes[static_cast<std::size_t>(segment)] == pe);
            action->setEnabled(inputs.hasLatencies(pe));
            if (!inputs.hasLatencies(pe))
                action->setToolTip(
                    QString::fromStdString(inputs.pe_errors[static_cast<std::size_t>(pe)]));
        }
        const int point = boundaryAt(position.x());
        auto* add = menu.addAction(tr("Add Split Before Kernel %1").arg(point), this,
                                   [this, point] { document_->addSplit(point); });
        add->setEnabled(point > 0 && point < document_->kernelCount() &&
                        !std::binary_search(document_->mapping().points.begin(),
                                            document_->mapping().points.end(), point));
    }
    if (last_ > first_)
        menu.addAction(tr("Show Every Kernel"), QKeySequence(Qt::CTRL | Qt::Key_0), this,
                       [this] { showKernels(0, document_->kernelCount()); });
    if (!exportName(this).isEmpty())
        addExportAction(&menu, this);
    if (!menu.isEmpty())
        menu.exec(event->globalPos());
}

void PartitionView::wheelEvent(QWheelEvent* event) {
    const QPointF position = event->position();
    if (!document_->hasMapping() || position.x() < plotLeft() ||
        position.x() > plotLeft() + plotWidth())
        return QWidget::wheelEvent(event);
    const double first = firstShown(), last = lastShown(), span = last - first;
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ShiftModifier || delta.x() != 0) {
        // Pans by a tenth of the window per notch.
        const int notches = delta.x() != 0 ? delta.x() : delta.y();
        const double shift = -notches / 120.0 * span / 10;
        showKernels(first + shift, last + shift);
    } else {
        // Zooms around the kernel under the cursor: it stays where it is.
        const double factor = std::pow(1.25, -delta.y() / 120.0);
        const double at = boundaryUnder(position.x());
        const double next = std::clamp(span * factor, std::min<double>(kFewestShown, last),
                                       static_cast<double>(std::max(1, document_->kernelCount())));
        const double from = at - (at - first) * next / span;
        showKernels(from, from + next);
    }
    event->accept();
}

} // namespace cleave::ui
