#include "run_models.hpp"

#include "core/graph/model_file.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"

#include <algorithm>

namespace cleave::profile {

RunModels::RunModels(std::filesystem::path folder, bool all_sizes)
    : folder_(std::move(folder)), all_sizes_(all_sizes) {
    if (!std::filesystem::is_directory(folder_))
        throw InputError(folder_.string(), "--models",
                         "not a folder; expected the folder holding the data's models");
}

const graph::Model* RunModels::find(const MeasuredRun& run) {
    const std::string key = run.model + " " + graph::shape_to_string(run.input_shape) + " " +
                            graph::dim_bindings_text(run.dims);
    if (const auto it = loaded_.find(key); it != loaded_.end())
        return &it->second;
    auto path = graph::existing_model_file(folder_ / (run.model + ".onnx"));
    if (path.empty()) // a model in a folder of its own, as decoders are written with their data
        path = graph::existing_model_file(folder_ / run.model / (run.model + ".onnx"));
    if (path.empty()) {
        if (std::find(missing_.begin(), missing_.end(), run.model) == missing_.end())
            missing_.push_back(run.model);
        return nullptr;
    }
    if (!run.dims.empty()) { // a decoder's phase: loaded as it was measured, whatever all_sizes
        graph::LoadOptions load;
        load.dims = run.dims;
        return &loaded_.emplace(key, graph::load_model(path, load)).first->second;
    }
    if (const auto it = export_shape_.find(run.model);
        it != export_shape_.end() && it->second != run.input_shape && !all_sizes_)
        return nullptr;
    graph::Model model = graph::load_model(path);
    if (!model.inputs.empty() && model.tensors[model.inputs[0]].shape)
        export_shape_[run.model] = *model.tensors[model.inputs[0]].shape;
    const bool export_size =
        !model.inputs.empty() && model.tensors[model.inputs[0]].shape == run.input_shape;
    if (!export_size && !all_sizes_)
        return nullptr;
    if (!export_size) {
        graph::LoadOptions load;
        load.input_shapes[model.tensors[model.inputs[0]].name] = run.input_shape;
        model = graph::load_model(path, load);
    }
    return &loaded_.emplace(key, std::move(model)).first->second;
}

} // namespace cleave::profile
