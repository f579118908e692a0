// The nodes of an ONNX file exactly as written, with no checks, renaming or shape inference: for
// graphs another runtime wrote (ONNX Runtime's optimised model, full of its contrib ops), to be
// matched against a model loaded with load_model.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cleave::graph {

struct WrittenNode {
    std::string name; // may be empty or repeated: nothing is renamed
    std::string op;
    std::string domain;               // "" for the default ONNX domain
    std::vector<std::string> inputs;  // tensor names; "" for an omitted optional input
    std::vector<std::string> outputs; // tensor names
};

// The main graph's nodes in file order. Throws InputError naming the file when it is not an
// ONNX model.
std::vector<WrittenNode> read_written_nodes(const std::filesystem::path& file);

} // namespace cleave::graph
