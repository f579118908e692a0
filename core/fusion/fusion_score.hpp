// How well predicted kernels match a runtime's own fusion: each node-to-node edge is fused in
// truth when both ends are covered by one measured kernel, and the kernel counts are compared.
#pragma once

#include "core/profile/measured_dataset.hpp"
#include "kernel_graph.hpp"

namespace cleave::fusion {

struct FusionScore {
    int true_fused = 0;        // predicted fused, fused in truth
    int false_fused = 0;       // predicted fused, not in truth
    int missed = 0;            // not predicted, fused in truth
    int true_apart = 0;        // neither
    int kernels_predicted = 0; // counting each kernel's launches
    int kernels_measured = 0;
    int uncovered_nodes = 0; // nodes the runtime's kernels do not name

    int edges() const { return true_fused + false_fused + missed + true_apart; }
    double accuracy() const;
    double precision() const;
    double recall() const;
    double kernel_count_error() const; // (predicted - measured) / measured
    FusionScore& operator+=(const FusionScore& other);
};

// Per node: the first measured kernel whose covers name it; -1 when none does.
std::vector<int> measured_kernel_of_node(const graph::Model& model,
                                         const profile::MeasuredRun& run);
// Per edge: both ends are covered by one measured kernel.
std::vector<bool> measured_fused_edges(const std::vector<Edge>& edges,
                                       const std::vector<int>& measured_kernel_of_node);

FusionScore score_fusion(const graph::Model& model, const KernelGraph& predicted,
                         const profile::MeasuredRun& run);

} // namespace cleave::fusion
