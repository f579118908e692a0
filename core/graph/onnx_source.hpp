// The parsed ONNX file behind a Model: its structure as libonnx's ModelProto (nodes sorted,
// shapes inferred) and the mapped bytes where large weights stay. Internal to core/graph.
#pragma once

#include "mapped_file.hpp"
#include "weight_payloads.hpp"

#include <filesystem>
#include <google/protobuf/arena.h>
#include <memory>
#include <onnx/onnx_pb.h>

namespace cleave::graph {

class OnnxSource {
    google::protobuf::Arena arena_; // the proto's messages: fewer allocations, one release

public:
    onnx::ModelProto& proto = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena_);
    std::shared_ptr<const MappedFile> file;
    std::vector<std::optional<PayloadRange>> initializer_payloads; // per graph.initializer
    std::filesystem::path folder; // where external data may live; empty when not from a file

    // Raw little-endian bytes of initializer i when held as raw_data (in the proto or the
    // mapped file); empty for typed fields and external data.
    std::span<const std::uint8_t> raw_initializer(int index) const;
};

} // namespace cleave::graph
