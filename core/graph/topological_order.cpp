#include "topological_order.hpp"

#include "../input_error.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <unordered_map>

namespace cleave::graph {

namespace {
std::string quoted_name(const NodeLinks& node, int index) {
    return node.name.empty() ? "node #" + std::to_string(index) : "node '" + node.name + "'";
}
} // namespace

std::vector<int> topological_order(const std::vector<NodeLinks>& nodes,
                                   const std::unordered_set<std::string>& available,
                                   const std::string& file) {
    const int count = static_cast<int>(nodes.size());
    std::unordered_map<std::string, int> producer;
    for (int i = 0; i < count; ++i) {
        for (const auto& out : nodes[i].outputs) {
            if (out.empty())
                continue;
            if (available.count(out))
                throw InputError(file, quoted_name(nodes[i], i),
                                 "output '" + out +
                                     "' is also a graph input or initializer; "
                                     "expected every tensor to have one source");
            const auto [it, inserted] = producer.emplace(out, i);
            if (!inserted)
                throw InputError(file, quoted_name(nodes[i], i),
                                 "output '" + out + "' is already produced by " +
                                     quoted_name(nodes[it->second], it->second) +
                                     "; expected every tensor to have one producer");
        }
    }

    std::vector<std::vector<int>> successors(nodes.size());
    std::vector<int> pending(nodes.size(), 0);
    auto depend = [&](int node, const std::string& tensor, bool checked) {
        if (tensor.empty() || available.count(tensor))
            return;
        const auto it = producer.find(tensor);
        if (it == producer.end()) {
            if (checked)
                throw InputError(file, quoted_name(nodes[node], node),
                                 "input '" + tensor +
                                     "' is produced by no node and is neither a "
                                     "graph input nor an initializer");
            return;
        }
        if (it->second == node)
            throw InputError(file, quoted_name(nodes[node], node),
                             "reads its own output '" + tensor + "'; the graph has a cycle");
        successors[it->second].push_back(node);
        ++pending[node];
    };
    for (int i = 0; i < count; ++i) {
        for (const auto& in : nodes[i].inputs)
            depend(i, in, true);
        for (const auto& in : nodes[i].captured)
            depend(i, in, false);
    }

    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (int i = 0; i < count; ++i)
        if (pending[i] == 0)
            ready.push(i);
    std::vector<int> order;
    order.reserve(nodes.size());
    while (!ready.empty()) {
        const int next = ready.top();
        ready.pop();
        order.push_back(next);
        for (const int successor : successors[next])
            if (--pending[successor] == 0)
                ready.push(successor);
    }
    if (order.size() == nodes.size())
        return order;

    // Walk back along unfinished producers from a stuck node until one repeats: that is a cycle.
    std::vector<int> predecessor_in_cycle(nodes.size(), -1);
    for (int i = 0; i < count; ++i)
        for (const int successor : successors[i])
            if (pending[i] > 0 && pending[successor] > 0)
                predecessor_in_cycle[successor] = i;
    int at =
        static_cast<int>(std::find_if(pending.begin(), pending.end(), [](int p) { return p > 0; }) -
                         pending.begin());
    std::vector<int> seen(nodes.size(), -1);
    std::vector<int> walk;
    while (seen[at] < 0) {
        seen[at] = static_cast<int>(walk.size());
        walk.push_back(at);
        at = predecessor_in_cycle[at];
    }
    std::vector<int> cycle(walk.begin() + seen[at], walk.end());
    std::reverse(cycle.begin(), cycle.end());
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()),
                cycle.end()); // start at file order
    std::string path;
    for (const int node : cycle)
        path += (nodes[node].name.empty() ? "#" + std::to_string(node) : nodes[node].name) + " -> ";
    path += nodes[cycle.front()].name.empty() ? "#" + std::to_string(cycle.front())
                                              : nodes[cycle.front()].name;
    throw InputError(file, quoted_name(nodes[cycle.front()], cycle.front()),
                     "the graph has a cycle: " + path + "; expected an acyclic graph");
}

} // namespace cleave::graph
