// The names a model carries into everything Cleave writes (JSON, AutoDiCE mappings, projects)
// must be text: a node, tensor, op, domain or dim name that is not valid UTF-8 is refused at
// import, naming where, rather than failing when it is written out. Internal to core/graph.
#pragma once

#include <onnx/onnx_pb.h>
#include <optional>
#include <string>
#include <string_view>

namespace cleave::graph {

// The offset of the first byte of `text` that does not begin or continue a valid UTF-8 sequence
// (overlong forms, surrogates and values past U+10FFFF included); nullopt when it is all valid.
std::optional<std::size_t> invalid_utf8_at(std::string_view text);

// Throws InputError(file, place, "... is not valid UTF-8 (byte N)") for the first name of the
// model's top-level graph (nodes, their inputs and outputs, initializers, inputs, outputs,
// value_info and their dim names) or producer that is not valid UTF-8.
void check_utf8_names(const onnx::ModelProto& model, const std::string& file);

} // namespace cleave::graph
