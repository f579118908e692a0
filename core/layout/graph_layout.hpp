// A layered, top-to-bottom drawing of a model for the studio's graph view, computed by
// Graphviz's dot: where each node sits, the spline of each edge and, given kernels, the rectangle
// of each fused group. Plain data in points (y grows downwards); nothing here draws.
#pragma once

#include "core/fusion/kernel_graph.hpp"
#include "core/graph/model.hpp"
#include "core/task_control.hpp"
#include "model_blocks.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace cleave::layout {

struct Point {
    double x = 0;
    double y = 0;
};

struct Rect {
    double x = 0; // left
    double y = 0; // top
    double width = 0;
    double height = 0;

    double right() const { return x + width; }
    double bottom() const { return y + height; }
    bool contains(const Rect& other) const;
    Rect united(const Rect& other) const; // the smallest rectangle holding both
};

struct Size {
    double width = 0;
    double height = 0;
};

struct EdgePath {
    int from = -1; // producer node index
    int to = -1;   // consumer node index
    // A cubic Bézier spline: the start point, then three points (two controls, an end) per
    // segment. It ends where the arrowhead begins.
    std::vector<Point> points;
    Point arrow_tip; // where the arrowhead touches the consumer
    // Left out of dot's layout (a long edge that other paths already imply) and drawn as an arc
    // beside the nodes it passes, from the producer's right side to the consumer's.
    bool beside = false;
};

// A block of a large model's layout (LayoutOptions::flat_node_limit) or of one whose layers repeat
// (LayoutOptions::repeated_blocks): nodes of one name scope, laid out together and stacked under
// the block before.
struct LayoutBlock {
    std::string name;       // its scope ("transformer/h.3"), or "nodes 1200-1399"
    std::vector<int> nodes; // ascending
    Rect rect;              // its nodes, the edges between them and its kernels' rectangles
};

struct GraphLayout {
    Rect bounds;                     // everything below lies inside
    std::vector<Rect> nodes;         // per model node
    std::vector<EdgePath> edges;     // per fusion::node_edges(model) edge, in that order
    std::vector<Rect> kernels;       // per kernel when kernels were given, else empty
    std::vector<LayoutBlock> blocks; // top to bottom; empty when laid out as one graph
};

struct LayoutOptions {
    // Kernels to draw as groups; their rectangles come out in GraphLayout::kernels.
    const fusion::KernelGraph* kernels = nullptr;
    // Lays multi-node kernels out as dot clusters, so that nothing else sits inside a group's
    // rectangle; without it a group is the bounding box of its members (faster, may overlap).
    bool kernel_clusters = true;
    // Per node, the box its label needs; empty: sized from the op type's length.
    std::vector<Size> node_sizes;
    // dot adds a virtual node for every rank an edge crosses, and its time grows with them.
    // Past this many (0: three per node, at least 300), the longest edges that other paths
    // already imply are drawn beside the graph instead (EdgePath::beside).
    std::size_t virtual_node_budget = 0;
    // Above this many nodes the model is laid out in blocks: nodes grouped by name scope, each
    // block laid out by dot once for all blocks that look alike, the blocks stacked in the order
    // they start; edges across blocks are short curves between neighbours, else arcs beside.
    std::size_t flat_node_limit = 2000;
    // A smaller model is laid out in blocks too when at least this many of its blocks are alike
    // (the same scope but for its numbers, the same ops, 20 nodes or more: a transformer's
    // layers), so that its layers fold; 0: only above flat_node_limit.
    std::size_t repeated_blocks = 4;
    // Told of each step (each block of a stacked layout); cancelling it stops the layout at the
    // next one with cleave::Cancelled. dot itself runs to the end of the step it is in.
    const TaskControl* control = nullptr;
};

// The routes of edges between blocks, for views that move blocks (the studio folding one): a
// short curve from the producer's bottom down to the consumer's top, or an arc at x from the
// producer's right side down to the consumer's.
EdgePath curve_down(const fusion::Edge& e, const Rect& from, const Rect& to);
EdgePath arc_at(const fusion::Edge& e, const Rect& from, const Rect& to, double x);

// The runs of kernels, in the kernel graph's order, that lie in one block of the model's stacked
// layout (GraphLayout::blocks: a large model's scopes, a transformer's layers), named by the
// block's scope (empty for a run of nodes without one); none when the model is laid out whole.
// What the Partition tab labels its kernel strip with (model_blocks.hpp).
std::vector<KernelRun> block_kernel_runs(const graph::Model& model,
                                         const fusion::KernelGraph& kernels,
                                         const LayoutOptions& options = {});

// Throws std::runtime_error when Graphviz fails (with its message), cleave::Cancelled on cancel,
// std::invalid_argument when node_sizes or kernels do not fit the model. Calls are serialized:
// Graphviz keeps global state.
GraphLayout layout_graph(const graph::Model& model, const LayoutOptions& options = {});

} // namespace cleave::layout
