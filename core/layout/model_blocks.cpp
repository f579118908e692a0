#include "model_blocks.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace cleave::layout {

std::vector<std::string_view> name_scopes(const std::string& node_name) {
    std::vector<std::string_view> parts;
    std::string_view rest(node_name);
    for (auto slash = rest.find('/'); slash != std::string_view::npos; slash = rest.find('/')) {
        if (slash > 0)
            parts.push_back(rest.substr(0, slash));
        rest.remove_prefix(slash + 1);
    }
    return parts;
}

ModelBlocks scope_blocks(const graph::Model& model, const std::vector<fusion::Edge>& edges,
                         const std::vector<std::vector<int>>& groups, std::size_t max_nodes) {
    const auto N = model.nodes.size();
    std::vector<std::vector<std::string_view>> scopes(N);
    for (std::size_t n = 0; n < N; ++n)
        scopes[n] = name_scopes(model.nodes[n].name);
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

std::optional<ModelBlocks> repeated_blocks(const graph::Model& model,
                                           const std::vector<fusion::Edge>& edges,
                                           const std::vector<std::vector<int>>& groups,
                                           std::size_t repeats) {
    if (repeats == 0)
        return std::nullopt;
    ModelBlocks blocks = scope_blocks(model, edges, groups,
                                      std::max(kMinRepeatedBlockNodes, model.nodes.size() / 4));
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

std::vector<KernelRun> kernel_runs(const fusion::KernelGraph& kernels, const ModelBlocks& blocks) {
    std::vector<KernelRun> runs;
    int last_block = -1;
    for (std::size_t k = 0; k < kernels.kernels.size(); ++k) {
        const auto& nodes = kernels.kernels[k].nodes;
        if (nodes.empty())
            continue;
        const int block = blocks.of_node[static_cast<std::size_t>(nodes.front())];
        const int at = static_cast<int>(k);
        if (block == last_block && runs.back().end == at) {
            runs.back().end = at + 1;
            continue;
        }
        runs.push_back({blocks.names[static_cast<std::size_t>(block)], at, at + 1});
        last_block = block;
    }
    return runs;
}

} // namespace cleave::layout
