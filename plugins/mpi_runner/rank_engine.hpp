// What runs one rank's sub-model for the MPI partition runner: tensors in, tensors out. The
// engines: ONNX Runtime through onnxruntime-node in a worker process of the rank's own (the
// default, the runtime the profiler and the predictors measure), and OpenCV's DNN module (float
// tensors only), built where OpenCV is found.
#pragma once

#include "core/graph/data_type.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cleave::autodice {

// A tensor as a rank holds it: element type, dims and bytes in ONNX's layout.
struct HostTensor {
    graph::DataType dtype = graph::DataType::Float32;
    std::vector<std::int64_t> dims;
    std::vector<std::byte> bytes;
};

struct NamedTensor {
    std::string name;
    const HostTensor* tensor = nullptr;
};

// A decoder's caches kept inside the engine between runs, per sequence: after a run, each output
// named first in `keep` is kept as the input named second, and fed to the next run of the same
// sequence (an input that run is given wins, as at a prefill).
struct KeptState {
    int sequence = 0;
    std::vector<std::pair<std::string, std::string>> keep; // output -> input
    // An output given as the index of the largest value in its last row (an int64 [1]): a
    // decoder's next token without its logits crossing to the rank; empty: none.
    std::string argmax;
    // An output given as its last row alone, [1, ..., 1, row] (the logits of a step's last token).
    std::string last_row;
    // Run untimed first as the profiler warms a model up (3 times, then until the outputs have
    // totalled 128 MB, for at most 10 s), the state kept from the last run: the engine's memory
    // at both of a decoder's shapes is then in place before anything is timed.
    bool warm = false;
};

class RankEngine {
public:
    virtual ~RankEngine() = default;
    // Starts a run with `inputs` for the outputs named; finish() gives them, in that order.
    // Between the two the rank is free (an engine of its own process computes meanwhile), and
    // done(timeout) says whether finish() would not wait, waiting at most `timeout_ms`. Throws
    // std::runtime_error when the engine fails (its process died, an input it cannot take);
    // InputError for a model it cannot load.
    // With `state`, kept outputs are fetched and kept rather than given (engines without state
    // throw std::runtime_error).
    virtual void start(const std::vector<NamedTensor>& inputs,
                       const std::vector<std::string>& outputs,
                       const KeptState* state = nullptr) = 0;
    virtual bool done(int timeout_ms) = 0;
    virtual std::vector<HostTensor> finish() = 0;
    std::vector<HostTensor> run(const std::vector<NamedTensor>& inputs,
                                const std::vector<std::string>& outputs,
                                const KeptState* state = nullptr) {
        start(inputs, outputs, state);
        return finish();
    }
    // The engine's own time for the last run, in ms (ONNX Runtime's session.run).
    virtual double last_run_ms() const = 0;
};

// "ort" or "opencv"; `log` takes a worker process's stderr. Throws InputError (place "--runner")
// for an engine this build lacks.
std::unique_ptr<RankEngine> make_rank_engine(const std::string& engine,
                                             const std::filesystem::path& model, int threads,
                                             const std::filesystem::path& log);

// "ONNX Runtime 1.20.1 (onnxruntime-node)" or "OpenCV 4.6.0 DNN".
std::string rank_engine_runtime(const std::string& engine);

} // namespace cleave::autodice
