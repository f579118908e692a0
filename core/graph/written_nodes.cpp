#include "written_nodes.hpp"

#include "../input_error.hpp"
#include "mapped_file.hpp"

#include <onnx/onnx_pb.h>

namespace cleave::graph {

std::vector<WrittenNode> read_written_nodes(const std::filesystem::path& file) {
    const MappedFile bytes(file);
    onnx::ModelProto model;
    if (!model.ParseFromArray(bytes.bytes().data(), static_cast<int>(bytes.bytes().size())))
        throw InputError(file.string(), "",
                         "not an ONNX model: the protobuf message does not parse as a ModelProto");
    std::vector<WrittenNode> nodes;
    nodes.reserve(static_cast<std::size_t>(model.graph().node_size()));
    for (const auto& n : model.graph().node()) {
        WrittenNode& node = nodes.emplace_back();
        node.name = n.name();
        node.op = n.op_type();
        node.domain = n.domain() == "ai.onnx" ? "" : n.domain();
        node.inputs.assign(n.input().begin(), n.input().end());
        node.outputs.assign(n.output().begin(), n.output().end());
    }
    return nodes;
}

} // namespace cleave::graph
