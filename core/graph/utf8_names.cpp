#include "utf8_names.hpp"

#include "../input_error.hpp"

#include <cstdint>

namespace cleave::graph {

std::optional<std::size_t> invalid_utf8_at(std::string_view text) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char lead = byte(i);
        std::size_t length = 0;
        std::uint32_t code = 0;
        if (lead < 0x80) {
            ++i;
            continue;
        } else if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
            code = lead & 0x1Fu;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            code = lead & 0x0Fu;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            code = lead & 0x07u;
        } else {
            return i;
        }
        if (i + length > text.size())
            return i;
        for (std::size_t k = 1; k < length; ++k) {
            if ((byte(i + k) & 0xC0u) != 0x80u)
                return i + k;
            code = (code << 6) | (byte(i + k) & 0x3Fu);
        }
        const bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
        if (overlong || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF)
            return i;
        i += length;
    }
    return std::nullopt;
}

namespace {

void check(const std::string& text, const std::string& file, const std::string& place) {
    if (const auto at = invalid_utf8_at(text))
        throw InputError(file, place,
                         "is not valid UTF-8 (byte " + std::to_string(*at) +
                             "); expected a name in UTF-8, as ONNX's strings are");
}

void check_values(const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& values,
                  const std::string& file, const std::string& what) {
    for (int i = 0; i < values.size(); ++i) {
        const auto& v = values[i];
        const std::string place = what + " #" + std::to_string(i);
        check(v.name(), file, place + " name");
        if (v.type().has_tensor_type())
            for (const auto& d : v.type().tensor_type().shape().dim())
                check(d.dim_param(), file, place + " dim name");
    }
}

} // namespace

void check_utf8_names(const onnx::ModelProto& model, const std::string& file) {
    check(model.producer_name(), file, "producer_name");
    check(model.producer_version(), file, "producer_version");
    const auto& graph = model.graph();
    check_values(graph.input(), file, "input");
    check_values(graph.output(), file, "output");
    check_values(graph.value_info(), file, "value_info");
    for (int i = 0; i < graph.initializer_size(); ++i)
        check(graph.initializer(i).name(), file, "initializer #" + std::to_string(i) + " name");
    for (int i = 0; i < graph.node_size(); ++i) {
        const auto& n = graph.node(i);
        const std::string place = "node #" + std::to_string(i);
        check(n.name(), file, place + " name");
        check(n.op_type(), file, place + " op_type");
        check(n.domain(), file, place + " domain");
        for (const auto& name : n.input())
            check(name, file, place + " input name");
        for (const auto& name : n.output())
            check(name, file, place + " output name");
    }
}

} // namespace cleave::graph
