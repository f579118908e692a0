#include "dot_layout.hpp"

#include "edges_beside.hpp"

#include <algorithm>
#include <cstdio>
#include <gvc.h>
#include <locale.h>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace cleave::layout {

namespace {

constexpr double kPointsPerInch = 72.0;
// Room around a group's members when dot does not draw the group: a dot cluster's own margin.
constexpr double kGroupPadding = 8.0;

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

Rect padded(Rect r, double padding) {
    return {r.x - padding, r.y - padding, r.width + 2 * padding, r.height + 2 * padding};
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

// The graph dot lays out: the Graphviz objects of its boxes, of its edges (null for those drawn
// beside) and of its groups' clusters (null for a group drawn without one).
struct DotGraph {
    std::vector<Agnode_t*> nodes;
    std::vector<Agedge_t*> edges;
    std::vector<Agraph_t*> clusters;
};

// The graph's, its boxes' and its edges' attributes, the boxes at their sizes, the edges not
// beside, and the groups of two nodes or more as clusters when asked.
DotGraph build_dot_graph(Agraph_t* g, const DotInput& in, const std::vector<bool>& beside) {
    agattr(g, AGRAPH, c("nodesep"), c("0.25"));
    agattr(g, AGRAPH, c("ranksep"), c("0.3"));
    // Network simplex iterations for x positions, per node. Unlimited, BERT's graph (a few
    // hundred Constant and shape nodes beside the main path) takes 3-4 s; at 2 it takes under one,
    // and the drawing is as straight for the CNNs measured.
    agattr(g, AGRAPH, c("nslimit"), c("2"));
    // No labels: the studio draws the text, dot only needs each box's size.
    agattr(g, AGNODE, c("label"), c(""));
    agattr(g, AGNODE, c("shape"), c("box"));
    agattr(g, AGNODE, c("fixedsize"), c("true"));
    Agsym_t* width = agattr(g, AGNODE, c("width"), c("0.75"));
    Agsym_t* height = agattr(g, AGNODE, c("height"), c("0.5"));
    agattr(g, AGEDGE, c("arrowsize"), c("0.6"));
    // dot keeps heavy edges short and straight. The data path outweighs the edges from nodes a
    // runtime computes at load time (MobileNet's Clip bounds, BERT's shape arithmetic), which
    // otherwise push the main path sideways at every use: MobileNet-v2 drew 2,621 points wide
    // with equal weights and 385 with these.
    Agsym_t* weight = agattr(g, AGEDGE, c("weight"), c("4"));

    DotGraph graph;
    auto& nodes = graph.nodes;
    nodes.resize(in.sizes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const std::string name = "n" + std::to_string(i);
        nodes[i] = agnode(g, c(name.c_str()), 1);
        agxset(nodes[i], width, c(inches(in.sizes[i].width).c_str()));
        agxset(nodes[i], height, c(inches(in.sizes[i].height).c_str()));
    }
    const auto& edges = in.edges;
    auto& graph_edges = graph.edges;
    graph_edges.assign(edges.size(), nullptr);
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (beside[i])
            continue;
        const auto from = static_cast<std::size_t>(edges[i].from);
        graph_edges[i] =
            agedge(g, nodes[from], nodes[static_cast<std::size_t>(edges[i].to)], nullptr, 1);
        if (in.light[i])
            agxset(graph_edges[i], weight, c("1"));
    }

    auto& clusters = graph.clusters;
    clusters.assign(in.groups.size(), nullptr);
    if (in.clustered)
        for (std::size_t k = 0; k < in.groups.size(); ++k) {
            const auto& members = in.groups[k];
            if (members.size() < 2)
                continue; // a lone node needs no cluster; its group is its own box
            const std::string name = "cluster_" + std::to_string(k);
            clusters[k] = agsubg(g, c(name.c_str()), 1);
            for (const int n : members)
                agsubnode(clusters[k], nodes[static_cast<std::size_t>(n)], 1);
        }
    return graph;
}

// dot's y grows upwards from the bottom of its bounding box; ours grows downwards.
struct Flip {
    boxf bb;
    Point operator()(pointf p) const { return Point{p.x - bb.LL.x, bb.UR.y - p.y}; }
};

// A group's rectangle: its cluster's, or its members' with a cluster's margin.
Rect group_rect(const std::vector<int>& members, Agraph_t* cluster, const std::vector<Rect>& nodes,
                const Flip& flip) {
    if (cluster) {
        const boxf box = GD_bb(cluster);
        const Point top_left = flip({box.LL.x, box.UR.y});
        return {top_left.x, top_left.y, box.UR.x - box.LL.x, box.UR.y - box.LL.y};
    }
    Rect box = nodes[static_cast<std::size_t>(members.front())];
    for (const int n : members)
        box = box.united(nodes[static_cast<std::size_t>(n)]);
    return padded(box, kGroupPadding);
}

// The spline dot gave `edge`, ending where the arrowhead begins.
EdgePath dot_edge_path(const fusion::Edge& e, Agedge_t* edge, const Flip& flip) {
    EdgePath path{e.from, e.to, {}, {}, false};
    bool has_tip = false;
    if (const splines* spline = ED_spl(edge)) {
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
        const Point a = flip(ND_coord(agtail(edge)));
        const Point b = flip(ND_coord(aghead(edge)));
        path.points = {a,
                       {a.x + (b.x - a.x) / 3, a.y + (b.y - a.y) / 3},
                       {a.x + 2 * (b.x - a.x) / 3, a.y + 2 * (b.y - a.y) / 3},
                       b};
    }
    if (!has_tip)
        path.arrow_tip = path.points.back();
    return path;
}

// What dot made of the graph, and arcs for the edges beside it.
GraphLayout read_dot_layout(Agraph_t* g, const DotInput& in, const DotGraph& graph,
                            const std::vector<bool>& beside, const std::vector<int>& rank) {
    const auto& edges = in.edges;
    const Flip flip{GD_bb(g)};
    const boxf& bb = flip.bb;
    GraphLayout result;
    result.bounds = {0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y};
    result.nodes.reserve(graph.nodes.size());
    for (Agnode_t* n : graph.nodes) {
        const Point centre = flip(ND_coord(n));
        const double w = ND_width(n) * kPointsPerInch;
        const double h = ND_height(n) * kPointsPerInch;
        result.nodes.push_back({centre.x - w / 2, centre.y - h / 2, w, h});
    }
    result.kernels.reserve(in.groups.size());
    for (std::size_t k = 0; k < in.groups.size(); ++k)
        result.kernels.push_back(group_rect(in.groups[k], graph.clusters[k], result.nodes, flip));
    for (const auto& box : result.kernels)
        result.bounds = result.bounds.united(box);
    result.edges.reserve(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (beside[i]) {
            const Rect& from = result.nodes[static_cast<std::size_t>(edges[i].from)];
            const Rect& to = result.nodes[static_cast<std::size_t>(edges[i].to)];
            result.edges.push_back(
                arc_beside(edges[i], rank_span(edges[i], rank), from, to,
                           right_of_between(from, to, result.nodes, result.kernels)));
            continue;
        }
        result.edges.push_back(dot_edge_path(edges[i], graph.edges[i], flip));
    }
    for (const auto& edge : result.edges)
        for (const auto& p : edge.points)
            result.bounds = result.bounds.united({p.x, p.y, 0, 0});
    return result;
}

} // namespace

GraphLayout dot_layout(const DotInput& in, const std::string& what) {
    const auto node_count = in.sizes.size();
    const auto rank = estimated_ranks(node_count, in.edges);
    const std::size_t budget = in.virtual_node_budget > 0
                                   ? in.virtual_node_budget
                                   : std::max<std::size_t>(300, 3 * node_count);
    const auto beside = edges_beside(node_count, in.edges, rank, budget);
    checkpoint(in.control);

    const std::lock_guard lock(graphviz_mutex);
    const CLocaleInThisThread c_locale;
    const MessageCapture capture;
    const std::unique_ptr<GVC_t, ContextDeleter> gvc(gvContext());
    if (!gvc)
        throw graphviz_error("could not create a context");
    const std::unique_ptr<Agraph_t, GraphDeleter> g(agopen(c("model"), Agdirected, nullptr));
    const DotGraph graph = build_dot_graph(g.get(), in, beside);
    checkpoint(in.control);

    if (gvLayout(gvc.get(), g.get(), "dot") != 0)
        throw graphviz_error("dot could not lay out " + what);
    const LayoutGuard layout_guard(gvc.get(), g.get());
    checkpoint(in.control);
    return read_dot_layout(g.get(), in, graph, beside, rank);
}

} // namespace cleave::layout
