// What an inference costs beyond its kernels (Li et al.'s T_overhead: the measured end-to-end
// time minus the summed kernel times): a fixed part, a part per kernel the runtime runs, a share
// of the kernels' own time and a part per megabyte of the graph's outputs, which a runtime copies
// out of its own buffers (onnxruntime-node into JavaScript arrays: 0.35 ms for one 3 x 224 x 224
// float map on a 2-core AMD EPYC, where an input of that size costs nothing: it is
// read where the caller keeps it), and a part per megabyte of the outputs so large that the
// C library maps fresh pages for each of them on every run (above glibc's largest mmap threshold,
// 32 MiB), which the runtime and the caller then fault in page by page: a decoder's logits
// over a long prompt (512 tokens x 50,304 words in float32, 103 MB) cost 350 us a megabyte
// where smaller outputs cost 80).
#pragma once

#include "core/graph/model.hpp"

#include <vector>

namespace cleave::predict {

// An allocation above this size is mapped afresh by glibc's malloc each time: its largest mmap
// threshold on 64-bit hosts, where the dynamic threshold ends up and where the ONNX Runtime
// profiler fixes it for decoders (docs/profiling.md).
constexpr double kMappedAllocationBytes = 32.0 * 1024 * 1024;

// Bytes of a graph's inputs and outputs (their element type's size x elements; 0 where a shape
// is unknown), and of the outputs each above kMappedAllocationBytes.
struct GraphIoBytes {
    double inputs = 0;
    double outputs = 0;
    double mapped_outputs = 0;
};
GraphIoBytes graph_io_bytes(const graph::Model& model);

struct InferenceOverhead {
    double fixed_ms = 0;
    double per_kernel_us = 0;
    // End to end the kernels took this share of their profiled time more (less where < 0).
    double kernel_time_share = 0;
    double per_output_mb_us = 0; // per 1e6 bytes of graph outputs
    double per_mapped_output_mb_us = 0; // and more per 1e6 bytes of those above the threshold
    // Per 1e6 bytes of graph inputs and outputs: predictor files written before the output and
    // share parts have this part instead; a fit leaves it 0.
    double per_io_mb_us = 0;
    double ms(double kernels, double kernels_ms, const GraphIoBytes& io) const;
};

struct OverheadSample {
    double e2e_ms = 0;     // median end to end
    double kernels_ms = 0; // sum of its kernels' times
    double kernels = 0;    // kernels it ran
    GraphIoBytes io;       // graph_io_bytes of its model
};

// The parts that minimise the mean absolute percentage error of the end-to-end times they
// complete (iteratively reweighted least squares): robust where a run was slowed by something
// else for a while, which a least-squares fit lets pull the parts for every model. The fixed and
// both output parts are >= 0; the per-kernel part and the share may be negative: kernel times taken
// with a runtime's profiling on carry the profiler's own cost (1-3 us per kernel with ONNX
// Runtime), which an inference without it does not pay. Runs without both times are left out;
// none at all gives zero.
InferenceOverhead fit_inference_overhead(const std::vector<OverheadSample>& runs);

} // namespace cleave::predict
