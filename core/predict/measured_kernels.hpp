// A measured run's own kernels laid over the model: the node groups the runtime executed (its
// `covers`), with their costs and measured times, as training and test samples for predictors.
#pragma once

#include "core/fusion/kernel_graph.hpp"
#include "core/profile/measured_dataset.hpp"

#include <optional>
#include <vector>

namespace cleave::predict {

struct MeasuredKernels {
    // The runtime's kernels over the model's nodes; nodes no kernel names stay alone, load-time
    // constants join their first consumer. Kernel types are the runtime's op names, but for a
    // function op run as the ops of its body (HardSwish), which is one kernel of the node's op
    // with `launches` the kernels the runtime ran for it.
    fusion::KernelGraph kernels;
    // Per kernel: the runtime's time for exactly this group (all its launches), in
    // microseconds; empty when the runtime did not time it or its kernel does not map onto one
    // group.
    std::vector<std::optional<double>> us;
    // Time of the runtime's kernels that name no node of the model (inserted reshapes, ...).
    double unattributed_us = 0;
    // Sum of every timed kernel of the run.
    double total_us = 0;
};

MeasuredKernels measured_kernels(const graph::Model& model, const profile::MeasuredRun& run);

} // namespace cleave::predict
