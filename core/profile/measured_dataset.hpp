// Measured runs in the shared dataset format (docs/profiling.md): per run the model, the
// threads, the input shape, end-to-end times and per-kernel times with the runtime's fusion
// (`covers`). Files may be plain JSON or xz-compressed (.json.xz).
#pragma once

#include "core/graph/dim_bindings.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cleave::profile {

struct MeasuredKernel {
    std::string name;
    std::string op;
    std::string domain;
    std::vector<std::string> covers; // original node names the runtime fused into this kernel
    std::optional<double> us;        // median kernel time; absent when not profiled
};

struct MeasuredRun {
    std::string model;
    int threads = 0; // 0 when the file does not say
    std::string dtype;
    std::vector<std::int64_t> input_shape;
    // The symbolic dims the run bound: a decoder's phase ("decode=256 batch=1"); empty otherwise.
    // "dims" in the file, in dim_bindings_text's words.
    graph::DimBindings dims;
    std::vector<double> e2e_ms;
    std::optional<double> cv; // coefficient of variation of e2e_ms, where the profiler gave it
    std::vector<MeasuredKernel> kernels;
};

struct MeasuredDataset {
    std::string file;
    std::string runtime; // "ONNX Runtime 1.30.0", "PyTorch 2.11 ...", "OpenCV 4.6.0 DNN ..."
    std::string device;  // the processor or GPU
    std::vector<MeasuredRun> runs;
};

// Throws InputError(file, JSON pointer, expected) for a file that is not in the format.
MeasuredDataset load_measured_dataset(const std::string& path);

// Adds `run`, replacing the run of the same model, threads, input shape, dims and dtype if there
// is one.
void put_run(MeasuredDataset& data, MeasuredRun run);

// Writes {"runtime", "cpu", "runs"} as plain JSON, atomically; load_measured_dataset reads it back.
void save_measured_dataset(const MeasuredDataset& data, const std::filesystem::path& path);

// The architecture without its size (../shared/data/README.md): "resnet101" -> "resnet",
// "resnext50_32x4d" -> "resnext", "mobilenet_v3_small" -> "mobilenet", "llama-3.2-1b" -> "llama".
std::string model_family(const std::string& model);
// Families of attention models and hybrids, reported apart from the CNNs: the zoo's vit, maxvit
// and bert, the exported swin, convnext, deit, levit, mobilevit, efficientformer, gpt (gpt2),
// roberta and distilbert, and the generated "transformer" space.
bool is_transformer_family(const std::string& family);

} // namespace cleave::profile
