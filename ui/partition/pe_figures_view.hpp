// Per-PE figures of the mapping on show, one row per PE it uses (in pipeline order): time as
// compute plus communication (against the bottleneck), memory against the capacity of the PE's
// device (red when the PEs of one host need more than it has) and energy per input. A decoder's
// memory is the document's (weights, KV cache at the workload's context and activations, against
// the usable capacity of the pool the PE draws on), so this view and the LLM memory panel agree.
#pragma once

#include <QColor>
#include <QWidget>
#include <functional>
#include <vector>

class QPainter;

namespace cleave::ui {

class PartitionDocument;

class PeFiguresView : public QWidget {
    Q_OBJECT

public:
    // peColor: the colour of each PE, as the strip draws it.
    PeFiguresView(PartitionDocument* document, std::function<QColor(int pe)> peColor,
                  QWidget* parent = nullptr);

    const std::vector<int>& rows() const { return rows_; } // PEs, in pipeline order
    // The memory of all PEs on this PE's host exceeds its device's capacity (a decoder: the
    // pool it draws on does not fit).
    bool memoryOverCapacity(int pe) const;
    std::int64_t peMemory(int pe) const; // what the PE holds, as the column shows it
    QColor memoryColor(int pe) const; // of the PE's memory bar
    static QColor overCapacityColor() { return QColor(0xd6, 0x27, 0x28); }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void updateRows();
    std::int64_t hostMemory(int pe) const;
    std::int64_t usableCapacity(int pe) const; // of its device (a decoder: its pool's, usable)
    QString memoryText(int pe) const;          // the memory bar's label, with a capacity

    // paintEvent's parts: the column headers, then a row per PE, each a bar per figure.
    struct PaintFrame;
    PaintFrame paintFrame() const;
    void paintHeaders(QPainter& painter, const PaintFrame& frame) const;
    void paintRow(QPainter& painter, const PaintFrame& frame, std::size_t row) const;
    void paintBar(QPainter& painter, const PaintFrame& frame, int column, int y, double share,
                  double secondShare, const QColor& fill, const QString& label) const;

    PartitionDocument* document_;
    std::function<QColor(int)> peColor_;
    std::vector<int> rows_;
};

} // namespace cleave::ui
