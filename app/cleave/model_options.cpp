#include "model_options.hpp"

#include "core/graph/input_shape.hpp"
#include "core/input_error.hpp"
#include "progress.hpp"

namespace cleave::cli {

void ModelOptions::add_to(CLI::App& command, bool offer_autodice_names) {
    command
        .add_option("model", model, "ONNX model file (.onnx, or compressed .onnx.xz or .onnx.gz)")
        ->required();
    add_shape_options_to(command);
    if (offer_autodice_names)
        command.add_flag(
            "--autodice-names", autodice_names,
            "Name nodes as AutoDiCE does: first output's name with '/' replaced by '_'");
}

void ModelOptions::add_shape_options_to(CLI::App& command) {
    command
        .add_option("--input-shape", input_shapes,
                    "Fix an input's dims, NAME=DIMS (e.g. input=1x3x160x160 or "
                    "input=1,3,160,160); repeatable")
        ->type_name("NAME=DIMS");
    command
        .add_option("--dim", dims,
                    "Bind a symbolic dim wherever it appears, NAME=VALUE (e.g. "
                    "sequence_length=128, s0=1); repeatable")
        ->type_name("NAME=VALUE");
    command
        .add_option_function<std::int64_t>(
            "--batch", [this](const std::int64_t& b) { roles.batch = b; },
            "Sequences in the batch of a language model's inputs (default 1)")
        ->type_name("B");
    auto* prefill = command.add_option_function<std::int64_t>(
        "--prefill", [this](const std::int64_t& n) { roles.prefill = n; },
        "Cost a decoder reading N new tokens with an empty cache (past 0)");
    prefill->type_name("N");
    auto* decode = command.add_option_function<std::int64_t>(
        "--decode", [this](const std::int64_t& l) { roles.decode = l; },
        "Cost one decode step of a decoder: 1 new token after L cached ones");
    decode->type_name("L");
    prefill->excludes(decode);
}

bool ModelOptions::gives_shapes() const {
    return !input_shapes.empty() || !dims.empty() || !roles.empty();
}

graph::LoadOptions ModelOptions::load_options() const {
    graph::LoadOptions options;
    for (const auto& spec : input_shapes) {
        auto [name, shape] = graph::parse_input_shape(spec);
        options.input_shapes[name] = shape;
    }
    options.dims = roles;
    for (const auto& spec : dims) {
        const auto [name, value] = graph::parse_dim_binding(spec);
        const auto [it, added] = options.dims.names.emplace(name, value);
        if (!added && it->second != value)
            throw InputError("--dim", spec,
                             "'" + name + "' is bound twice, to " + std::to_string(it->second) +
                                 " and " + std::to_string(value));
    }
    graph::check_dim_bindings(options.dims);
    options.autodice_names = autodice_names;
    return options;
}

graph::Model ModelOptions::load() const {
    auto loaded = graph::load_model(model, load_options());
    for (const auto& warning : loaded.warnings)
        warn(loaded.file + ": " + warning);
    for (const auto& text : loaded.notes)
        note(loaded.file + ": " + text);
    return loaded;
}

} // namespace cleave::cli
