#include "onnx_source.hpp"

#include "../input_error.hpp"

namespace cleave::graph {

std::span<const std::uint8_t> OnnxSource::raw_initializer(int index) const {
    const auto& payload = initializer_payloads.at(static_cast<std::size_t>(index));
    if (payload)
        return file->bytes().subspan(payload->offset, payload->length);
    const auto& raw = proto.graph().initializer(index).raw_data();
    return {reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()};
}

ExternalData external_data(const onnx::TensorProto& tensor, const std::string& file,
                           const std::string& place) {
    ExternalData out;
    for (const auto& entry : tensor.external_data()) {
        try {
            if (entry.key() == "location")
                out.location = entry.value();
            else if (entry.key() == "offset")
                out.offset = std::stoll(entry.value());
            else if (entry.key() == "length")
                out.length = std::stoll(entry.value());
        } catch (const std::exception&) {
            throw InputError(file, place,
                             "external_data '" + entry.key() + "' is '" + entry.value() +
                                 "'; expected a whole number");
        }
    }
    return out;
}

} // namespace cleave::graph
