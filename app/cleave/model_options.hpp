// The options every model-reading subcommand shares: the model path, --input-shape, the dim
// bindings (--dim, --batch, --prefill, --decode) and --autodice-names, registered and turned
// into a loaded Model in one place.
#pragma once

#include "core/graph/dim_bindings.hpp"
#include "core/graph/model.hpp"
#include "core/graph/onnx_import.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace cleave::cli {

struct ModelOptions {
    std::string model;
    std::vector<std::string> input_shapes;
    std::vector<std::string> dims; // --dim NAME=VALUE
    graph::DimBindings roles;      // --batch, --prefill, --decode (names come from `dims`)
    bool autodice_names = false;

    // Commands whose output must keep the model's own node names leave --autodice-names out.
    void add_to(CLI::App& command, bool offer_autodice_names = true);
    // --input-shape and the dim bindings alone, for a command that names its model otherwise.
    void add_shape_options_to(CLI::App& command);
    // Whether any of add_shape_options_to's options was given.
    bool gives_shapes() const;
    // The shapes and bindings checked (InputError naming the flag), ready for load_model.
    graph::LoadOptions load_options() const;
    // Loads the model, printing the importer's warnings on stderr.
    graph::Model load() const;
};

} // namespace cleave::cli
