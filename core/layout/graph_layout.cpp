#include "graph_layout.hpp"

#include "core/fusion/rule_engine.hpp"
#include "core/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <gvc.h>
#include <limits>
#include <locale.h>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cleave::layout {

namespace {

constexpr double kPointsPerInch = 72.0;
// Room around a group's members when dot does not draw the group: a dot cluster's own margin.
constexpr double kGroupPadding = 8.0;
constexpr double kNodeHeight = 26.0;
// Edges drawn beside the graph: how far right of what they pass, and the arrowhead's length.
constexpr double kBesideGap = 10.0;
constexpr double kArrowLength = 6.0;
// Above this many nodes the reachability sets that find implied edges would take too much
// memory (nodes² bits); such a graph is laid out with all its edges.
constexpr std::size_t kMaxNodesForImpliedEdges = 20000;

// Graphviz keeps its error handler, plugin registry and parts of dot's state in globals.
std::mutex graphviz_mutex;
std::string graphviz_messages; // written by collect_message, under graphviz_mutex

int collect_message(char* text) {
    graphviz_messages += text;
    return 0;
}

// cgraph's API takes char* for strings it only reads.
char* c(const char* text) {
    return const_cast<char*>(text);
}

std::string inches(double points) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f", points / kPointsPerInch);
    return buffer;
}

std::runtime_error graphviz_error(const std::string& what) {
    std::string message = "Graphviz: " + what;
    if (!graphviz_messages.empty()) {
        std::string text = graphviz_messages;
        while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
            text.pop_back();
        message += ": " + text;
    }
    return std::runtime_error(message);
}

Size default_size(const graph::Node& node) {
    // About what an 8-9 pt sans-serif op name needs; the studio passes measured sizes.
    return {std::max(54.0, 7.0 * static_cast<double>(node.op.size()) + 20.0), kNodeHeight};
}

Rect padded(Rect r, double padding) {
    return {r.x - padding, r.y - padding, r.width + 2 * padding, r.height + 2 * padding};
}

Rect united(const Rect& a, const Rect& b) {
    const double x = std::min(a.x, b.x);
    const double y = std::min(a.y, b.y);
    return {x, y, std::max(a.right(), b.right()) - x, std::max(a.bottom(), b.bottom()) - y};
}

struct ContextDeleter {
    void operator()(GVC_t* gvc) const { gvFreeContext(gvc); }
};
struct GraphDeleter {
    void operator()(Agraph_t* g) const { agclose(g); }
};

// Frees dot's per-graph data before the graph itself is closed.
class LayoutGuard {
public:
    LayoutGuard(GVC_t* gvc, Agraph_t* g) : gvc_(gvc), g_(g) {}
    ~LayoutGuard() { gvFreeLayout(gvc_, g_); }
    LayoutGuard(const LayoutGuard&) = delete;
    LayoutGuard& operator=(const LayoutGuard&) = delete;

private:
    GVC_t* gvc_;
    Agraph_t* g_;
};

// Graphviz reads the numbers we give it with strtod, which follows LC_NUMERIC, and the studio
// runs in the user's locale, where 0.25 may read as 0. This thread uses the C locale while it
// lays out; other threads keep theirs.
class CLocaleInThisThread {
public:
    CLocaleInThisThread()
        : c_(newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(nullptr))),
          previous_(c_ ? uselocale(c_) : static_cast<locale_t>(nullptr)) {}
    ~CLocaleInThisThread() {
        if (c_) {
            uselocale(previous_);
            freelocale(c_);
        }
    }
    CLocaleInThisThread(const CLocaleInThisThread&) = delete;
    CLocaleInThisThread& operator=(const CLocaleInThisThread&) = delete;

private:
    locale_t c_;
    locale_t previous_;
};

// Routes Graphviz's messages into graphviz_messages for the time of one layout.
class MessageCapture {
public:
    MessageCapture() : previous_(agseterrf(collect_message)) {
        graphviz_messages.clear();
        agreseterrors();
    }
    ~MessageCapture() { agseterrf(previous_); }
    MessageCapture(const MessageCapture&) = delete;
    MessageCapture& operator=(const MessageCapture&) = delete;

private:
    agusererrf previous_;
};

// Roughly the ranks dot will give: longest path from the inputs, then, from the outputs back, a
// node with no more producers than consumers moved down to just above its first consumer, as
// dot's network simplex does with a Constant read by one node far below the inputs. Nodes are
// in topological order, so one pass each way settles every rank.
std::vector<int> estimated_ranks(std::size_t node_count, const std::vector<fusion::Edge>& edges) {
    std::vector<std::vector<int>> producers(node_count);
    std::vector<std::vector<int>> consumers(node_count);
    for (const auto& e : edges) {
        producers[static_cast<std::size_t>(e.to)].push_back(e.from);
        consumers[static_cast<std::size_t>(e.from)].push_back(e.to);
    }
    std::vector<int> rank(node_count, 0);
    for (std::size_t v = 0; v < node_count; ++v)
        for (const int u : producers[v])
            rank[v] = std::max(rank[v], rank[static_cast<std::size_t>(u)] + 1);
    for (std::size_t v = node_count; v-- > 0;) {
        if (consumers[v].empty() || producers[v].size() > consumers[v].size())
            continue;
        int first = rank[static_cast<std::size_t>(consumers[v].front())];
        for (const int w : consumers[v])
            first = std::min(first, rank[static_cast<std::size_t>(w)]);
        rank[v] = std::max(rank[v], first - 1);
    }
    return rank;
}

int span(const fusion::Edge& e, const std::vector<int>& rank) {
    return rank[static_cast<std::size_t>(e.to)] - rank[static_cast<std::size_t>(e.from)];
}

// The edges to leave out of dot's layout. DenseNet's concatenations (every layer of a block
// reads the outputs of all layers before it) give dot 27,000 virtual nodes and 26 s of work;
// an edge that another path already implies adds no ordering, so the longest such edges go until
// the virtual nodes fit the budget. Removing implied edges of a DAG keeps every path, so the
// remaining graph still orders every producer above its consumers.
std::vector<bool> edges_beside(std::size_t node_count, const std::vector<fusion::Edge>& edges,
                               const std::vector<int>& rank, std::size_t budget) {
    std::vector<bool> beside(edges.size(), false);
    std::size_t virtual_nodes = 0;
    for (const auto& e : edges)
        virtual_nodes += static_cast<std::size_t>(std::max(0, span(e, rank) - 1));
    if (virtual_nodes <= budget || node_count > kMaxNodesForImpliedEdges)
        return beside;

    std::vector<std::vector<int>> consumers(node_count);
    for (const auto& e : edges)
        consumers[static_cast<std::size_t>(e.from)].push_back(e.to);
    // reach[v]: the nodes reachable from v, one bit each.
    const std::size_t words = (node_count + 63) / 64;
    std::vector<std::uint64_t> reach(node_count * words, 0);
    const auto reaches = [&](int from, int to) {
        const auto t = static_cast<std::size_t>(to);
        return (reach[static_cast<std::size_t>(from) * words + t / 64] >> (t % 64)) & 1U;
    };
    for (std::size_t v = node_count; v-- > 0;)
        for (const int w : consumers[v]) {
            const auto ws = static_cast<std::size_t>(w);
            reach[v * words + ws / 64] |= std::uint64_t{1} << (ws % 64);
            for (std::size_t i = 0; i < words; ++i)
                reach[v * words + i] |= reach[ws * words + i];
        }

    std::vector<std::size_t> implied;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const auto& e = edges[i];
        if (span(e, rank) < 2)
            continue;
        const auto& others = consumers[static_cast<std::size_t>(e.from)];
        if (std::any_of(others.begin(), others.end(),
                        [&](int w) { return w != e.to && reaches(w, e.to); }))
            implied.push_back(i);
    }
    std::stable_sort(implied.begin(), implied.end(), [&](std::size_t a, std::size_t b) {
        return span(edges[a], rank) > span(edges[b], rank);
    });
    for (const std::size_t i : implied) {
        if (virtual_nodes <= budget)
            break;
        beside[i] = true;
        virtual_nodes -= static_cast<std::size_t>(span(edges[i], rank) - 1);
    }
    return beside;
}

// The right edge of every box that overlaps the rows from the producer's middle to the
// consumer's.
double right_of_between(const Rect& from, const Rect& to, const std::vector<Rect>& nodes,
                        const std::vector<Rect>& groups) {
    const double top = from.y + from.height / 2;
    const double bottom = to.y + to.height / 2;
    double x = std::max(from.right(), to.right());
    for (const auto* boxes : {&nodes, &groups})
        for (const auto& box : *boxes)
            if (box.bottom() > top && box.y < bottom)
                x = std::max(x, box.right());
    return x;
}

// An arc from the producer's right side down to the consumer's, right of `right` (everything
// between); longer arcs further out, so that arcs over one stretch do not all lie on one line.
EdgePath arc_beside(const fusion::Edge& e, int rank_span, const Rect& from, const Rect& to,
                    double right) {
    return arc_at(e, from, to,
                  right + kBesideGap + 4.0 * std::log2(static_cast<double>(std::max(rank_span, 1))));
}

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
    const std::atomic<bool>* cancel = nullptr;
};

void check_cancel(const std::atomic<bool>* cancel) {
    if (cancel && cancel->load(std::memory_order_relaxed))
        throw Cancelled();
}

// Nodes, edges (one per input edge, in order) and group rectangles (one per group).
GraphLayout dot_layout(const DotInput& in, const std::string& what) {
    const auto node_count = in.sizes.size();
    const auto& edges = in.edges;
    const auto rank = estimated_ranks(node_count, edges);
    const std::size_t budget = in.virtual_node_budget > 0
                                   ? in.virtual_node_budget
                                   : std::max<std::size_t>(300, 3 * node_count);
    const auto beside = edges_beside(node_count, edges, rank, budget);
    check_cancel(in.cancel);

    const std::lock_guard lock(graphviz_mutex);
    const CLocaleInThisThread c_locale;
    const MessageCapture capture;
    const std::unique_ptr<GVC_t, ContextDeleter> gvc(gvContext());
    if (!gvc)
        throw graphviz_error("could not create a context");
    const std::unique_ptr<Agraph_t, GraphDeleter> g(agopen(c("model"), Agdirected, nullptr));
    agattr(g.get(), AGRAPH, c("nodesep"), c("0.25"));
    agattr(g.get(), AGRAPH, c("ranksep"), c("0.3"));
    // Network simplex iterations for x positions, per node. Unlimited, BERT's graph (a few
    // hundred Constant and shape nodes beside the main path) takes 3-4 s; at 2 it takes under one,
    // and the drawing is as straight for the CNNs measured.
    agattr(g.get(), AGRAPH, c("nslimit"), c("2"));
    // No labels: the studio draws the text, dot only needs each box's size.
    agattr(g.get(), AGNODE, c("label"), c(""));
    agattr(g.get(), AGNODE, c("shape"), c("box"));
    agattr(g.get(), AGNODE, c("fixedsize"), c("true"));
    Agsym_t* width = agattr(g.get(), AGNODE, c("width"), c("0.75"));
    Agsym_t* height = agattr(g.get(), AGNODE, c("height"), c("0.5"));
    agattr(g.get(), AGEDGE, c("arrowsize"), c("0.6"));
    // dot keeps heavy edges short and straight. The data path outweighs the edges from nodes a
    // runtime computes at load time (MobileNet's Clip bounds, BERT's shape arithmetic), which
    // otherwise push the main path sideways at every use: MobileNet-v2 drew 2,621 points wide
    // with equal weights and 385 with these.
    Agsym_t* weight = agattr(g.get(), AGEDGE, c("weight"), c("4"));

    std::vector<Agnode_t*> nodes(node_count);
    for (std::size_t i = 0; i < node_count; ++i) {
        const std::string name = "n" + std::to_string(i);
        nodes[i] = agnode(g.get(), c(name.c_str()), 1);
        agxset(nodes[i], width, c(inches(in.sizes[i].width).c_str()));
        agxset(nodes[i], height, c(inches(in.sizes[i].height).c_str()));
    }
    std::vector<Agedge_t*> graph_edges(edges.size(), nullptr);
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (beside[i])
            continue;
        const auto from = static_cast<std::size_t>(edges[i].from);
        graph_edges[i] =
            agedge(g.get(), nodes[from], nodes[static_cast<std::size_t>(edges[i].to)], nullptr, 1);
        if (in.light[i])
            agxset(graph_edges[i], weight, c("1"));
    }

    std::vector<Agraph_t*> clusters(in.groups.size(), nullptr);
    if (in.clustered)
        for (std::size_t k = 0; k < in.groups.size(); ++k) {
            const auto& members = in.groups[k];
            if (members.size() < 2)
                continue; // a lone node needs no cluster; its group is its own box
            const std::string name = "cluster_" + std::to_string(k);
            clusters[k] = agsubg(g.get(), c(name.c_str()), 1);
            for (const int n : members)
                agsubnode(clusters[k], nodes[static_cast<std::size_t>(n)], 1);
        }
    check_cancel(in.cancel);

    if (gvLayout(gvc.get(), g.get(), "dot") != 0)
        throw graphviz_error("dot could not lay out " + what);
    const LayoutGuard layout_guard(gvc.get(), g.get());
    check_cancel(in.cancel);

    // dot's y grows upwards from the bottom of its bounding box; ours grows downwards.
    const boxf bb = GD_bb(g.get());
    const auto flip = [&bb](pointf p) { return Point{p.x - bb.LL.x, bb.UR.y - p.y}; };
    GraphLayout result;
    result.bounds = {0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y};
    result.nodes.reserve(node_count);
    for (Agnode_t* n : nodes) {
        const Point centre = flip(ND_coord(n));
        const double w = ND_width(n) * kPointsPerInch;
        const double h = ND_height(n) * kPointsPerInch;
        result.nodes.push_back({centre.x - w / 2, centre.y - h / 2, w, h});
    }
    result.kernels.reserve(in.groups.size());
    for (std::size_t k = 0; k < in.groups.size(); ++k) {
        if (clusters[k]) {
            const boxf box = GD_bb(clusters[k]);
            const Point top_left = flip({box.LL.x, box.UR.y});
            result.kernels.push_back(
                {top_left.x, top_left.y, box.UR.x - box.LL.x, box.UR.y - box.LL.y});
            continue;
        }
        const auto& members = in.groups[k];
        Rect box = result.nodes[static_cast<std::size_t>(members.front())];
        for (const int n : members)
            box = united(box, result.nodes[static_cast<std::size_t>(n)]);
        result.kernels.push_back(padded(box, kGroupPadding));
    }
    for (const auto& box : result.kernels)
        result.bounds = united(result.bounds, box);
    result.edges.reserve(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (beside[i]) {
            const Rect& from = result.nodes[static_cast<std::size_t>(edges[i].from)];
            const Rect& to = result.nodes[static_cast<std::size_t>(edges[i].to)];
            result.edges.push_back(
                arc_beside(edges[i], span(edges[i], rank), from, to,
                           right_of_between(from, to, result.nodes, result.kernels)));
            continue;
        }
        EdgePath path{edges[i].from, edges[i].to, {}, {}, false};
        bool has_tip = false;
        if (const splines* spline = ED_spl(graph_edges[i])) {
            for (int b = 0; b < spline->size; ++b) {
                const bezier& curve = spline->list[b];
                for (int p = 0; p < curve.size; ++p)
                    path.points.push_back(flip(curve.list[p]));
                if (curve.eflag) {
                    path.arrow_tip = flip(curve.ep);
                    has_tip = true;
                }
            }
        }
        if (path.points.empty()) { // dot gave no route: a straight line between the centres
            const Point a = flip(ND_coord(agtail(graph_edges[i])));
            const Point b = flip(ND_coord(aghead(graph_edges[i])));
            path.points = {a,
                           {a.x + (b.x - a.x) / 3, a.y + (b.y - a.y) / 3},
                           {a.x + 2 * (b.x - a.x) / 3, a.y + 2 * (b.y - a.y) / 3},
                           b};
        }
        if (!has_tip)
            path.arrow_tip = path.points.back();
        result.edges.push_back(std::move(path));
    }
    for (const auto& edge : result.edges)
        for (const auto& p : edge.points)
            result.bounds = united(result.bounds, {p.x, p.y, 0, 0});
    return result;
}

// Large models, and those whose layers repeat, are laid out in blocks: nodes grouped by name
// scope ("/transformer/h.3/attn/..." -> transformer, h.3), each block laid out by dot on its own
// (once for all blocks that look alike: a decoder's layers, a ResNet stage's units), the blocks
// stacked top to bottom in the order they start. dot's time grows much faster than the graph, a
// block's does not.
constexpr std::size_t kMaxBlockNodes = 400;
constexpr double kBlockGap = 36.0;

// "/transformer/h.3/attn/c_attn/MatMul" -> transformer, h.3, attn, c_attn (the last part is the
// node's own name).
std::vector<std::string_view> scopes_of(const std::string& name) {
    std::vector<std::string_view> parts;
    std::string_view rest(name);
    for (auto slash = rest.find('/'); slash != std::string_view::npos; slash = rest.find('/')) {
        if (slash > 0)
            parts.push_back(rest.substr(0, slash));
        rest.remove_prefix(slash + 1);
    }
    return parts;
}

struct Blocks {
    std::vector<int> of_node;       // per node, its block
    std::vector<std::string> names; // per block: its scope, empty for a run of unscoped nodes
};

// Per node, its block; blocks of at most about max_nodes, the members of a group in one.
Blocks blocks_of(const graph::Model& model, const std::vector<fusion::Edge>& edges,
                 const std::vector<std::vector<int>>& groups, std::size_t max_nodes) {
    const auto N = model.nodes.size();
    std::vector<std::vector<std::string_view>> scopes(N);
    for (std::size_t n = 0; n < N; ++n)
        scopes[n] = scopes_of(model.nodes[n].name);
    std::vector<int> block(N, -1);
    std::vector<std::size_t> block_size;
    std::vector<std::string> names;
    // A scope too big for one block splits by its sub-scopes; nodes right in it wait for a
    // neighbour's block.
    std::vector<std::pair<std::vector<int>, std::size_t>> pending{{{}, 0}};
    for (std::size_t n = 0; n < N; ++n)
        pending.back().first.push_back(static_cast<int>(n));
    while (!pending.empty()) {
        auto [members, depth] = std::move(pending.back());
        pending.pop_back();
        std::map<std::string_view, std::vector<int>> by_scope;
        for (const int n : members)
            if (scopes[static_cast<std::size_t>(n)].size() > depth)
                by_scope[scopes[static_cast<std::size_t>(n)][depth]].push_back(n);
        for (auto& [scope, inside] : by_scope) {
            if (inside.size() > max_nodes) {
                pending.emplace_back(std::move(inside), depth + 1);
                continue;
            }
            std::string name;
            for (std::size_t d = 0; d <= depth; ++d)
                name.append(d ? "/" : "")
                    .append(scopes[static_cast<std::size_t>(inside.front())][d]);
            names.push_back(std::move(name));
            for (const int n : inside)
                block[static_cast<std::size_t>(n)] = static_cast<int>(block_size.size());
            block_size.push_back(inside.size());
        }
    }
    // Nodes without a block of their own join a consumer's (a Constant read below it), else a
    // producer's, while that block has room.
    std::vector<std::vector<int>> consumers(N), producers(N);
    for (const auto& e : edges) {
        consumers[static_cast<std::size_t>(e.from)].push_back(e.to);
        producers[static_cast<std::size_t>(e.to)].push_back(e.from);
    }
    const auto join = [&](std::size_t n, const std::vector<int>& neighbours) {
        for (const int m : neighbours) {
            const int b = block[static_cast<std::size_t>(m)];
            if (b >= 0 && block_size[static_cast<std::size_t>(b)] < max_nodes) {
                block[n] = b;
                ++block_size[static_cast<std::size_t>(b)];
                return;
            }
        }
    };
    for (std::size_t n = N; n-- > 0;)
        if (block[n] < 0)
            join(n, consumers[n]);
    for (std::size_t n = 0; n < N; ++n)
        if (block[n] < 0)
            join(n, producers[n]);
    // What is left (a model without scopes) goes in runs of the node order.
    for (std::size_t n = 0; n < N; ++n) {
        if (block[n] >= 0)
            continue;
        if (n == 0 || block[n - 1] < 0 || block_size.back() >= max_nodes / 2 ||
            block[n - 1] != static_cast<int>(block_size.size()) - 1) {
            block_size.push_back(0);
            names.emplace_back();
        }
        block[n] = static_cast<int>(block_size.size()) - 1;
        ++block_size.back();
    }
    for (const auto& members : groups)
        for (const int n : members)
            block[static_cast<std::size_t>(n)] = block[static_cast<std::size_t>(members.front())];
    return {std::move(block), std::move(names)};
}

// A model below flat_node_limit is stacked too when its scopes repeat: at least
// LayoutOptions::repeated_blocks blocks alike (the same scope but for its numbers, the same ops in
// the same order), each of at least kMinRepeatedBlockNodes, as a transformer's layers are and a
// ResNet's units (7 to 10 nodes) are not. Its blocks are then at most a quarter of the model, so
// that an encoder splits into its layers.
constexpr std::size_t kMinRepeatedBlockNodes = 20;

std::optional<Blocks> repeated_blocks(const graph::Model& model,
                                      const std::vector<fusion::Edge>& edges,
                                      const std::vector<std::vector<int>>& groups,
                                      std::size_t repeats) {
    if (repeats == 0)
        return std::nullopt;
    Blocks blocks =
        blocks_of(model, edges, groups, std::max(kMinRepeatedBlockNodes, model.nodes.size() / 4));
    std::vector<std::string> looks(blocks.names.size());
    std::vector<std::size_t> size(blocks.names.size());
    for (std::size_t b = 0; b < blocks.names.size(); ++b)
        for (const char c : blocks.names[b])
            if (c < '0' || c > '9')
                looks[b] += c;
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
        const auto b = static_cast<std::size_t>(blocks.of_node[n]);
        looks[b].append("|").append(model.nodes[n].op);
        ++size[b];
    }
    std::map<std::string, std::size_t> alike;
    for (std::size_t b = 0; b < looks.size(); ++b)
        if (!blocks.names[b].empty() && size[b] >= kMinRepeatedBlockNodes &&
            ++alike[looks[b]] >= repeats)
            return blocks;
    return std::nullopt;
}

// The blocks a model is stacked in, if it is: above flat_node_limit, or below it when its layers
// repeat.
std::optional<Blocks> stacking(const graph::Model& model, const std::vector<fusion::Edge>& edges,
                               const std::vector<std::vector<int>>& groups,
                               const LayoutOptions& options) {
    if (model.nodes.size() > options.flat_node_limit)
        return blocks_of(model, edges, groups, kMaxBlockNodes);
    return repeated_blocks(model, edges, groups, options.repeated_blocks);
}

GraphLayout stacked_layout(const graph::Model& model, const std::vector<Size>& sizes,
                           const std::vector<fusion::Edge>& edges, const std::vector<bool>& light,
                           const std::vector<std::vector<int>>& groups, bool clustered,
                           const std::vector<bool>& constant, const LayoutOptions& options,
                           const Blocks& found_blocks) {
    const auto N = model.nodes.size();
    const auto& block = found_blocks.of_node;
    // Per block, its place in the stack: blocks in the order of their first node that is not a
    // load-time constant (the constants a model lists first join the blocks that read them).
    std::vector<int> place(N, -1);
    int block_count = 0;
    for (const bool constants : {false, true})
        for (std::size_t n = 0; n < N; ++n) {
            auto& p = place[static_cast<std::size_t>(block[n])];
            if (p < 0 && constant[n] == constants)
                p = block_count++;
        }
    const auto position = [&](int node) {
        return place[static_cast<std::size_t>(block[static_cast<std::size_t>(node)])];
    };
    struct Block {
        DotInput input;
        std::vector<int> nodes, edges, groups; // global indices of its members
    };
    std::vector<Block> blocks(static_cast<std::size_t>(block_count));
    std::vector<int> local(N);
    for (std::size_t n = 0; n < N; ++n) {
        auto& b = blocks[static_cast<std::size_t>(position(static_cast<int>(n)))];
        local[n] = static_cast<int>(b.nodes.size());
        b.nodes.push_back(static_cast<int>(n));
        b.input.sizes.push_back(sizes[n]);
    }
    std::vector<std::size_t> between; // edges across blocks
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const auto& e = edges[i];
        const int p = position(e.from);
        if (p != position(e.to)) {
            between.push_back(i);
            continue;
        }
        auto& b = blocks[static_cast<std::size_t>(p)];
        b.edges.push_back(static_cast<int>(i));
        b.input.edges.push_back(
            {local[static_cast<std::size_t>(e.from)], local[static_cast<std::size_t>(e.to)]});
        b.input.light.push_back(light[i]);
    }
    for (std::size_t k = 0; k < groups.size(); ++k) {
        auto& b = blocks[static_cast<std::size_t>(position(groups[k].front()))];
        b.groups.push_back(static_cast<int>(k));
        std::vector<int> members;
        for (const int n : groups[k])
            members.push_back(local[static_cast<std::size_t>(n)]);
        b.input.groups.push_back(std::move(members));
    }

    GraphLayout result;
    result.nodes.resize(N);
    result.edges.resize(edges.size());
    result.kernels.resize(groups.size());
    std::map<std::string, GraphLayout> laid_out; // by what dot sees of a block
    std::vector<Rect> placed(blocks.size());
    std::vector<double> last_row_top(blocks.size()), first_row_bottom(blocks.size());
    double y = 0;
    for (std::size_t p = 0; p < blocks.size(); ++p) {
        check_cancel(options.cancel);
        auto& b = blocks[p];
        b.input.clustered = clustered;
        b.input.cancel = options.cancel;
        std::string key;
        for (const auto& size : b.input.sizes)
            key += std::to_string(size.width) + 'x' + std::to_string(size.height) + ',';
        key += '|';
        for (std::size_t i = 0; i < b.input.edges.size(); ++i)
            key += std::to_string(b.input.edges[i].from) + '>' +
                   std::to_string(b.input.edges[i].to) + (b.input.light[i] ? "l," : ",");
        key += '|';
        for (const auto& members : b.input.groups) {
            for (const int n : members)
                key += std::to_string(n) + ' ';
            key += ',';
        }
        auto found = laid_out.find(key);
        if (found == laid_out.end())
            found = laid_out.emplace(key, dot_layout(b.input, model.file)).first;
        const GraphLayout& l = found->second;
        const double dx = -l.bounds.width / 2 - l.bounds.x;
        const double dy = y - l.bounds.y;
        const auto moved = [&](Rect r) { return Rect{r.x + dx, r.y + dy, r.width, r.height}; };
        const auto moved_point = [&](Point q) { return Point{q.x + dx, q.y + dy}; };
        last_row_top[p] = -std::numeric_limits<double>::infinity();
        first_row_bottom[p] = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < b.nodes.size(); ++i) {
            const Rect r = moved(l.nodes[i]);
            result.nodes[static_cast<std::size_t>(b.nodes[i])] = r;
            last_row_top[p] = std::max(last_row_top[p], r.y);
            first_row_bottom[p] = std::min(first_row_bottom[p], r.bottom());
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
        placed[p] = moved(l.bounds);
        y += l.bounds.height + kBlockGap;
        std::string name =
            found_blocks
                .names[static_cast<std::size_t>(block[static_cast<std::size_t>(b.nodes.front())])];
        if (name.empty())
            name =
                "nodes " + std::to_string(b.nodes.front()) + "-" + std::to_string(b.nodes.back());
        result.blocks.push_back({std::move(name), b.nodes, placed[p]});
    }

    // Across blocks: from the last row of one block to the first row of the next, a short curve;
    // anything longer, an arc beside the blocks it passes.
    for (const std::size_t i : between) {
        const auto& e = edges[i];
        const auto pu = static_cast<std::size_t>(position(e.from));
        const auto pv = static_cast<std::size_t>(position(e.to));
        const Rect& from = result.nodes[static_cast<std::size_t>(e.from)];
        const Rect& to = result.nodes[static_cast<std::size_t>(e.to)];
        if (pv == pu + 1 && from.y >= last_row_top[pu] && to.bottom() <= first_row_bottom[pv]) {
            result.edges[i] = curve_down(e, from, to);
            continue;
        }
        double right = std::max(from.right(), to.right());
        for (std::size_t p = std::min(pu, pv); p <= std::max(pu, pv); ++p)
            right = std::max(right, placed[p].right());
        const int blocks_spanned = static_cast<int>(pu > pv ? pu - pv : pv - pu);
        result.edges[i] = arc_beside(e, 10 * blocks_spanned, from, to, right);
    }

    result.bounds = placed.front();
    for (const auto& r : placed)
        result.bounds = united(result.bounds, r);
    for (const auto& edge : result.edges)
        for (const auto& q : edge.points)
            result.bounds = united(result.bounds, {q.x, q.y, 0, 0});
    // Everything from (0, 0), as dot gives it.
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
    if (groups.empty() || !options.kernels)
        result.kernels.clear();
    return result;
}

} // namespace

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
    const auto blocks = stacking(model, kernels.edges, groups, options);
    std::vector<KernelRun> runs;
    if (!blocks)
        return runs;
    int last_block = -1;
    for (std::size_t k = 0; k < kernels.kernels.size(); ++k) {
        const auto& nodes = kernels.kernels[k].nodes;
        if (nodes.empty())
            continue;
        const int block = blocks->of_node[static_cast<std::size_t>(nodes.front())];
        const int at = static_cast<int>(k);
        if (block == last_block && runs.back().end == at) {
            runs.back().end = at + 1;
            continue;
        }
        runs.push_back({blocks->names[static_cast<std::size_t>(block)], at, at + 1});
        last_block = block;
    }
    return runs;
}

bool Rect::contains(const Rect& other) const {
    return other.x >= x && other.y >= y && other.right() <= right() && other.bottom() <= bottom();
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
    check_cancel(options.cancel);
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
    if (const auto blocks = stacking(model, edges, groups, options))
        return stacked_layout(model, sizes, edges, light, groups, clustered, constant, options,
                              *blocks);
    auto result = dot_layout({std::move(sizes), edges, std::move(light), std::move(groups),
                              clustered, options.virtual_node_budget, options.cancel},
                             model.file);
    if (!kernels)
        result.kernels.clear();
    return result;
}

} // namespace cleave::layout
