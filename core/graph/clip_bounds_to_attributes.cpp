#include "clip_bounds_to_attributes.hpp"

#include "../input_error.hpp"
#include "mapped_file.hpp"

#include <cstring>
#include <onnx/onnx_pb.h>
#include <unordered_map>

namespace cleave::graph {

namespace {

using onnx::TensorProto;

// A float or double scalar held in the tensor itself (not in external data).
std::optional<float> scalar(const TensorProto& t) {
    std::int64_t elements = 1;
    for (const auto d : t.dims())
        elements *= d;
    if (elements != 1 || t.data_location() == TensorProto::EXTERNAL)
        return std::nullopt;
    if (t.data_type() == TensorProto::FLOAT) {
        if (t.float_data_size() == 1)
            return t.float_data(0);
        float value = 0;
        if (t.raw_data().size() != sizeof value)
            return std::nullopt;
        std::memcpy(&value, t.raw_data().data(), sizeof value);
        return value;
    }
    if (t.data_type() == TensorProto::DOUBLE) {
        if (t.double_data_size() == 1)
            return static_cast<float>(t.double_data(0));
        double value = 0;
        if (t.raw_data().size() != sizeof value)
            return std::nullopt;
        std::memcpy(&value, t.raw_data().data(), sizeof value);
        return static_cast<float>(value);
    }
    return std::nullopt;
}

} // namespace

std::optional<ClipBoundsRewrite> clip_bounds_to_attributes(const std::filesystem::path& file) {
    const MappedFile bytes(file);
    onnx::ModelProto model;
    if (!model.ParseFromArray(bytes.bytes().data(), static_cast<int>(bytes.bytes().size())))
        throw InputError(file.string(), "",
                         "not an ONNX model: the protobuf message does not parse as a ModelProto");
    auto& graph = *model.mutable_graph();

    std::unordered_map<std::string, float> constants;
    for (const auto& t : graph.initializer())
        if (const auto value = scalar(t))
            constants[t.name()] = *value;
    for (const auto& node : graph.node()) {
        if (node.op_type() != "Constant" || node.output_size() != 1)
            continue;
        for (const auto& a : node.attribute()) {
            std::optional<float> value;
            if (a.name() == "value" && a.has_t())
                value = scalar(a.t());
            else if (a.name() == "value_float")
                value = a.f();
            if (value)
                constants[node.output(0)] = *value;
        }
    }

    ClipBoundsRewrite rewrite;
    for (auto& node : *graph.mutable_node()) {
        if (node.op_type() != "Clip" || node.input_size() < 2)
            continue;
        bool constant = true;
        for (int i = 1; i < node.input_size(); ++i)
            constant &= node.input(i).empty() || constants.count(node.input(i)) > 0;
        if (!constant)
            continue;
        for (int i = 1; i < node.input_size(); ++i) {
            if (node.input(i).empty())
                continue;
            auto* attribute = node.add_attribute();
            attribute->set_name(i == 1 ? "min" : "max");
            attribute->set_type(onnx::AttributeProto::FLOAT);
            attribute->set_f(constants.at(node.input(i)));
        }
        node.mutable_input()->DeleteSubrange(1, node.input_size() - 1);
        ++rewrite.clips;
    }
    if (rewrite.clips == 0)
        return std::nullopt;
    rewrite.model = model.SerializeAsString();
    return rewrite;
}

} // namespace cleave::graph
