// The options every model-reading subcommand shares: the model path, --input-shape and
// --autodice-names, registered and turned into a loaded Model in one place.
#pragma once

#include "core/graph/model.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace cleave::cli {

struct ModelOptions {
    std::string model;
    std::vector<std::string> input_shapes;
    bool autodice_names = false;

    // Commands whose output must keep the model's own node names leave --autodice-names out.
    void add_to(CLI::App& command, bool offer_autodice_names = true);
    // Loads the model, printing the importer's warnings on stderr.
    graph::Model load() const;
};

} // namespace cleave::cli
