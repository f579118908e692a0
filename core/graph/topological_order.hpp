// Orders a graph's nodes so every tensor is produced before it is consumed; stable (file order
// whenever that is already valid). Dangling inputs, tensors produced twice and cycles are errors.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

namespace cleave::graph {

struct NodeLinks {
    std::string name;                 // for messages
    std::vector<std::string> inputs;  // "" for an omitted optional input
    std::vector<std::string> outputs; // "" for an omitted optional output
    // Values a subgraph of the node reads from the enclosing graph: they order the node but
    // are not checked, since a subgraph may legitimately read names defined further out.
    std::vector<std::string> captured;
};

// Returns node indices in topological order. `available` holds graph inputs and initializers.
// Throws InputError(file, node name, ...) naming the dangling tensor or the nodes of a cycle.
std::vector<int> topological_order(const std::vector<NodeLinks>& nodes,
                                   const std::unordered_set<std::string>& available,
                                   const std::string& file);

} // namespace cleave::graph
