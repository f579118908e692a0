#include "input_shape.hpp"

#include "../input_error.hpp"

#include <charconv>

namespace cleave::graph {

std::pair<std::string, Shape> parse_input_shape(std::string_view spec) {
    const auto fail = [&](const std::string& why) -> std::pair<std::string, Shape> {
        throw InputError("--input-shape", std::string(spec),
                         why +
                             "; expected NAME=DIMS such as input=1x3x224x224 or input=1,3,224,224");
    };
    const auto equals = spec.rfind('=');
    if (equals == std::string_view::npos || equals == 0)
        return fail("no input name");
    Shape dims;
    std::string_view rest = spec.substr(equals + 1);
    if (rest.empty())
        return fail("no dims");
    const bool commas = rest.find(',') != std::string_view::npos;
    if (commas && rest.find('x') != std::string_view::npos)
        return fail("dims are separated by 'x' or by ',', not both");
    const char separator = commas ? ',' : 'x';
    while (true) {
        const auto x = rest.find(separator);
        const auto part = rest.substr(0, x);
        std::int64_t value = 0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (ec != std::errc() || end != part.data() + part.size() || value < 1)
            return fail("dim '" + std::string(part) + "' is not a whole number >= 1");
        dims.push_back(value);
        if (x == std::string_view::npos)
            break;
        rest = rest.substr(x + 1);
    }
    return {std::string(spec.substr(0, equals)), dims};
}

} // namespace cleave::graph
