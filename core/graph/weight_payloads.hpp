// Splits an ONNX file into its structure (nodes, shapes, small tensors) and the byte ranges of
// its large initializer payloads, so the structure parses in milliseconds and weights stay in
// the mapped file. Internal to core/graph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace cleave::graph {

struct PayloadRange {
    std::uint64_t offset = 0; // into the file
    std::uint64_t length = 0;
};

struct SeparatedModel {
    std::string structure; // a valid ModelProto without the large raw_data fields
    // One entry per GraphProto.initializer, in file order: where its raw_data was left.
    std::vector<std::optional<PayloadRange>> initializer_payloads;
};

// Walks the protobuf framing of ModelProto -> GraphProto -> TensorProto; raw_data of at least
// min_payload_bytes stays behind. Throws InputError(file, "byte N", ...) on broken framing.
SeparatedModel separate_weight_payloads(std::span<const std::uint8_t> bytes,
                                        const std::string& file, std::size_t min_payload_bytes);

} // namespace cleave::graph
