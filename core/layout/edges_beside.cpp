#include "edges_beside.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace cleave::layout {

namespace {

// How far right of what they pass arcs beside are drawn.
constexpr double kBesideGap = 10.0;
// Above this many nodes the reachability sets that find implied edges would take too much
// memory (nodes² bits); such a graph is laid out with all its edges.
constexpr std::size_t kMaxNodesForImpliedEdges = 20000;

} // namespace

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

int rank_span(const fusion::Edge& e, const std::vector<int>& rank) {
    return rank[static_cast<std::size_t>(e.to)] - rank[static_cast<std::size_t>(e.from)];
}

std::vector<bool> edges_beside(std::size_t node_count, const std::vector<fusion::Edge>& edges,
                               const std::vector<int>& rank, std::size_t budget) {
    std::vector<bool> beside(edges.size(), false);
    std::size_t virtual_nodes = 0;
    for (const auto& e : edges)
        virtual_nodes += static_cast<std::size_t>(std::max(0, rank_span(e, rank) - 1));
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
        if (rank_span(e, rank) < 2)
            continue;
        const auto& others = consumers[static_cast<std::size_t>(e.from)];
        if (std::any_of(others.begin(), others.end(),
                        [&](int w) { return w != e.to && reaches(w, e.to); }))
            implied.push_back(i);
    }
    std::stable_sort(implied.begin(), implied.end(), [&](std::size_t a, std::size_t b) {
        return rank_span(edges[a], rank) > rank_span(edges[b], rank);
    });
    for (const std::size_t i : implied) {
        if (virtual_nodes <= budget)
            break;
        beside[i] = true;
        virtual_nodes -= static_cast<std::size_t>(rank_span(edges[i], rank) - 1);
    }
    return beside;
}

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

EdgePath arc_beside(const fusion::Edge& e, int ranks_crossed, const Rect& from, const Rect& to,
                    double right) {
    return arc_at(e, from, to,
                  right + kBesideGap +
                      4.0 * std::log2(static_cast<double>(std::max(ranks_crossed, 1))));
}

} // namespace cleave::layout
