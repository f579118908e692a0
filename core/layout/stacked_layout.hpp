// Large models, and those whose layers repeat, are laid out in blocks (model_blocks.hpp): each
// block laid out by dot on its own (once for all blocks that look alike: a decoder's layers, a
// ResNet stage's units), the blocks stacked top to bottom in the order they start. dot's time
// grows much faster than the graph, a block's does not.
#pragma once

#include "graph_layout.hpp"
#include "model_blocks.hpp"

#include <optional>
#include <vector>

namespace cleave::layout {

// The blocks a model is stacked in, if it is: above options.flat_node_limit, or below it when at
// least options.repeated_blocks of its blocks are alike.
std::optional<ModelBlocks> stacking_blocks(const graph::Model& model,
                                           const std::vector<fusion::Edge>& edges,
                                           const std::vector<std::vector<int>>& groups,
                                           const LayoutOptions& options);

// The model laid out in `blocks`: per node its size, per edge whether it leaves a load-time
// constant (`light`), the groups (kernels) drawn as dot clusters when `clustered`, and per node
// whether it is a load-time constant. Edges across blocks are short curves between neighbours,
// else arcs beside.
GraphLayout stacked_layout(const graph::Model& model, const std::vector<Size>& sizes,
                           const std::vector<fusion::Edge>& edges, const std::vector<bool>& light,
                           const std::vector<std::vector<int>>& groups, bool clustered,
                           const std::vector<bool>& constant, const LayoutOptions& options,
                           const ModelBlocks& blocks);

} // namespace cleave::layout
