// Element types of tensors, numbered as ONNX numbers them so values pass through unchanged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cleave::graph {

enum class DataType : std::int32_t {
    Undefined = 0,
    Float32 = 1,
    Uint8 = 2,
    Int8 = 3,
    Uint16 = 4,
    Int16 = 5,
    Int32 = 6,
    Int64 = 7,
    String = 8,
    Bool = 9,
    Float16 = 10,
    Float64 = 11,
    Uint32 = 12,
    Uint64 = 13,
    Complex64 = 14,
    Complex128 = 15,
    BFloat16 = 16,
};

// "float32", "int64", ... ("undefined" for values ONNX does not define).
std::string_view to_string(DataType type);

// Bytes per element; 0 for strings and undefined types, whose size is not fixed.
std::size_t element_bytes(DataType type);

bool is_floating(DataType type);

// Maps a raw ONNX enum value, returning Undefined for values outside the known range.
DataType data_type_from_onnx(std::int32_t value);

} // namespace cleave::graph
