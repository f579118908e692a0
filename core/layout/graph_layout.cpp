#include "graph_layout.hpp"

#include "core/fusion/rule_engine.hpp"
#include "dot_layout.hpp"
#include "stacked_layout.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace cleave::layout {

namespace {

constexpr double kNodeHeight = 26.0;
// An arrowhead's length.
constexpr double kArrowLength = 6.0;

Size default_size(const graph::Node& node) {
    // About what an 8-9 pt sans-serif op name needs; the studio passes measured sizes.
    return {std::max(54.0, 7.0 * static_cast<double>(node.op.size()) + 20.0), kNodeHeight};
}

} // namespace

bool Rect::contains(const Rect& other) const {
    return other.x >= x && other.y >= y && other.right() <= right() && other.bottom() <= bottom();
}

Rect Rect::united(const Rect& other) const {
    const double left = std::min(x, other.x);
    const double top = std::min(y, other.y);
    return {left, top, std::max(right(), other.right()) - left,
            std::max(bottom(), other.bottom()) - top};
}

EdgePath curve_down(const fusion::Edge& e, const Rect& from, const Rect& to) {
    const Point a{from.x + from.width / 2, from.bottom()};
    const Point tip{to.x + to.width / 2, to.y};
    const Point end{tip.x, tip.y - kArrowLength};
    const double middle = (a.y + end.y) / 2;
    return {e.from, e.to, {a, {a.x, middle}, {end.x, middle}, end}, tip, false};
}

EdgePath arc_at(const fusion::Edge& e, const Rect& from, const Rect& to, double x) {
    const double top = from.y + from.height / 2;
    const double bottom = to.y + to.height / 2;
    const double r = std::min(16.0, (bottom - top) / 3);
    const double a = top + r;
    const double b = bottom - r;
    EdgePath path{e.from, e.to, {}, {to.right(), bottom}, true};
    path.points = {{from.right(), top},
                   {x, top},
                   {x, top},
                   {x, a},
                   {x, a + (b - a) / 3},
                   {x, a + 2 * (b - a) / 3},
                   {x, b},
                   {x, bottom},
                   {x, bottom},
                   {to.right() + kArrowLength, bottom}};
    return path;
}

std::vector<KernelRun> block_kernel_runs(const graph::Model& model,
                                         const fusion::KernelGraph& kernels,
                                         const LayoutOptions& options) {
    if (kernels.kernel_of_node.size() != model.nodes.size())
        throw std::invalid_argument("block_kernel_runs: the kernels belong to another model");
    std::vector<std::vector<int>> groups;
    for (const auto& k : kernels.kernels)
        groups.push_back(k.nodes);
    const auto blocks = stacking_blocks(model, kernels.edges, groups, options);
    return blocks ? kernel_runs(kernels, *blocks) : std::vector<KernelRun>{};
}

GraphLayout layout_graph(const graph::Model& model, const LayoutOptions& options) {
    const auto node_count = model.nodes.size();
    if (!options.node_sizes.empty() && options.node_sizes.size() != node_count)
        throw std::invalid_argument("layout_graph: node_sizes has " +
                                    std::to_string(options.node_sizes.size()) + " entries for " +
                                    std::to_string(node_count) + " nodes");
    const fusion::KernelGraph* kernels = options.kernels;
    if (kernels && kernels->kernel_of_node.size() != node_count)
        throw std::invalid_argument("layout_graph: the kernels belong to another model");
    report_progress(options.control, {.fraction = 0.0, .stage = "laying out"});
    std::vector<Size> sizes = options.node_sizes;
    if (sizes.empty())
        for (const auto& node : model.nodes)
            sizes.push_back(default_size(node));
    const auto edges = kernels ? kernels->edges : fusion::node_edges(model);
    const auto constant = fusion::load_time_constants(model);
    std::vector<bool> light(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i)
        light[i] = constant[static_cast<std::size_t>(edges[i].from)];
    std::vector<std::vector<int>> groups;
    if (kernels)
        for (const auto& k : kernels->kernels)
            groups.push_back(k.nodes);
    const bool clustered = kernels && options.kernel_clusters;
    GraphLayout result;
    if (const auto blocks = stacking_blocks(model, edges, groups, options)) {
        result = stacked_layout(model, sizes, edges, light, groups, clustered, constant, options,
                                *blocks);
    } else {
        result = dot_layout({std::move(sizes), edges, std::move(light), std::move(groups),
                             clustered, options.virtual_node_budget, options.control},
                            model.file);
        if (!kernels)
            result.kernels.clear();
    }
    report_progress(options.control, {.fraction = 1.0, .stage = "done"});
    return result;
}

} // namespace cleave::layout
