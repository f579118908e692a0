#include "kernel_graph.hpp"

#include "core/graph/node_cost.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_set>

namespace cleave::fusion {

std::vector<Edge> node_edges(const graph::Model& model) {
    std::vector<Edge> edges;
    for (std::size_t v = 0; v < model.nodes.size(); ++v) {
        const auto first = edges.size();
        for (const int t : model.nodes[v].inputs) {
            if (t < 0 || model.tensors[t].producer < 0)
                continue;
            const int u = model.tensors[t].producer;
            const bool seen = std::any_of(edges.begin() + static_cast<std::ptrdiff_t>(first),
                                          edges.end(), [u](const Edge& e) { return e.from == u; });
            if (!seen)
                edges.push_back({u, static_cast<int>(v), t});
        }
    }
    return edges;
}

NodeGroups::NodeGroups(const graph::Model& model, std::span<const int> parts)
    : parent_(model.nodes.size()), parts_(parts.begin(), parts.end()),
      members_(model.nodes.size()), successors_(model.nodes.size()) {
    std::iota(parent_.begin(), parent_.end(), 0);
    for (std::size_t i = 0; i < members_.size(); ++i)
        members_[i] = {static_cast<int>(i)};
    for (std::size_t v = 0; v < model.nodes.size(); ++v)
        for (const int t : model.nodes[v].inputs)
            if (t >= 0 && model.tensors[t].producer >= 0)
                successors_[static_cast<std::size_t>(model.tensors[t].producer)].push_back(
                    static_cast<int>(v));
}

int NodeGroups::find(int x) {
    while (parent_[x] != x)
        x = parent_[x] = parent_[parent_[x]];
    return x;
}

bool NodeGroups::merge(int u, int v) {
    const int a = find(u), b = find(v);
    if (a == b)
        return true;
    if (!parts_.empty() && parts_[static_cast<std::size_t>(u)] != parts_[static_cast<std::size_t>(v)])
        return false;
    // Search from a's successors outside a and b; reaching b through them means a cycle. Nodes
    // after the last of either group cannot lead back into it.
    const int limit = std::max(*std::max_element(members_[a].begin(), members_[a].end()),
                               *std::max_element(members_[b].begin(), members_[b].end()));
    for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
        std::vector<int> stack;
        std::unordered_set<int> seen;
        for (const int m : members_[from])
            for (const int s : successors_[m])
                if (find(s) != from && find(s) != to && s < limit && seen.insert(s).second)
                    stack.push_back(s);
        while (!stack.empty()) {
            const int x = stack.back();
            stack.pop_back();
            for (const int s : successors_[x]) {
                const int g = find(s);
                if (g == to)
                    return false;
                if (g != from && s < limit && seen.insert(s).second)
                    stack.push_back(s);
            }
        }
    }
    const int root = members_[a].size() >= members_[b].size() ? a : b;
    const int other = root == a ? b : a;
    parent_[other] = root;
    members_[root].insert(members_[root].end(), members_[other].begin(), members_[other].end());
    members_[other].clear();
    std::sort(members_[root].begin(), members_[root].end());
    return true;
}

KernelGraph group_kernels(const graph::Model& model, const std::vector<Edge>& edges,
                          const std::vector<bool>& fuse) {
    NodeGroups groups(model);
    for (std::size_t e = 0; e < edges.size(); ++e)
        if (fuse[e])
            groups.merge(edges[e].from, edges[e].to);
    return make_kernel_graph(model, edges, groups, [&](int root) {
        return model.nodes[static_cast<std::size_t>(groups.members(root).front())].op;
    });
}

KernelGraph make_kernel_graph(const graph::Model& model, std::vector<Edge> edges,
                              NodeGroups& groups,
                              const std::function<std::string(int root)>& type_of) {
    KernelGraph graph;
    graph.edges = std::move(edges);
    graph.kernel_of_node.assign(model.nodes.size(), -1);
    // Kernels follow a topological order of the contracted graph, ties broken by first node:
    // ordering by first node alone can put a kernel before one it reads from.
    std::vector<int> root_kernel(model.nodes.size(), -1);
    std::vector<std::vector<int>> members;
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
        const int r = groups.find(static_cast<int>(n));
        if (root_kernel[r] < 0) {
            root_kernel[r] = static_cast<int>(members.size());
            members.emplace_back();
        }
        members[static_cast<std::size_t>(root_kernel[r])].push_back(static_cast<int>(n));
    }
    // Contracted topological order (Kahn, smallest first node first).
    const std::size_t count = members.size();
    std::vector<int> group_of(model.nodes.size());
    for (std::size_t g = 0; g < count; ++g)
        for (const int n : members[g])
            group_of[n] = static_cast<int>(g);
    std::vector<std::vector<int>> next(count);
    std::vector<int> pending(count, 0);
    for (const auto& e : graph.edges) {
        const int a = group_of[e.from], b = group_of[e.to];
        if (a != b && std::find(next[a].begin(), next[a].end(), b) == next[a].end()) {
            next[a].push_back(b);
            ++pending[b];
        }
    }
    std::vector<int> ready;
    for (std::size_t g = 0; g < count; ++g)
        if (pending[g] == 0)
            ready.push_back(static_cast<int>(g));
    std::vector<int> order;
    while (!ready.empty()) {
        const auto it = std::min_element(ready.begin(), ready.end());
        const int g = *it;
        ready.erase(it);
        order.push_back(g);
        for (const int s : next[g])
            if (--pending[s] == 0)
                ready.push_back(s);
    }

    for (const int g : order) {
        Kernel k;
        k.nodes = members[static_cast<std::size_t>(g)];
        k.type = type_of(groups.find(k.nodes.front()));
        k.name = model.nodes[static_cast<std::size_t>(k.nodes.front())].name;
        const int index = static_cast<int>(graph.kernels.size());
        for (const int n : k.nodes)
            graph.kernel_of_node[n] = index;
        graph.kernels.push_back(std::move(k));
    }
    for (auto& k : graph.kernels) {
        std::unordered_set<int> inside(k.nodes.begin(), k.nodes.end());
        std::unordered_set<int> read;
        for (const int n : k.nodes) {
            const auto& node = model.nodes[n];
            k.macs += node.cost.macs;
            k.flops += node.cost.flops;
            for (std::size_t i = 0; i < node.inputs.size(); ++i) {
                const int t = node.inputs[i];
                if (t < 0 || !read.insert(t).second)
                    continue;
                const auto& tensor = model.tensors[t];
                // Stored whole, read perhaps in part (a rotary op's rows of its position tables).
                if (tensor.kind == graph::Tensor::Kind::Initializer)
                    k.weight_bytes += std::max<std::int64_t>(tensor.bytes(), 0);
                if (!inside.count(tensor.producer))
                    k.bytes_in +=
                        std::max<std::int64_t>(graph::input_bytes_read(model, node, i), 0);
            }
            for (const int t : node.outputs) {
                if (t < 0)
                    continue;
                const auto& tensor = model.tensors[t];
                const bool leaves = tensor.is_graph_output ||
                                    std::any_of(tensor.consumers.begin(), tensor.consumers.end(),
                                                [&](int c) { return !inside.count(c); });
                if (leaves)
                    k.bytes_out += std::max<std::int64_t>(tensor.bytes(), 0);
            }
        }
    }
    graph.fused.resize(graph.edges.size());
    for (std::size_t e = 0; e < graph.edges.size(); ++e)
        graph.fused[e] =
            graph.kernel_of_node[graph.edges[e].from] == graph.kernel_of_node[graph.edges[e].to];
    return graph;
}

} // namespace cleave::fusion
