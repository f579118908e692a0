// The parsed ONNX file behind a Model: its structure as libonnx's ModelProto (nodes sorted,
// shapes inferred) and the mapped bytes where large weights stay. Internal to core/graph.
#pragma once

#include "mapped_file.hpp"
#include "weight_payloads.hpp"

#include <cstdint>
#include <filesystem>
#include <google/protobuf/arena.h>
#include <memory>
#include <onnx/onnx_pb.h>
#include <string>
#include <vector>

namespace cleave::graph {

class OnnxSource {
    google::protobuf::Arena arena_; // the proto's messages: fewer allocations, one release

public:
    onnx::ModelProto& proto = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena_);
    std::shared_ptr<const MappedFile> file;
    std::vector<std::optional<PayloadRange>> initializer_payloads; // per graph.initializer
    std::filesystem::path folder; // where external data may live; empty when not from a file
    // The graph's inputs and outputs as the file declares them, where an input has a dim the file
    // left symbolic (the proto's are bound); empty otherwise.
    std::vector<onnx::ValueInfoProto> file_inputs, file_outputs;

    // Raw little-endian bytes of initializer i when held as raw_data (in the proto or the
    // mapped file); empty for typed fields and external data.
    std::span<const std::uint8_t> raw_initializer(int index) const;
};

// Where a tensor stored as external data keeps its bytes: its external_data entries "location",
// "offset" and "length" (-1 when left to the dims). Throws InputError(file, place, ...) on an
// offset or length that is not a whole number.
struct ExternalData {
    std::string location;
    std::int64_t offset = 0;
    std::int64_t length = -1;
};
ExternalData external_data(const onnx::TensorProto& tensor, const std::string& file,
                           const std::string& place);

} // namespace cleave::graph
