// ONNX Runtime's own profiling output as a measured run: the trace a session writes with
// enable_profiling (a JSON array of Chrome trace events) gives per-kernel and end-to-end times;
// the optimised model the same session saves (optimized_model_filepath) tells which nodes of the
// original model each fused kernel covers. docs/profiling.md describes both and the inference.
#pragma once

#include "core/graph/model.hpp"
#include "core/graph/written_nodes.hpp"
#include "measured_dataset.hpp"

#include <map>
#include <string>
#include <vector>

namespace cleave::profile {

struct OrtKernelEvent {
    std::string node;     // the optimised graph's node name ("" for nodes ORT left unnamed)
    std::string op;       // args.op_name: FusedConv, QuickGelu, Conv ...
    std::string provider; // args.provider: CPUExecutionProvider ...
    double us = 0;        // dur
    std::vector<graph::Shape> input_shapes; // args.input_type_shape, where given
    std::string pointer;                    // the event's JSON pointer in the trace, for messages
};

struct OrtTrace {
    std::string file;
    std::vector<double> run_ms; // "model_run" durations, in trace order
    // Per run, its "<node>_kernel_time" events in the order they ran.
    std::vector<std::vector<OrtKernelEvent>> runs;
};

// Throws InputError(file, JSON pointer, expected) for a file that is not such a trace, or one
// with no model_run or no kernel_time events.
OrtTrace read_ort_trace(const std::string& path);

// The dims each graph input of `model` had in the trace, from the kernels that read it; inputs
// no kernel event shows are left out. `optimized`: the session's optimised model, or empty.
std::map<std::string, graph::Shape>
ort_trace_input_shapes(const OrtTrace& trace, const graph::Model& model,
                       const std::vector<graph::WrittenNode>& optimized);

struct OrtImportOptions {
    std::string optimized_file; // for messages; the nodes themselves come as an argument
    int threads = 0;            // intra-op threads of the session; 0: not known
    int warmups = 1;            // runs at the start of the trace left out (at least one stays)
    int runs = 0;               // runs kept after them; 0: all the rest
};

struct OrtImport {
    MeasuredRun run;
    std::vector<std::string> providers; // execution providers that ran kernels, first seen first
    int runs_in_trace = 0;
    int runs_kept = 0;
    int run_time_nodes = 0; // nodes of the model not computed at load time
    int covered_nodes = 0;  // of those, nodes in some kernel's covers
};

// One run of `model` from the trace: e2e_ms of the runs kept, per kernel the median of its times
// over them and the nodes of `model` it covers, inferred from `optimized` when it is not empty
// and from the kernels' names otherwise. Throws InputError naming the trace and the event when
// a kernel is not a node of `optimized`, and when no kernel names a node of `model`.
OrtImport import_ort_profile(const OrtTrace& trace, const graph::Model& model,
                             const std::vector<graph::WrittenNode>& optimized,
                             const OrtImportOptions& options);

} // namespace cleave::profile
