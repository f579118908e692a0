// Generated networks written as ONNX files, each atomically, with the manifest.json that lists
// them; each model's weights follow from the seed and its name, whatever else is written.
#pragma once

#include "core/task_control.hpp"
#include "model_spec.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace cleave::modelgen {

struct WrittenModel {
    std::string name;
    std::string category;
    std::string file; // inside the folder
    std::uint64_t bytes = 0;
};

// Builds and writes one model as NAME.onnx into `folder` (atomically), its weights from `seed`
// and its name, so a model does not depend on which others are written.
WrittenModel write_model(const ModelSpec& spec, const std::filesystem::path& folder,
                         std::uint64_t seed);

// Builds and writes every model (NAME.onnx, each atomically) and manifest.json ({"models":
// [{"name", "category", "description", "input_shape", "file"}]}) into `folder`, creating it.
// `control` is told after each model ("[done/total] name"); a cancel stops the writing there,
// before manifest.json.
std::vector<WrittenModel> write_models(const std::vector<ModelSpec>& specs,
                                       const std::filesystem::path& folder, std::uint64_t seed,
                                       const TaskControl* control = nullptr);

} // namespace cleave::modelgen
