// The kernel strip of the partition page: every kernel in topological order as a bar whose height
// is its predicted latency on the PE its segment runs on (coloured per PE), one lane per cluster
// PE showing which segment runs where, and the split points as handles. Handles move with the
// mouse or, once selected, with Left/Right (Shift: 10 kernels); a double click adds a split, Delete
// removes the selected one, and a segment dragged onto another lane (or sent there from the
// context menu) runs on that PE. Every edit goes through the document, so it can be undone.
// The wheel zooms the kernel axis around the cursor (Shift+wheel pans, Ctrl+0 shows every
// kernel); a model of more than 1,000 kernels gets an overview lane under the PE lanes, the whole
// model with the window on show, which a click or drag moves.
#pragma once

#include <QColor>
#include <QWidget>
#include <vector>

class QPainter;

namespace cleave::ui {

class PartitionDocument;

class PartitionView : public QWidget {
    Q_OBJECT

public:
    explicit PartitionView(PartitionDocument* document, QWidget* parent = nullptr);

    int selectedSplit() const { return selected_; } // -1: none
    void selectSplit(int split);
    // The colour a PE's kernels, segments and bars are drawn in.
    QColor peColor(int pe) const;
    // Lanes of PEs without predicted latencies (which cannot take kernels) are hidden unless asked.
    void setShowAllLanes(bool all);
    bool showsAllLanes() const { return showAllLanes_; }

    // Where things are drawn, for tests and tooltips: the middle of a split's knob, a point on
    // the strip over a kernel boundary, the middle of a PE's lane over a kernel.
    QPoint handlePosition(int split) const;
    // The kernel boundaries on show, [first, last] (fractions allowed); the whole model at first.
    void showKernels(double first, double last);
    double firstShown() const;
    double lastShown() const;
    bool hasOverview() const; // the overview lane, for more than 1,000 kernels
    QPoint overviewPosition(double boundary) const;
    QPoint boundaryPosition(int point) const;
    QPoint lanePosition(int pe, int kernel) const;

    // A block's (a transformer layer's) latency as mapped: each of its kernels on its segment's
    // PE, summed. Drawn in the block's band, and in a kernel's tooltip.
    double blockMs(std::size_t block) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void kernelActivated(int kernel);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool focusNextPrevChild(bool next) override;

private:
    static constexpr int kMargin = 8;
    static constexpr int kKnobHeight = 10;
    static constexpr int kOverviewHeight = 12;

    void updateInputs();
    QString peKey(int pe) const;
    double segmentComputeMs(int segment) const; // on its PE, the sum of its kernels' latencies
    double plotLeft() const;
    double plotWidth() const;
    double kernelX(int boundary) const;
    double boundaryUnder(double x) const;
    int boundaryAt(double x) const; // the nearest kernel boundary, 0..K
    int kernelAt(double x) const;   // -1 outside the strip
    int splitAt(QPointF position) const;
    int laneAt(double y) const; // the PE whose lane this is, -1 outside the lanes
    int laneTop(int pe) const;
    int segmentAt(QPointF position) const; // in the strip or in its own lane; -1 elsewhere
    int stripTop() const;
    int stripHeight() const;
    int lanesTop() const;
    int laneHeight() const;
    int contentHeight() const;
    int overviewTop() const;
    void centreOverviewAt(double x);
    void keepInView(int boundary);
    QString toolTipAt(QPointF position) const;

    // paintEvent's parts, in the order they are drawn (partition_view_painting.cpp).
    struct PaintFrame;
    void paintScale(QPainter& painter, const PaintFrame& frame) const;
    void paintBlocks(QPainter& painter, const PaintFrame& frame) const;
    void paintBars(QPainter& painter, const PaintFrame& frame) const;
    void paintKernelAxis(QPainter& painter, const PaintFrame& frame) const;
    void paintLanes(QPainter& painter, const PaintFrame& frame) const;
    void paintSegments(QPainter& painter, const PaintFrame& frame) const;
    void paintHandles(QPainter& painter, const PaintFrame& frame) const;
    void paintOverview(QPainter& painter, const PaintFrame& frame) const;

    PartitionDocument* document_;
    std::vector<int> colorIndex_; // per PE: its place among the PEs with latencies
    std::vector<int> lanes_;      // the PE of each lane on show, in cluster order
    std::vector<int> laneOf_;     // per PE: its lane, -1 when hidden
    bool showAllLanes_ = false;
    int labelWidth_ = 0;
    int selected_ = -1;
    // A handle drag: which split, the undo merge id of this drag.
    int draggedSplit_ = -1;
    int dragId_ = 0;
    // A segment pressed in its lane, dragged to another once the mouse has moved far enough.
    int pressedSegment_ = -1;
    QPoint pressPosition_;
    bool draggingSegment_ = false;
    int dropLane_ = -1;
    // The kernel window on show; last_ <= first_: the whole model.
    double first_ = 0;
    double last_ = 0;
    bool draggingOverview_ = false;
};

} // namespace cleave::ui
