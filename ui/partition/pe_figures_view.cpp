#include "ui/partition/pe_figures_view.hpp"

#include "ui/tables/latency_format.hpp"
#include "ui/document/partition_document.hpp"

#include <QLocale>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace cleave::ui {

namespace {

constexpr int kMargin = 8;

QString bytesText(std::int64_t bytes) {
    return QLocale().formattedDataSize(bytes, 1);
}

} // namespace

PeFiguresView::PeFiguresView(PartitionDocument* document, std::function<QColor(int)> peColor,
                             QWidget* parent)
    : QWidget(parent), document_(document), peColor_(std::move(peColor)) {
    setObjectName("peFigures");
    connect(document_, &PartitionDocument::mappingChanged, this, &PeFiguresView::updateRows);
    connect(document_, &PartitionDocument::llmMemoryChanged, this,
            qOverload<>(&PeFiguresView::update));
    updateRows();
}

namespace {

// The pool of a decoder's memory that `pe` draws on; null for a model that is no decoder.
const partition::LlmMemoryPool* poolOf(const PartitionDocument& document, int pe) {
    const auto& memory = document.llmMemory();
    if (!memory)
        return nullptr;
    for (const auto& pool : memory->pools)
        if (std::find(pool.pes.begin(), pool.pes.end(), pe) != pool.pes.end())
            return &pool;
    return nullptr;
}

} // namespace

std::int64_t PeFiguresView::peMemory(int pe) const {
    if (const auto& memory = document_->llmMemory())
        return memory->pes[static_cast<std::size_t>(pe)].total();
    return document_->evaluation().pes[static_cast<std::size_t>(pe)].memory_bytes();
}

void PeFiguresView::updateRows() {
    const auto old = rows_.size();
    rows_.clear();
    if (document_->hasMapping())
        for (const int pe : document_->mapping().pes)
            if (std::find(rows_.begin(), rows_.end(), pe) == rows_.end())
                rows_.push_back(pe);
    if (rows_.size() != old)
        updateGeometry();
    update();
}

std::int64_t PeFiguresView::hostMemory(int pe) const {
    if (const auto* pool = poolOf(*document_, pe))
        return pool->used.total();
    const auto& cluster = *document_->inputs()->request.cluster;
    const auto host = cluster.pes[static_cast<std::size_t>(pe)].host_index;
    std::int64_t bytes = 0;
    for (std::size_t other = 0; other < cluster.pes.size(); ++other)
        if (cluster.pes[other].host_index == host)
            bytes += document_->evaluation().pes[other].memory_bytes();
    return bytes;
}

bool PeFiguresView::memoryOverCapacity(int pe) const {
    if (!document_->hasMapping())
        return false;
    if (const auto* pool = poolOf(*document_, pe))
        return !pool->fits;
    const auto& capacity = document_->inputs()->capacity_bytes[static_cast<std::size_t>(pe)];
    return capacity && hostMemory(pe) > *capacity;
}

// "1.7 GiB of 8.0 GiB (21.6%)", or what its host (a decoder: its pool) needs when it does not
// fit. A decoder's pool is held against its usable capacity (less the runtime's reserve).
std::int64_t PeFiguresView::usableCapacity(int pe) const {
    const auto* pool = poolOf(*document_, pe);
    return pool && pool->capacity_bytes
               ? *pool->capacity_bytes - pool->reserve_bytes
               : document_->inputs()->capacity_bytes[static_cast<std::size_t>(pe)].value_or(0);
}

QString PeFiguresView::memoryText(int pe) const {
    const auto* pool = poolOf(*document_, pe);
    const std::int64_t capacity = usableCapacity(pe);
    const std::int64_t bytes = peMemory(pe);
    if (memoryOverCapacity(pe))
        return (pool ? tr("%1: %4 needs %2 of %3 usable") : tr("%1: its host needs %2 of %3"))
            .arg(bytesText(bytes), bytesText(hostMemory(pe)), bytesText(capacity),
                 pool ? QString::fromStdString(pool->name) : QString());
    const double share =
        static_cast<double>(bytes) / static_cast<double>(std::max<std::int64_t>(capacity, 1));
    return tr("%1 of %2 (%3%)")
        .arg(bytesText(bytes), bytesText(capacity))
        .arg(100 * share, 0, 'f', share < 0.1 ? 2 : 1);
}

QColor PeFiguresView::memoryColor(int pe) const {
    return memoryOverCapacity(pe) ? overCapacityColor() : peColor_(pe);
}

QSize PeFiguresView::sizeHint() const {
    const int rows = std::max<int>(1, static_cast<int>(rows_.size())) + 1;
    return {800, 2 * kMargin + rows * (fontMetrics().height() + 10)};
}

QSize PeFiguresView::minimumSizeHint() const {
    return {400, 2 * kMargin + 2 * (fontMetrics().height() + 10)};
}

// What every part of one paint measures from: a row's height, the width of the PE names, each
// figure column's left and width, and the largest energy and memory of a PE (the bars' scale
// where there is no other).
struct PeFiguresView::PaintFrame {
    int rowHeight;
    int labelWidth;
    int columnLeft[3];
    int columnWidth[3];
    double maxEnergy;
    std::int64_t maxMemory;
};

PeFiguresView::PaintFrame PeFiguresView::paintFrame() const {
    const QFontMetrics metrics = fontMetrics();
    const auto& inputs = *document_->inputs();
    const auto& evaluation = document_->evaluation();
    PaintFrame f{};
    f.rowHeight = metrics.height() + 10;
    f.labelWidth = metrics.horizontalAdvance("nx01_gpu");
    for (const int pe : rows_)
        f.labelWidth = std::max(
            f.labelWidth, metrics.horizontalAdvance(QString::fromStdString(
                              inputs.request.cluster->pes[static_cast<std::size_t>(pe)].key)));
    f.labelWidth += 12;
    // Memory, the longest figure, gets 40%; time 35%, energy the rest.
    const int columnsWidth = width() - 2 * kMargin - f.labelWidth;
    f.columnWidth[0] = columnsWidth * 35 / 100;
    f.columnWidth[1] = columnsWidth * 40 / 100;
    f.columnWidth[2] = columnsWidth * 25 / 100;
    f.columnLeft[0] = kMargin + f.labelWidth;
    f.columnLeft[1] = kMargin + f.labelWidth + f.columnWidth[0];
    f.columnLeft[2] = kMargin + f.labelWidth + f.columnWidth[0] + f.columnWidth[1];
    f.maxEnergy = 0;
    f.maxMemory = 1;
    for (const int pe : rows_) {
        const auto& costs = evaluation.pes[static_cast<std::size_t>(pe)];
        if (!std::isnan(costs.energy_mj))
            f.maxEnergy = std::max(f.maxEnergy, costs.energy_mj);
        f.maxMemory = std::max(f.maxMemory, peMemory(pe));
    }
    return f;
}

void PeFiguresView::paintEvent(QPaintEvent*) {
    if (!document_->hasMapping())
        return;
    QPainter painter(this);
    const PaintFrame frame = paintFrame();
    paintHeaders(painter, frame);
    for (std::size_t row = 0; row < rows_.size(); ++row)
        paintRow(painter, frame, row);
}

void PeFiguresView::paintHeaders(QPainter& painter, const PaintFrame& f) const {
    const QFontMetrics metrics = fontMetrics();
    const QString headers[] = {tr("Time (communication)"), tr("Memory of capacity"),
                               tr("Energy per input")};
    painter.setPen(palette().color(QPalette::Disabled, QPalette::WindowText));
    for (int column = 0; column < 3; ++column)
        painter.drawText(
            QRect(f.columnLeft[column], kMargin, f.columnWidth[column] - 8, f.rowHeight),
            Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(headers[column], Qt::ElideRight, f.columnWidth[column] - 8));
}

// A PE's name (bold for the bottleneck), then its time, memory and energy.
void PeFiguresView::paintRow(QPainter& painter, const PaintFrame& f, std::size_t row) const {
    const auto& inputs = *document_->inputs();
    const auto& evaluation = document_->evaluation();
    const int pe = rows_[row];
    const int y = kMargin + static_cast<int>(row + 1) * f.rowHeight;
    const auto& costs = evaluation.pes[static_cast<std::size_t>(pe)];
    const bool bottleneck = costs.time_ms() >= evaluation.bottleneck_ms;
    QFont font = painter.font();
    font.setBold(bottleneck);
    painter.setFont(font);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(
        QRect(kMargin, y, f.labelWidth - 8, f.rowHeight), Qt::AlignRight | Qt::AlignVCenter,
        QString::fromStdString(inputs.request.cluster->pes[static_cast<std::size_t>(pe)].key));
    font.setBold(false);
    painter.setFont(font);
    const QColor fill = peColor_(pe);
    const double bottleneckMs = std::max(evaluation.bottleneck_ms, 1e-12);
    paintBar(painter, f, 0, y, costs.compute_ms / bottleneckMs,
             costs.communication_ms() / bottleneckMs, fill,
             tr("%1 ms (%2)")
                 .arg(QString::fromStdString(format_ms(costs.time_ms())),
                      QString::fromStdString(format_ms(costs.communication_ms()))));
    if (inputs.capacity_bytes[static_cast<std::size_t>(pe)]) {
        const double share = static_cast<double>(peMemory(pe)) /
                             static_cast<double>(std::max<std::int64_t>(usableCapacity(pe), 1));
        paintBar(painter, f, 1, y, memoryOverCapacity(pe) ? 1.0 : std::min(share, 1.0), 0,
                 memoryColor(pe), memoryText(pe));
    } else {
        paintBar(painter, f, 1, y,
                 static_cast<double>(peMemory(pe)) / static_cast<double>(f.maxMemory), 0, fill,
                 tr("%1 (capacity unknown)").arg(bytesText(peMemory(pe))));
    }
    if (std::isnan(costs.energy_mj))
        paintBar(painter, f, 2, y, 0, 0, fill, tr("no power figure for this device"));
    else
        paintBar(painter, f, 2, y, f.maxEnergy > 0 ? costs.energy_mj / f.maxEnergy : 0, 0, fill,
                 tr("%1 mJ").arg(QString::fromStdString(format_ms(costs.energy_mj))));
}

// A figure, and under it a thin bar over its track: `share` of it in `fill`, then `secondShare`
// (communication) in the same hue, paler.
void PeFiguresView::paintBar(QPainter& painter, const PaintFrame& f, int column, int y,
                             double share, double secondShare, const QColor& fill,
                             const QString& label) const {
    const QRectF box(f.columnLeft[column], y, f.columnWidth[column] - 12, f.rowHeight);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(
        box.adjusted(0, 0, 0, -7), Qt::AlignLeft | Qt::AlignVCenter,
        fontMetrics().elidedText(label, Qt::ElideRight, static_cast<int>(box.width())));
    const QRectF cell(box.left(), box.bottom() - 7, box.width(), 5);
    painter.fillRect(cell, palette().color(QPalette::AlternateBase));
    const double first = std::clamp(share, 0.0, 1.0) * cell.width();
    painter.fillRect(QRectF(cell.left(), cell.top(), first, cell.height()), fill);
    if (secondShare > 0)
        painter.fillRect(QRectF(cell.left() + first, cell.top(),
                                std::clamp(secondShare, 0.0, 1.0 - share) * cell.width(),
                                cell.height()),
                         fill.lighter(150));
}

} // namespace cleave::ui
