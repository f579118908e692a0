// A generated model built in memory and imported as a file of it would be, for tests that need
// a model of a given shape (a decoder stack of thousands of nodes) without writing one.
#pragma once

#include "core/graph/onnx_import.hpp"
#include "core/modelgen/model_specs.hpp"

#include <string>

namespace cleave::test {

inline graph::Model built_model(const modelgen::ModelSpec& spec, std::uint64_t seed = 1) {
    modelgen::NetBuilder builder(spec.name, spec.input_shape, seed);
    spec.build(builder);
    const std::string bytes = builder.model().SerializeAsString();
    return graph::load_model_from_bytes({bytes.begin(), bytes.end()}, spec.name + ".onnx");
}

} // namespace cleave::test
