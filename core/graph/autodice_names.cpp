#include "autodice_names.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace cleave::graph {

std::string autodice_name(const Model& model, const Node& node) {
    const auto first =
        std::find_if(node.outputs.begin(), node.outputs.end(), [](int t) { return t >= 0; });
    std::string name = first == node.outputs.end() ? node.op : model.tensors[*first].name;
    std::replace(name.begin(), name.end(), '/', '_');
    return name;
}

int apply_autodice_names(Model& model, bool all) {
    std::unordered_map<std::string, int> uses;
    for (const auto& node : model.nodes)
        ++uses[node.name];
    std::vector<bool> rename(model.nodes.size(), all);
    for (std::size_t i = 0; i < model.nodes.size(); ++i)
        if (model.nodes[i].name.empty() || uses[model.nodes[i].name] > 1)
            rename[i] = true;

    std::unordered_set<std::string> taken;
    for (std::size_t i = 0; i < model.nodes.size(); ++i)
        if (!rename[i])
            taken.insert(model.nodes[i].name);
    int renamed = 0;
    for (std::size_t i = 0; i < model.nodes.size(); ++i) {
        if (!rename[i])
            continue;
        const std::string base = autodice_name(model, model.nodes[i]);
        std::string name = base;
        for (int suffix = 2; taken.count(name); ++suffix)
            name = base + "_" + std::to_string(suffix);
        taken.insert(name);
        renamed += name != model.nodes[i].name;
        model.nodes[i].name = std::move(name);
    }
    return renamed;
}

} // namespace cleave::graph
