#include "model_options.hpp"

#include "core/graph/input_shape.hpp"
#include "core/graph/onnx_import.hpp"
#include "progress.hpp"


namespace cleave::cli {

void ModelOptions::add_to(CLI::App& command, bool offer_autodice_names) {
    command
        .add_option("model", model, "ONNX model file (.onnx, or compressed .onnx.xz or .onnx.gz)")
        ->required();
    command.add_option("--input-shape", input_shapes,
                       "Fix an input's dims, NAME=DIMS (e.g. input=1x3x160x160); repeatable");
    if (offer_autodice_names)
        command.add_flag(
            "--autodice-names", autodice_names,
            "Name nodes as AutoDiCE does: first output's name with '/' replaced by '_'");
}

graph::Model ModelOptions::load() const {
    graph::LoadOptions options;
    for (const auto& spec : input_shapes) {
        auto [name, dims] = graph::parse_input_shape(spec);
        options.input_shapes[name] = dims;
    }
    options.autodice_names = autodice_names;
    auto loaded = graph::load_model(model, options);
    for (const auto& warning : loaded.warnings)
        warn(loaded.file + ": " + warning);
    return loaded;
}

} // namespace cleave::cli
