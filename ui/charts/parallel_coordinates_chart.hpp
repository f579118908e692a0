// The DSE front with more than two objectives at once: one vertical axis per objective, each
// scaled to the range of the lines on show (its least value at the bottom), one polyline per
// solution across them, coloured like the scatter. Lines are drawn into a cached image (thousands
// stay smooth); the hovered line is drawn on top, thick, and reported, a click reports it too.
#pragma once

#include <QColor>
#include <QImage>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <vector>

namespace cleave::ui {

class ParallelCoordinatesChart : public QWidget {
    Q_OBJECT

public:
    struct Line {
        std::vector<double> values; // one per axis
        QColor colour;
        bool faint = false; // drawn thin and translucent (points off the front)
    };

    explicit ParallelCoordinatesChart(QWidget* parent = nullptr);

    void setLines(const QStringList& axes, std::vector<Line> lines);
    const std::vector<Line>& lines() const { return lines_; }
    int axisCount() const { return static_cast<int>(axes_.size()); }
    // The line drawn within a few pixels of `position`, the nearest (non-faint lines first); -1.
    int lineAt(const QPointF& position) const;
    // Where line `index` crosses axis `axis`, in widget coordinates.
    QPointF positionOf(int index, int axis) const;
    int highlighted() const { return hovered_; }

    QSize sizeHint() const override { return {480, 300}; }

signals:
    void lineHovered(int index, bool state);
    void lineClicked(int index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    QRectF plotArea() const;
    void layoutLines();
    void drawLine(QPainter& painter, int index, double width) const;

    QStringList axes_;
    std::vector<Line> lines_;
    std::vector<double> low_, high_;       // per axis
    std::vector<std::vector<QPointF>> xy_; // per line, per axis: widget coordinates
    QImage cache_;
    bool dirty_ = true;
    int hovered_ = -1;
};

} // namespace cleave::ui
