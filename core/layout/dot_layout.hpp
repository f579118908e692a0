// Graphviz's dot behind a plain interface: boxes and the edges between them in, each box's
// rectangle, each edge's spline and each group's rectangle out. One run at a time: Graphviz
// keeps global state.
#pragma once

#include "core/task_control.hpp"
#include "graph_layout.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace cleave::layout {

// What one dot run lays out: boxes, the edges between them (as indices into `sizes`), which
// edges leave a load-time constant, and groups of boxes (kernels), drawn as dot clusters when
// `clustered`.
struct DotInput {
    std::vector<Size> sizes;
    std::vector<fusion::Edge> edges;
    std::vector<bool> light; // per edge: from a node computed at load time
    std::vector<std::vector<int>> groups;
    bool clustered = false;
    std::size_t virtual_node_budget = 0;
    const TaskControl* control = nullptr; // checked between steps; dot itself runs to its end
};

// Nodes, edges (one per input edge, in order) and group rectangles (one per group); the longest
// implied edges past the virtual node budget are drawn beside (edges_beside.hpp). `what` names
// the model in Graphviz's errors.
GraphLayout dot_layout(const DotInput& in, const std::string& what);

} // namespace cleave::layout
