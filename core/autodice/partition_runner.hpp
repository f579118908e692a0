// Running an exported package for real: each MPI rank loads its sub-model, receives its input
// buffers, runs and sends its outputs as the package's tables say, over a stream of inputs, and
// rank 0 checks the final output against the whole model and writes run-summary.json. The
// runner is a plugin (core/plugin: kind "runner", name "mpi": Open MPI between ranks, ONNX Runtime
// or OpenCV DNN in each), started on every rank by `mpirun ... cleave run-partition DIR`
// (docs/autodice.md).
#pragma once

#include "core/graph/onnx_import.hpp"

#include <filesystem>
#include <map>
#include <string>

namespace cleave::autodice {

struct PartitionRunOptions {
    std::filesystem::path package; // an exported package folder (read_package)
    std::filesystem::path model;   // the whole model, for rank 0's check
    // How the whole model is read: its shapes and dim bindings as the split was made with (a
    // decoder's --decode L or --prefill N), which size the graph inputs every rank makes.
    graph::LoadOptions load;
    int inputs = 16;               // inputs streamed through the pipeline
    double timeout_s = 30;         // longest wait for one buffer before the run is aborted
    // The engine's threads on every rank; 0: each rank its PE's, from pe_threads (a calibrated
    // device's measurement.threads), else the cores its key names, else 1.
    int threads = 0;
    std::map<std::string, int> pe_threads; // by PE key
    std::string engine = "ort"; // what runs each sub-model: "ort" (ONNX Runtime) or "opencv"
    // Rank 0 checks the final outputs against the whole model, run in an engine of its own after
    // the pipeline; false for a model too large to load whole on one host.
    bool reference = true;
    // A decoder's generation instead of a stream of inputs (when `generate` > 0): each of
    // `sequences` sequences a prefill of `prompt_tokens` tokens, then decode steps until
    // `generate` tokens are made, the sequences in flight together (ONNX Runtime only).
    int prompt_tokens = 0;
    int generate = 0;
    int sequences = 1;
};

// The threads the engine of the rank running PE `key` takes under `options`.
int rank_threads(const PartitionRunOptions& options, const std::string& key);

class PartitionRunner {
public:
    static constexpr const char* kPluginKind = "runner";

    virtual ~PartitionRunner() = default;

    // The libraries it runs on ("Open MPI v4.1.4, ONNX Runtime 1.20.1 (...)").
    virtual std::string runtime() const = 0;

    // Runs this process's rank to the end. Rank 0 writes run-summary.json into the package
    // (atomically) and returns its text; other ranks return "". Throws InputError for a bad
    // package or model; a rank that fails or waits past the timeout aborts the whole job with a
    // message naming the rank.
    virtual std::string run(const PartitionRunOptions& options) = 0;
};

} // namespace cleave::autodice
