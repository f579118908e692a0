// Per-PE figures of the mapping on show, one row per PE it uses (in pipeline order): time as
// compute plus communication (against the bottleneck), memory against the capacity of the PE's
// device (red when the PEs of one host need more than it has) and energy per input.
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
    // The memory of all PEs on this PE's host exceeds its device's capacity.
    bool memoryOverCapacity(int pe) const;
    QColor memoryColor(int pe) const; // of the PE's memory bar
    static QColor overCapacityColor() { return QColor(0xd6, 0x27, 0x28); }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void updateRows();
    std::int64_t hostMemory(int pe) const;

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
