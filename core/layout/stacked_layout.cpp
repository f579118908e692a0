#include "stacked_layout.hpp"

#include "dot_layout.hpp"
#include "edges_beside.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>

namespace cleave::layout {

namespace {

constexpr std::size_t kMaxBlockNodes = 400;
constexpr double kBlockGap = 36.0;

// A block as its dot run sees it, and the model's indices of its members.
struct StackedBlock {
    DotInput input;
    std::vector<int> nodes, edges, groups;
};

// The blocks in their stack order, and the edges between them.
struct Stack {
    std::vector<int> place;           // per found block, its place in the stack
    std::vector<int> block;           // per node, its found block
    std::vector<StackedBlock> blocks; // by place
    std::vector<std::size_t> between; // edges across blocks

    int position(int node) const {
        return place[static_cast<std::size_t>(block[static_cast<std::size_t>(node)])];
    }
};

// Per block, its place in the stack: blocks in the order of their first node that is not a
// load-time constant (the constants a model lists first join the blocks that read them). Each
// block's nodes, edges and groups, renumbered within it.
Stack stack_blocks(const std::vector<Size>& sizes, const std::vector<fusion::Edge>& edges,
                   const std::vector<bool>& light, const std::vector<std::vector<int>>& groups,
                   const std::vector<bool>& constant, const ModelBlocks& found_blocks) {
    const auto N = sizes.size();
    Stack stack;
    stack.block = found_blocks.of_node;
    stack.place.assign(N, -1);
    int block_count = 0;
    for (const bool constants : {false, true})
        for (std::size_t n = 0; n < N; ++n) {
            auto& p = stack.place[static_cast<std::size_t>(stack.block[n])];
            if (p < 0 && constant[n] == constants)
                p = block_count++;
        }
    auto& blocks = stack.blocks;
    blocks.resize(static_cast<std::size_t>(block_count));
    std::vector<int> local(N);
    for (std::size_t n = 0; n < N; ++n) {
        auto& b = blocks[static_cast<std::size_t>(stack.position(static_cast<int>(n)))];
        local[n] = static_cast<int>(b.nodes.size());
        b.nodes.push_back(static_cast<int>(n));
        b.input.sizes.push_back(sizes[n]);
    }
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const auto& e = edges[i];
        const int p = stack.position(e.from);
        if (p != stack.position(e.to)) {
            stack.between.push_back(i);
            continue;
        }
        auto& b = blocks[static_cast<std::size_t>(p)];
        b.edges.push_back(static_cast<int>(i));
        b.input.edges.push_back(
            {local[static_cast<std::size_t>(e.from)], local[static_cast<std::size_t>(e.to)]});
        b.input.light.push_back(light[i]);
    }
    for (std::size_t k = 0; k < groups.size(); ++k) {
        auto& b = blocks[static_cast<std::size_t>(stack.position(groups[k].front()))];
        b.groups.push_back(static_cast<int>(k));
        std::vector<int> members;
        for (const int n : groups[k])
            members.push_back(local[static_cast<std::size_t>(n)]);
        b.input.groups.push_back(std::move(members));
    }
    return stack;
}

// What dot sees of a block: blocks of one key are laid out alike, once.
std::string dot_key(const DotInput& in) {
    std::string key;
    for (const auto& size : in.sizes)
        key += std::to_string(size.width) + 'x' + std::to_string(size.height) + ',';
    key += '|';
    for (std::size_t i = 0; i < in.edges.size(); ++i)
        key += std::to_string(in.edges[i].from) + '>' + std::to_string(in.edges[i].to) +
               (in.light[i] ? "l," : ",");
    key += '|';
    for (const auto& members : in.groups) {
        for (const int n : members)
            key += std::to_string(n) + ' ';
        key += ',';
    }
    return key;
}

// Where the blocks went, by place: each block's rectangle, the top of its last row of nodes and
// the bottom of its first.
struct Placement {
    std::vector<Rect> rects;
    std::vector<double> last_row_top, first_row_bottom;
};

// Block `p`'s layout `l`, moved by (dx, dy), into the model's layout.
void place_block(const StackedBlock& b, const GraphLayout& l, double dx, double dy,
                 const std::vector<fusion::Edge>& edges, std::size_t p, GraphLayout& result,
                 Placement& placed) {
    const auto moved = [&](Rect r) { return Rect{r.x + dx, r.y + dy, r.width, r.height}; };
    const auto moved_point = [&](Point q) { return Point{q.x + dx, q.y + dy}; };
    placed.last_row_top[p] = -std::numeric_limits<double>::infinity();
    placed.first_row_bottom[p] = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < b.nodes.size(); ++i) {
        const Rect r = moved(l.nodes[i]);
        result.nodes[static_cast<std::size_t>(b.nodes[i])] = r;
        placed.last_row_top[p] = std::max(placed.last_row_top[p], r.y);
        placed.first_row_bottom[p] = std::min(placed.first_row_bottom[p], r.bottom());
    }
    for (std::size_t i = 0; i < b.edges.size(); ++i) {
        EdgePath path = l.edges[i];
        path.from = edges[static_cast<std::size_t>(b.edges[i])].from;
        path.to = edges[static_cast<std::size_t>(b.edges[i])].to;
        for (auto& q : path.points)
            q = moved_point(q);
        path.arrow_tip = moved_point(path.arrow_tip);
        result.edges[static_cast<std::size_t>(b.edges[i])] = std::move(path);
    }
    for (std::size_t i = 0; i < b.groups.size(); ++i)
        result.kernels[static_cast<std::size_t>(b.groups[i])] = moved(l.kernels[i]);
    placed.rects[p] = moved(l.bounds);
}

// Each block laid out by dot (once per key) and placed under the one before, centred on x = 0.
Placement lay_out_blocks(Stack& stack, const graph::Model& model,
                         const std::vector<fusion::Edge>& edges, const ModelBlocks& found_blocks,
                         bool clustered, const LayoutOptions& options, GraphLayout& result) {
    auto& blocks = stack.blocks;
    std::map<std::string, GraphLayout> laid_out; // by what dot sees of a block
    Placement placed;
    placed.rects.resize(blocks.size());
    placed.last_row_top.resize(blocks.size());
    placed.first_row_bottom.resize(blocks.size());
    double y = 0;
    for (std::size_t p = 0; p < blocks.size(); ++p) {
        const std::string stage =
            "block " + std::to_string(p + 1) + " of " + std::to_string(blocks.size());
        report_progress(options.control,
                        {.fraction = static_cast<double>(p) / static_cast<double>(blocks.size()),
                         .stage = stage});
        auto& b = blocks[p];
        b.input.clustered = clustered;
        b.input.control = options.control;
        const std::string key = dot_key(b.input);
        auto found = laid_out.find(key);
        if (found == laid_out.end())
            found = laid_out.emplace(key, dot_layout(b.input, model.file)).first;
        const GraphLayout& l = found->second;
        place_block(b, l, -l.bounds.width / 2 - l.bounds.x, y - l.bounds.y, edges, p, result,
                    placed);
        y += l.bounds.height + kBlockGap;
        std::string name = found_blocks.names[static_cast<std::size_t>(
            stack.block[static_cast<std::size_t>(b.nodes.front())])];
        if (name.empty())
            name =
                "nodes " + std::to_string(b.nodes.front()) + "-" + std::to_string(b.nodes.back());
        result.blocks.push_back({std::move(name), b.nodes, placed.rects[p]});
    }
    return placed;
}

// Across blocks: from the last row of one block to the first row of the next, a short curve;
// anything longer, an arc beside the blocks it passes.
void route_between_blocks(const Stack& stack, const std::vector<fusion::Edge>& edges,
                          const Placement& placed, GraphLayout& result) {
    for (const std::size_t i : stack.between) {
        const auto& e = edges[i];
        const auto pu = static_cast<std::size_t>(stack.position(e.from));
        const auto pv = static_cast<std::size_t>(stack.position(e.to));
        const Rect& from = result.nodes[static_cast<std::size_t>(e.from)];
        const Rect& to = result.nodes[static_cast<std::size_t>(e.to)];
        if (pv == pu + 1 && from.y >= placed.last_row_top[pu] &&
            to.bottom() <= placed.first_row_bottom[pv]) {
            result.edges[i] = curve_down(e, from, to);
            continue;
        }
        double right = std::max(from.right(), to.right());
        for (std::size_t p = std::min(pu, pv); p <= std::max(pu, pv); ++p)
            right = std::max(right, placed.rects[p].right());
        const int blocks_spanned = static_cast<int>(pu > pv ? pu - pv : pv - pu);
        result.edges[i] = arc_beside(e, 10 * blocks_spanned, from, to, right);
    }
}

// The bounds of the blocks and the edges, and everything moved to start at (0, 0), as dot gives
// it.
void move_to_origin(const std::vector<Rect>& placed, GraphLayout& result) {
    result.bounds = placed.front();
    for (const auto& r : placed)
        result.bounds = result.bounds.united(r);
    for (const auto& edge : result.edges)
        for (const auto& q : edge.points)
            result.bounds = result.bounds.united({q.x, q.y, 0, 0});
    const double dx = -result.bounds.x, dy = -result.bounds.y;
    for (auto& r : result.nodes)
        r.x += dx, r.y += dy;
    for (auto& r : result.kernels)
        r.x += dx, r.y += dy;
    for (auto& edge : result.edges) {
        for (auto& q : edge.points)
            q.x += dx, q.y += dy;
        edge.arrow_tip.x += dx, edge.arrow_tip.y += dy;
    }
    for (auto& b : result.blocks)
        b.rect.x += dx, b.rect.y += dy;
    result.bounds.x = 0;
    result.bounds.y = 0;
}

} // namespace

std::optional<ModelBlocks> stacking_blocks(const graph::Model& model,
                                           const std::vector<fusion::Edge>& edges,
                                           const std::vector<std::vector<int>>& groups,
                                           const LayoutOptions& options) {
    if (model.nodes.size() > options.flat_node_limit)
        return scope_blocks(model, edges, groups, kMaxBlockNodes);
    return repeated_blocks(model, edges, groups, options.repeated_blocks);
}

GraphLayout stacked_layout(const graph::Model& model, const std::vector<Size>& sizes,
                           const std::vector<fusion::Edge>& edges, const std::vector<bool>& light,
                           const std::vector<std::vector<int>>& groups, bool clustered,
                           const std::vector<bool>& constant, const LayoutOptions& options,
                           const ModelBlocks& blocks) {
    Stack stack = stack_blocks(sizes, edges, light, groups, constant, blocks);
    GraphLayout result;
    result.nodes.resize(model.nodes.size());
    result.edges.resize(edges.size());
    result.kernels.resize(groups.size());
    const Placement placed =
        lay_out_blocks(stack, model, edges, blocks, clustered, options, result);
    route_between_blocks(stack, edges, placed, result);
    move_to_origin(placed.rects, result);
    if (groups.empty() || !options.kernels)
        result.kernels.clear();
    return result;
}

} // namespace cleave::layout
