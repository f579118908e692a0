// The drawing of one laid-out graph: a NodeItem per node, an EdgeItem per edge and a KernelItem
// per kernel, with look-ups from model indices to items. Built on the UI thread from plain layout
// data; node sizes for the layout come from here too, so text and boxes agree.
#pragma once

#include "ui/graph/graph_layout_runner.hpp"
#include "ui/latency/latency_ramp.hpp"

#include <QFont>
#include <QGraphicsScene>
#include <QImage>
#include <QList>
#include <QPainterPath>
#include <vector>

namespace cleave::ui {

class BlockItem;
class EdgeItem;
class KernelItem;
class NodeItem;

class GraphScene : public QGraphicsScene {
    Q_OBJECT

public:
    explicit GraphScene(QObject* parent = nullptr);

    // The box each node needs for its op type in the scene's font, in scene units (points).
    std::vector<layout::Size> nodeSizes(const graph::Model& model) const;

    void setGraph(LaidOutGraphPtr graph); // null: empty
    // Colours every kernel's nodes and group by its latency (ms, one per kernel of the graph) on
    // the ramp, and adds it to their tooltips; empty: the op colours again.
    void setKernelLatency(const std::vector<double>& ms, const LatencyRamp& ramp,
                          const QString& device);
    const LaidOutGraphPtr& graph() const { return graph_; }
    // Every fused group as one box over its nodes, or all open again (double-click toggles one).
    void setKernelsCollapsed(bool collapsed);
    int collapsedCount() const;
    // The graph's extent, less what collapsed blocks save.
    QRectF graphBounds() const { return bounds_.adjusted(0, 0, 0, -shift_); }

    // Above this many nodes, views that would show more of them at once show overview() instead
    // of painting every item (a 50,000-node graph fitted into a window took 240 ms a frame).
    static constexpr int kMaxNodesPainted = 2000;
    bool large() const { return nodes_.size() > kMaxNodesPainted; }
    // The whole scene drawn once into an image of at most 16,384 pixels a side, again after the
    // scene changes, for views of large graphs.
    const QImage& overview();
    // Draws the part of overview() under `visible` (scene coordinates) onto `target` (the
    // painter's coordinates).
    void drawOverview(QPainter* painter, const QRectF& target, const QRectF& visible);

    // A large model's blocks (layout::GraphLayout::blocks), each the parent of its items; empty for
    // a graph laid out whole. Collapsing one moves the blocks below it up.
    const QList<BlockItem*>& blockItems() const { return blocks_; }
    int blockOfNode(int node) const; // -1 when there are no blocks
    void setBlockCollapsed(int block, bool collapsed);
    void setBlocksCollapsed(bool collapsed);

    NodeItem* nodeItem(int node) const;
    KernelItem* kernelItem(int kernel) const;
    const QList<NodeItem*>& nodeItems() const { return nodes_; }
    const QList<KernelItem*>& kernelItems() const { return kernels_; }
    const QList<EdgeItem*>& edgeItems() const { return edges_; }

private:
    QFont font_;
    QImage overview_;
    bool overviewStale_ = true;
    LaidOutGraphPtr graph_;
    QRectF bounds_;
    QList<NodeItem*> nodes_;
    QList<EdgeItem*> edges_;
    QList<KernelItem*> kernels_;
    QList<BlockItem*> blocks_;
    std::vector<int> blockOfNode_;
    // Edges between blocks: drawn again when blocks collapse or move.
    struct Crossing {
        EdgeItem* item;
        bool beside; // an arc right of the blocks it passes, at x
        qreal x;
        QPainterPath path; // as laid out
        QPointF tip;
        bool rerouted = false; // drawn on a route of its own, not the laid-out one moved
        bool constant = false; // from a load-time constant: hidden while either end is folded
    };
    std::vector<Crossing> crossings_;
    qreal shift_ = 0; // how much shorter the collapsed blocks make the graph
    void restackBlocks();
    QRectF endOf(int node) const; // the node's box, or its collapsed block's
};

} // namespace cleave::ui
