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
    Float8E4M3FN = 17, // opset 19
    Float8E4M3FNUZ = 18,
    Float8E5M2 = 19,
    Float8E5M2FNUZ = 20,
    Uint4 = 21, // opset 21: two elements packed in a byte
    Int4 = 22,
};

// "float32", "int64", ... ("undefined" for values ONNX does not define).
std::string_view to_string(DataType type);

// Bytes per element; 0 for strings and undefined types, whose size is not fixed, and for the
// 4-bit types, which fill no whole byte (element_bits and storage_bytes count them).
std::size_t element_bytes(DataType type);

// Bits per element: 4 for int4 and uint4; 0 where element_bytes says the size is not fixed.
std::size_t element_bits(DataType type);

// Bytes that `elements` elements fill as ONNX stores them (4-bit types two to a byte, rounded
// up); -1 when the size is not fixed or does not fit in 64 bits.
std::int64_t storage_bytes(DataType type, std::int64_t elements);

bool is_floating(DataType type);

// Maps a raw ONNX enum value, returning Undefined for values outside the known range.
DataType data_type_from_onnx(std::int32_t value);

} // namespace cleave::graph
