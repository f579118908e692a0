#include "onnx_source.hpp"

namespace cleave::graph {

std::span<const std::uint8_t> OnnxSource::raw_initializer(int index) const {
    const auto& payload = initializer_payloads.at(static_cast<std::size_t>(index));
    if (payload)
        return file->bytes().subspan(payload->offset, payload->length);
    const auto& raw = proto.graph().initializer(index).raw_data();
    return {reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()};
}

} // namespace cleave::graph
