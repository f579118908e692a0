// What an inference costs beyond its kernels (Li et al.'s T_overhead: the measured end-to-end
// time minus the summed kernel times): a fixed part, a part per kernel the runtime runs, and a
// part per megabyte of the graph's inputs and outputs, which a runtime copies in and out of its
// own buffers (onnxruntime-node into JavaScript arrays: 0.6 ms for one 56 x 56 x 64 float map).
#pragma once

#include "core/graph/model.hpp"

#include <vector>

namespace cleave::predict {

struct InferenceOverhead {
    double fixed_ms = 0;
    double per_kernel_us = 0;
    double per_io_mb_us = 0; // per 1e6 bytes of graph inputs and outputs
    double ms(double kernels, double io_bytes) const;
};

// Bytes of the graph's inputs and outputs (their element type's size x elements; 0 where a shape
// is unknown).
double graph_io_bytes(const graph::Model& model);

struct OverheadSample {
    double e2e_ms = 0;     // median end to end
    double kernels_ms = 0; // sum of its kernels' times
    double kernels = 0;    // kernels it ran
    double io_bytes = 0;   // graph_io_bytes of its model
};

// The parts that minimise the mean absolute percentage error of the end-to-end times they
// complete (iteratively reweighted least squares): robust where a run was slowed by something
// else for a while, which a least-squares fit lets pull the parts for every model. The fixed and
// input/output parts are >= 0; the per-kernel part may be negative: kernel times taken with a
// runtime's profiling on carry the profiler's own cost (1-2 us per kernel with ONNX Runtime),
// which an inference without it does not pay. Runs without both times are left out; none at all
// gives zero.
InferenceOverhead fit_inference_overhead(const std::vector<OverheadSample>& runs);

} // namespace cleave::predict
