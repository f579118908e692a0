// The ONNX model behind each measured run: loaded once per model and input size from the folder
// the data's models live in (NAME.onnx, .onnx.xz or .onnx.gz, or NAME/NAME.onnx: a model in a
// folder of its own, as generated decoders are written beside their data), at the export size
// unless every measured size was asked for. A run that bound dims (a decoder's phase) is loaded
// with them.
#pragma once

#include "core/graph/model.hpp"
#include "measured_dataset.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace cleave::profile {

class RunModels {
public:
    // Throws InputError when `folder` is not a folder.
    RunModels(std::filesystem::path folder, bool all_sizes);

    // The run's model at the run's input size; nullptr when its file is missing (remembered in
    // missing()) or the run is at another size than the export size and all_sizes is off.
    const graph::Model* find(const MeasuredRun& run);
    const std::vector<std::string>& missing() const { return missing_; }

private:
    std::filesystem::path folder_;
    bool all_sizes_;
    std::map<std::string, graph::Model> loaded_;       // by model and input size
    std::map<std::string, graph::Shape> export_shape_; // by model
    std::vector<std::string> missing_;
};

} // namespace cleave::profile
