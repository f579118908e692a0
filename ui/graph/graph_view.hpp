// The model as a graph: nodes laid out top to bottom by Graphviz (off the UI thread), fused
// kernels as shaded groups, wheel zoom around the cursor, drag to pan, fit (F), search by name or
// op, a minimap, selection that other views can drive and follow, and nodes coloured by op
// category or by their kernel's predicted latency, with a legend.
#pragma once

#include "ui/graph/graph_layout_runner.hpp"
#include "ui/document/latency_report.hpp"

#include <QGraphicsView>
#include <QList>

class QLabel;

namespace cleave::ui {

class GraphMinimap;
class GraphScene;
class KernelItem;
class LatencyLegend;

class GraphView : public QGraphicsView {
    Q_OBJECT

public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    // Lays the graph out in the background; a layout still running is superseded. For the same
    // model (a new rule set) the old drawing stays until the new one is ready; null clears.
    void setGraph(ModelPtr model, KernelGraphPtr kernels);
    bool isLayingOut() const;
    // "Laying out…" or why the layout failed; empty while the graph is shown.
    QString statusText() const;
    GraphScene* graphScene() const { return scene_; }
    GraphMinimap* minimap() const { return minimap_; }
    LatencyLegend* legend() const { return legend_; }

    // The newest prediction; it colours the graph once the kernels it is for are on show.
    void setLatency(LatencyReportPtr report);
    // Latency colours (when there are figures) or op colours.
    void setColourByLatency(bool on);
    bool colourByLatency() const { return colourByLatency_; }
    bool showsLatency() const; // the nodes wear latency colours now

    // Selection from elsewhere (tables, the properties dock): selects and brings into view,
    // without emitting nodeActivated or kernelActivated.
    void selectNode(int node);
    void selectKernel(int kernel);
    QList<int> selectedNodes() const;
    QList<int> selectedKernels() const;

    // Selects every node whose name or op matches all terms and centres the first; returns the
    // number of matches. findNext and findPrevious step through them.
    int search(const QString& text);
    void findNext();
    void findPrevious();
    const QList<int>& matches() const { return matches_; }
    int currentMatch() const { return current_; } // index into matches(); -1 when none

    qreal zoom() const; // 1: one point of the layout is one pixel
    void zoomBy(qreal factor);
    void fitGraph();
    // Every fused kernel drawn as one box over its nodes (a double-click toggles one group).
    void setKernelsCollapsed(bool collapsed);
    // A large model's blocks each as one box, or all open again (a double-click toggles one).
    void setBlocksCollapsed(bool collapsed);
    void zoomToActualSize();

signals:
    void layoutFinished(); // the scene shows the newest graph
    void layoutFailed(const QString& message);
    // The user picked a node or kernel here (a click, or a step through search results).
    void nodeActivated(int node);
    void kernelActivated(int kernel);
    void matchesChanged(int current, int count);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    KernelItem* groupAt(const QPoint& position) const;
    void showLayout(const LaidOutGraphPtr& graph);
    void showStatus(const QString& text);
    void applyLatency();
    void placeOverlays();
    void showStart();
    void pick(const QPoint& position);
    void focusCurrentMatch();
    void selectMatches();
    void setScale(qreal scale);
    int nodeNearestToCentre() const;

    GraphScene* scene_;
    GraphLayoutRunner* runner_;
    GraphMinimap* minimap_;
    QLabel* status_;
    LatencyLegend* legend_;
    LatencyReportPtr latency_;
    bool colourByLatency_ = true;
    bool showsLatency_ = false;
    ModelPtr model_; // of the newest request
    QString searchText_;
    QList<int> matches_;
    int current_ = -1;
    QPoint pressPosition_;
    QPoint lastPosition_;
    bool pressed_ = false;
    bool panning_ = false;
};

} // namespace cleave::ui
