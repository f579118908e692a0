#include "data_type.hpp"

#include <array>

namespace cleave::graph {

namespace {
struct TypeInfo {
    std::string_view name;
    std::size_t bits;
    bool floating;
};

constexpr std::array<TypeInfo, 23> kTypes{{
    {"undefined", 0, false},     {"float32", 32, true},   {"uint8", 8, false},
    {"int8", 8, false},          {"uint16", 16, false},   {"int16", 16, false},
    {"int32", 32, false},        {"int64", 64, false},    {"string", 0, false},
    {"bool", 8, false},          {"float16", 16, true},   {"float64", 64, true},
    {"uint32", 32, false},       {"uint64", 64, false},   {"complex64", 64, true},
    {"complex128", 128, true},   {"bfloat16", 16, true},  {"float8e4m3fn", 8, true},
    {"float8e4m3fnuz", 8, true}, {"float8e5m2", 8, true}, {"float8e5m2fnuz", 8, true},
    {"uint4", 4, false},         {"int4", 4, false},
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
    return info(type).bits % 8 == 0 ? info(type).bits / 8 : 0;
}

std::size_t element_bits(DataType type) {
    return info(type).bits;
}

std::int64_t storage_bytes(DataType type, std::int64_t elements) {
    const auto bits = static_cast<std::int64_t>(element_bits(type));
    std::int64_t total = 0;
    if (bits == 0 || elements < 0 || __builtin_mul_overflow(elements, bits, &total))
        return -1;
    return total / 8 + (total % 8 != 0 ? 1 : 0);
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
