// The kernel strip's painting, in the order it is drawn: the strip (latency scale, the model's
// blocks, a bar per kernel), the kernel axis, the PE lanes and their segments, the split handles
// over both, and the overview lane of a large model.
#include "ui/tables/latency_format.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/partition/partition_view.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <limits>

namespace cleave::ui {

namespace {

// 1, 2 or 5 times a power of ten: about `count` ticks over `range`.
int tickStep(int range, int count) {
    const double raw = std::max(1.0, static_cast<double>(range) / count);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double factor : {1.0, 2.0, 5.0, 10.0})
        if (factor * power >= raw)
            return static_cast<int>(factor * power);
    return static_cast<int>(10 * power);
}

QColor textOn(const QColor& fill) {
    return fill.lightnessF() > 0.6 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace

// What every part of one paint measures from: the plot's left and right, the strip's top and
// height, the kernel boundaries on show and the colour of secondary text.
struct PartitionView::PaintFrame {
    double left;
    double right;
    int top;
    int height;
    double first;
    double last;
    QColor muted;
};

void PartitionView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    if (!document_->hasMapping())
        return; // the page says why
    const PaintFrame frame{plotLeft(),
                           plotLeft() + plotWidth(),
                           stripTop(),
                           stripHeight(),
                           firstShown(),
                           lastShown(),
                           palette().color(QPalette::Disabled, QPalette::WindowText)};
    paintScale(painter, frame);
    paintBlocks(painter, frame);
    paintBars(painter, frame);
    paintKernelAxis(painter, frame);
    paintLanes(painter, frame);
    paintSegments(painter, frame);
    paintHandles(painter, frame);
    if (hasOverview())
        paintOverview(painter, frame);
}

// The strip's background and, on its left, the latency scale.
void PartitionView::paintScale(QPainter& painter, const PaintFrame& f) const {
    const QPalette& colors = palette();
    const auto& inputs = document_->inputs();
    painter.fillRect(QRectF(f.left, f.top, f.right - f.left, f.height),
                     colors.color(QPalette::AlternateBase));
    painter.setPen(colors.color(QPalette::Text));
    const QRect scaleBox(kMargin, f.top, labelWidth_ - 8, f.height);
    painter.drawText(scaleBox, Qt::AlignRight | Qt::AlignTop,
                     QString::fromStdString(format_ms(inputs->max_kernel_ms)) + " ms");
    painter.drawText(scaleBox, Qt::AlignRight | Qt::AlignBottom, "0");
    painter.setPen(f.muted);
    painter.drawText(scaleBox, Qt::AlignRight | Qt::AlignVCenter, tr("latency"));
}

// The model's blocks (a transformer's layers): every other one banded, each named by the last
// part of its scope and given its latency as mapped where they fit.
void PartitionView::paintBlocks(QPainter& painter, const PaintFrame& f) const {
    const QFontMetrics metrics = fontMetrics();
    const auto& blocks = document_->inputs()->blocks;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const auto& block = blocks[b];
        if (block.end <= f.first || block.begin >= f.last)
            continue;
        const double from = std::max(kernelX(block.begin), f.left);
        const double to = std::min(kernelX(block.end), f.right);
        const QRectF band(from, f.top, to - from, f.height);
        if (b % 2 == 1)
            painter.fillRect(band, palette().color(QPalette::Base));
        // "encoder/layers/encoder_layer_3": "encoder_layer_3", else "3" where that is too wide.
        const auto slash = block.name.rfind('/');
        QString name = QString::fromStdString(
            slash == std::string::npos ? block.name : block.name.substr(slash + 1));
        const auto fits = [&] { return metrics.horizontalAdvance(name) + 6 < band.width(); };
        if (!fits())
            name = name.mid(std::max(name.lastIndexOf('.'), name.lastIndexOf('_')) + 1);
        painter.setPen(f.muted);
        if (!name.isEmpty() && fits())
            painter.drawText(band.adjusted(3, 1, -3, 0), Qt::AlignLeft | Qt::AlignTop, name);
        // Its latency as mapped at the band's foot: "47.2 ms", or "47.2" where that is too wide.
        QString ms = QString::fromStdString(format_ms(blockMs(b)));
        if (metrics.horizontalAdvance(ms + " ms") + 6 < band.width())
            ms += " ms";
        if (metrics.horizontalAdvance(ms) + 6 < band.width())
            painter.drawText(band.adjusted(3, 0, -3, -1), Qt::AlignLeft | Qt::AlignBottom, ms);
    }
}

double PartitionView::blockMs(std::size_t block) const {
    const auto& inputs = *document_->inputs();
    const auto& b = inputs.blocks[block];
    double ms = 0;
    for (int k = b.begin; k < b.end; ++k)
        ms += inputs.kernel_ms[static_cast<std::size_t>(document_->peOfKernel(k))]
                              [static_cast<std::size_t>(k)];
    return ms;
}

// A bar per kernel, as tall as its latency on its segment's PE, in that PE's colour.
void PartitionView::paintBars(QPainter& painter, const PaintFrame& f) const {
    const auto& inputs = document_->inputs();
    const auto& mapping = document_->mapping();
    const int count = document_->kernelCount();
    const double scale = inputs->max_kernel_ms > 0 ? f.height / inputs->max_kernel_ms : 0;
    const double barWidth = plotWidth() / (f.last - f.first);
    const double gap = barWidth > 4 ? 1 : 0;
    painter.save();
    painter.setClipRect(QRectF(f.left, 0, f.right - f.left, this->height()));
    const int firstKernel = std::max(0, static_cast<int>(f.first));
    const int endKernel = std::min(count, static_cast<int>(std::ceil(f.last)));
    // Kernels narrower than a pixel: one bar per pixel column, the tallest of its kernels.
    int column = std::numeric_limits<int>::min();
    double tallest = 0;
    QColor tallestFill;
    const auto flush = [&] {
        if (column != std::numeric_limits<int>::min())
            painter.fillRect(QRectF(column, f.top + f.height - tallest, 1, tallest), tallestFill);
    };
    for (int segment = document_->segmentOf(std::min(firstKernel, count - 1));
         segment < document_->segmentCount() && document_->segmentBegin(segment) < endKernel;
         ++segment) {
        const int pe = mapping.pes[static_cast<std::size_t>(segment)];
        const QColor fill = peColor(pe);
        const auto& row = inputs->kernel_ms[static_cast<std::size_t>(pe)];
        for (int k = std::max(firstKernel, document_->segmentBegin(segment));
             k < std::min(endKernel, document_->segmentEnd(segment)); ++k) {
            const double bar = std::max(1.0, row[static_cast<std::size_t>(k)] * scale);
            const double x = kernelX(k);
            if (barWidth >= 1) {
                painter.fillRect(QRectF(x, f.top + f.height - bar, barWidth - gap, bar), fill);
                continue;
            }
            const int at = static_cast<int>(std::floor(x));
            if (at != column) {
                flush();
                column = at;
                tallest = 0;
            }
            if (bar > tallest) {
                tallest = bar;
                tallestFill = fill;
            }
        }
    }
    flush();
    painter.restore();
}

// The kernel axis under the strip, its ticks 1, 2 or 5 times a power of ten apart.
void PartitionView::paintKernelAxis(QPainter& painter, const PaintFrame& f) const {
    const QPalette& colors = palette();
    const QFontMetrics metrics = fontMetrics();
    const int count = document_->kernelCount();
    const int axis = f.top + f.height;
    painter.setPen(colors.color(QPalette::Mid));
    painter.drawLine(QPointF(f.left, axis), QPointF(f.right, axis));
    const int step = tickStep(static_cast<int>(std::ceil(f.last - f.first)),
                              std::max(2, static_cast<int>(plotWidth() / 70)));
    painter.setPen(colors.color(QPalette::Text));
    for (int k = static_cast<int>(std::ceil(f.first / step)) * step;
         k <= std::min<double>(count, f.last); k += step) {
        const double x = kernelX(k);
        painter.drawLine(QPointF(x, axis), QPointF(x, axis + 3));
        const QString label = QString::number(k);
        const double w = metrics.horizontalAdvance(label);
        painter.drawText(
            QPointF(std::clamp(x - w / 2, f.left, f.right - w), axis + 3 + metrics.ascent()),
            label);
    }
    painter.setPen(f.muted);
    painter.drawText(QRect(kMargin, axis, labelWidth_ - 8, metrics.height() + 6),
                     Qt::AlignRight | Qt::AlignVCenter, tr("kernel"));
}

// One lane per PE on show: banded, the drop target highlighted, named on the left; a PE without
// latencies says why it takes no kernels.
void PartitionView::paintLanes(QPainter& painter, const PaintFrame& f) const {
    const QPalette& colors = palette();
    const QFontMetrics metrics = fontMetrics();
    const auto& inputs = document_->inputs();
    const int laneH = laneHeight();
    for (std::size_t lane = 0; lane < lanes_.size(); ++lane) {
        const int pe = lanes_[lane];
        const int y = lanesTop() + static_cast<int>(lane) * laneH;
        if (pe == dropLane_ && draggingSegment_)
            painter.fillRect(QRectF(f.left, y, f.right - f.left, laneH),
                             colors.color(QPalette::Highlight).lighter(170));
        else if (lane % 2 == 1)
            painter.fillRect(QRectF(f.left, y, f.right - f.left, laneH),
                             colors.color(QPalette::AlternateBase));
        const bool usable = inputs->hasLatencies(pe);
        painter.setPen(usable ? colors.color(QPalette::Text) : f.muted);
        painter.drawText(QRect(kMargin, y, labelWidth_ - 8, laneH),
                         Qt::AlignRight | Qt::AlignVCenter,
                         metrics.elidedText(peKey(pe), Qt::ElideMiddle, labelWidth_ - 8));
        if (!usable) {
            painter.setPen(f.muted);
            painter.drawText(
                QRectF(f.left + 4, y, f.right - f.left - 8, laneH),
                Qt::AlignLeft | Qt::AlignVCenter,
                tr("cannot take kernels: no predicted latencies (see the note above)"));
        }
    }
}

// Each segment in its PE's lane, labelled with its kernels and compute time where that fits; a
// segment being dragged is outlined in the lane it would move to.
void PartitionView::paintSegments(QPainter& painter, const PaintFrame& f) const {
    const QFontMetrics metrics = fontMetrics();
    const auto& mapping = document_->mapping();
    const int laneH = laneHeight();
    for (int segment = 0; segment < document_->segmentCount(); ++segment) {
        const int pe = mapping.pes[static_cast<std::size_t>(segment)];
        const int begin = document_->segmentBegin(segment);
        const int end = document_->segmentEnd(segment);
        if (end <= f.first || begin >= f.last)
            continue;
        const double from = std::max(kernelX(begin), f.left - 2);
        const double to = std::min(kernelX(end), f.right + 2);
        const QRectF box(from + 1, laneTop(pe) + 2, to - from - 2, laneH - 4);
        const QColor fill = peColor(pe);
        painter.fillRect(box, fill);
        const QString text = tr("%1–%2 · %3 ms")
                                 .arg(begin)
                                 .arg(end - 1)
                                 .arg(QString::fromStdString(format_ms(segmentComputeMs(segment))));
        if (metrics.horizontalAdvance(text) + 6 < box.width()) {
            painter.setPen(textOn(fill));
            painter.drawText(box, Qt::AlignCenter, text);
        }
        if (draggingSegment_ && segment == pressedSegment_ && dropLane_ >= 0 && dropLane_ != pe) {
            QPen outline(palette().color(QPalette::Highlight), 2, Qt::DashLine);
            painter.setPen(outline);
            painter.drawRect(box.translated(0, laneTop(dropLane_) - laneTop(pe)));
        }
    }
}

// Split handles: a line through strip and lanes, a knob above the strip; the selected one in the
// highlight colour.
void PartitionView::paintHandles(QPainter& painter, const PaintFrame& f) const {
    const QPalette& colors = palette();
    const auto& points = document_->mapping().points;
    const int bottom = lanesTop() + static_cast<int>(lanes_.size()) * laneHeight();
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (points[i] < f.first || points[i] > f.last)
            continue;
        const double x = std::round(kernelX(points[i])) + 0.5;
        const bool chosen = static_cast<int>(i) == selected_;
        const QColor ink = chosen ? colors.color(hasFocus() ? QPalette::Active : QPalette::Inactive,
                                                 QPalette::Highlight)
                                  : colors.color(QPalette::WindowText);
        painter.setPen(QPen(ink, chosen ? 2 : 1));
        painter.drawLine(QPointF(x, f.top), QPointF(x, bottom));
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setBrush(ink);
        const QPointF knob[] = {
            {x - 5, double(kMargin)}, {x + 5, double(kMargin)}, {x, double(kMargin + kKnobHeight)}};
        painter.drawPolygon(knob, 3);
        painter.setRenderHint(QPainter::Antialiasing, false);
        painter.setBrush(Qt::NoBrush);
    }
}

// The overview: every segment at the scale of the whole model, the window on show outlined.
void PartitionView::paintOverview(QPainter& painter, const PaintFrame& f) const {
    const QPalette& colors = palette();
    const auto& mapping = document_->mapping();
    const int y = overviewTop();
    const double whole = std::max(1, document_->kernelCount());
    const auto at = [&](double boundary) { return f.left + (f.right - f.left) * boundary / whole; };
    painter.fillRect(QRectF(f.left, y, f.right - f.left, kOverviewHeight),
                     colors.color(QPalette::AlternateBase));
    for (int segment = 0; segment < document_->segmentCount(); ++segment)
        painter.fillRect(QRectF(at(document_->segmentBegin(segment)), y + 2,
                                std::max(1.0, at(document_->segmentEnd(segment)) -
                                                  at(document_->segmentBegin(segment))),
                                kOverviewHeight - 4),
                         peColor(mapping.pes[static_cast<std::size_t>(segment)]));
    QPen window(colors.color(QPalette::Highlight), 2);
    painter.setPen(window);
    painter.drawRect(
        QRectF(at(f.first), y, std::max(2.0, at(f.last) - at(f.first)), kOverviewHeight));
    painter.setPen(f.muted);
    painter.drawText(QRect(kMargin, y - 2, labelWidth_ - 8, kOverviewHeight + 4),
                     Qt::AlignRight | Qt::AlignVCenter, tr("overview"));
}

} // namespace cleave::ui
