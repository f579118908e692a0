#include "feed_values.hpp"

#include "core/input_error.hpp"
#include "data_type.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <random>

namespace cleave::graph {

namespace {

// IEEE half precision of a float in [0, 1) (round to nearest; no overflow there).
std::uint16_t half_of(float value) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    const std::uint32_t sign = (bits >> 16) & 0x8000u;
    const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
    std::uint32_t mantissa = bits & 0x7fffffu;
    if (exponent <= 0) { // subnormal or zero in half precision
        if (exponent < -10)
            return static_cast<std::uint16_t>(sign);
        mantissa |= 0x800000u;
        const int shift = 14 - exponent;
        return static_cast<std::uint16_t>(sign | ((mantissa + (1u << (shift - 1))) >> shift));
    }
    const std::uint32_t rounded = (static_cast<std::uint32_t>(exponent) << 10) +
                                  ((mantissa + 0x1000u) >> 13); // a carry bumps the exponent
    return static_cast<std::uint16_t>(sign | rounded);
}

template <typename T>
void put(std::vector<std::byte>& out, std::size_t i, T value) {
    std::memcpy(out.data() + i * sizeof(T), &value, sizeof(T));
}

} // namespace

std::vector<std::byte> feed_values(const Tensor& tensor, const InputFeed& feed,
                                   std::uint64_t seed, const std::string& file) {
    if (!tensor.shape || element_count(tensor.shape) < 0)
        throw InputError(file, tensor.name, "an input of known shape; bind its dims");
    const auto count = static_cast<std::size_t>(element_count(tensor.shape));
    const DataType type = tensor.dtype;
    const std::size_t size = element_bytes(type);
    const bool supported = type == DataType::Float32 || type == DataType::Float16 ||
                           type == DataType::Float64 || type == DataType::Int64 ||
                           type == DataType::Int32 || type == DataType::Int8 ||
                           type == DataType::Uint8 || type == DataType::Bool;
    if (!supported)
        throw InputError(file, tensor.name,
                         "an input of float32, float16, float64, int64, int32, int8, uint8 or "
                         "bool elements, found " +
                             std::string(to_string(type)));
    std::vector<std::byte> out(count * size);
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const std::int64_t last = tensor.shape->empty() ? 1 : std::max<std::int64_t>(tensor.shape->back(), 1);
    for (std::size_t i = 0; i < count; ++i) {
        double value = 0;
        switch (feed.fill) {
        case InputFeed::Fill::Uniform:
            value = is_floating(type) ? unit(random) : 0.0;
            break;
        case InputFeed::Fill::Constant:
            value = static_cast<double>(feed.value);
            break;
        case InputFeed::Fill::TokenIds:
            value = std::min(std::floor(unit(random) * static_cast<double>(feed.value)),
                             static_cast<double>(std::max<std::int64_t>(feed.value - 1, 0)));
            break;
        case InputFeed::Fill::Positions:
            value = static_cast<double>(feed.value + static_cast<std::int64_t>(i) % last);
            break;
        }
        switch (type) {
        case DataType::Float32:
            put(out, i, static_cast<float>(value));
            break;
        case DataType::Float16:
            put(out, i, half_of(static_cast<float>(value)));
            break;
        case DataType::Float64:
            put(out, i, value);
            break;
        case DataType::Int64:
            put(out, i, static_cast<std::int64_t>(value));
            break;
        case DataType::Int32:
            put(out, i, static_cast<std::int32_t>(value));
            break;
        case DataType::Int8:
            put(out, i, static_cast<std::int8_t>(value));
            break;
        case DataType::Uint8:
        case DataType::Bool:
            put(out, i, static_cast<std::uint8_t>(value));
            break;
        default:
            break;
        }
    }
    return out;
}

} // namespace cleave::graph
