// Loading an ONNX file into Cleave's graph model: parse with libonnx's protobuf classes, check,
// sort, run libonnx shape inference, count per-node costs. Weights stay in the mapped file.
#pragma once

#include "core/task_control.hpp"
#include "dim_bindings.hpp"
#include "model.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace cleave::graph {

struct LoadOptions {
    // Dims for graph inputs by name; other symbolic dims are bound by `dims`.
    std::map<std::string, Shape> input_shapes;
    // Symbolic dims by name and by decoder role (input_dim_binding.hpp). Without any, a model
    // that is no decoder has its unknown dims set to 1, with a warning each.
    DimBindings dims;
    // Name every node as AutoDiCE does; without it only empty or repeated names are replaced.
    bool autodice_names = false;
    // false: drop the shapes the file declares for outputs and intermediate values and infer
    // them anew (always done when input_shapes changes an input).
    bool keep_declared_shapes = true;
    // Told between stages how much is done; cancelling it stops the load there (throws
    // cleave::Cancelled, and nothing is returned).
    const TaskControl* control = nullptr;
};

// Throws InputError naming the file and the place for anything that is not a loadable model.
Model load_model(const std::filesystem::path& file, const LoadOptions& options = {});

// The same for bytes held in memory (external data is refused: it needs the model's folder).
Model load_model_from_bytes(std::vector<std::uint8_t> bytes, const std::string& name,
                            const LoadOptions& options = {});

// The newest opset of the default domain that the importer reads: libonnx's schemas up to its
// newest (17 for libonnx 1.12), Cleave's for the op versions after it (docs/importer.md).
std::int64_t newest_known_opset();

} // namespace cleave::graph
