#include "data_type.hpp"

#include <array>

namespace cleave::graph {

namespace {
struct TypeInfo {
    std::string_view name;
    std::size_t bytes;
    bool floating;
};

constexpr std::array<TypeInfo, 17> kTypes{{
    {"undefined", 0, false},
    {"float32", 4, true},
    {"uint8", 1, false},
    {"int8", 1, false},
    {"uint16", 2, false},
    {"int16", 2, false},
    {"int32", 4, false},
    {"int64", 8, false},
    {"string", 0, false},
    {"bool", 1, false},
    {"float16", 2, true},
    {"float64", 8, true},
    {"uint32", 4, false},
    {"uint64", 8, false},
    {"complex64", 8, true},
    {"complex128", 16, true},
    {"bfloat16", 2, true},
}};

const TypeInfo& info(DataType type) {
    const auto index = static_cast<std::size_t>(type);
    return index < kTypes.size() ? kTypes[index] : kTypes[0];
}
} // namespace

std::string_view to_string(DataType type) {
    return info(type).name;
}

std::size_t element_bytes(DataType type) {
    return info(type).bytes;
}

bool is_floating(DataType type) {
    return info(type).floating;
}

DataType data_type_from_onnx(std::int32_t value) {
    if (value < 0 || static_cast<std::size_t>(value) >= kTypes.size())
        return DataType::Undefined;
    return static_cast<DataType>(value);
}

} // namespace cleave::graph
