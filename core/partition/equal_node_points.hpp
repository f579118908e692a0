// Split points that cut a model into parts of about equal node counts: each cut at the kernel
// boundary nearest to s x nodes / parts (the cuts of AutoDiCE's sub-model writing figures).
#pragma once

#include "core/fusion/kernel_graph.hpp"

#include <vector>

namespace cleave::partition {

// parts - 1 strictly ascending points in (0, K). Throws InputError (place "--parts") unless
// 1 <= parts <= K.
std::vector<int> equal_node_points(const fusion::KernelGraph& kernels, int parts);

} // namespace cleave::partition
