#include "einsum_equation.hpp"

#include <algorithm>
#include <map>

namespace cleave::graph {

namespace {

bool is_letter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Each letter's size; nullopt when ranks or sizes disagree.
std::optional<std::map<char, std::int64_t>>
letter_sizes(const EinsumEquation& equation,
             const std::vector<std::vector<std::int64_t>>& operands) {
    if (operands.size() != equation.inputs.size())
        return std::nullopt;
    std::map<char, std::int64_t> sizes;
    for (std::size_t i = 0; i < operands.size(); ++i) {
        const auto& subscript = equation.inputs[i];
        if (subscript.size() != operands[i].size())
            return std::nullopt;
        for (std::size_t a = 0; a < subscript.size(); ++a) {
            const auto d = operands[i][a];
            if (d < 0)
                return std::nullopt;
            auto [it, added] = sizes.emplace(subscript[a], d);
            if (added || it->second == d || d == 1)
                continue;
            if (it->second != 1)
                return std::nullopt;
            it->second = d;
        }
    }
    return sizes;
}

} // namespace

std::optional<EinsumEquation> parse_einsum(std::string_view text) {
    std::string compact;
    for (const char c : text)
        if (c != ' ')
            compact.push_back(c);
    if (compact.find("...") != std::string::npos)
        return std::nullopt;
    EinsumEquation eq;
    const auto arrow = compact.find("->");
    const std::string lhs = compact.substr(0, arrow);
    std::string current;
    for (const char c : lhs + ",") {
        if (c == ',') {
            eq.inputs.push_back(current);
            current.clear();
        } else if (is_letter(c)) {
            current.push_back(c);
        } else {
            return std::nullopt;
        }
    }
    if (arrow != std::string::npos) {
        eq.output = compact.substr(arrow + 2);
        for (const char c : eq.output)
            if (!is_letter(c) || lhs.find(c) == std::string::npos)
                return std::nullopt;
    } else {
        std::map<char, int> count;
        for (const char c : lhs)
            if (is_letter(c))
                ++count[c];
        for (const auto& [c, n] : count)
            if (n == 1)
                eq.output.push_back(c);
    }
    return eq;
}

std::optional<std::vector<std::int64_t>>
einsum_output_shape(const EinsumEquation& equation,
                    const std::vector<std::vector<std::int64_t>>& operands) {
    const auto sizes = letter_sizes(equation, operands);
    if (!sizes)
        return std::nullopt;
    std::vector<std::int64_t> shape;
    for (const char c : equation.output)
        shape.push_back(sizes->at(c));
    return shape;
}

std::optional<std::int64_t> einsum_macs(const EinsumEquation& equation,
                                        const std::vector<std::vector<std::int64_t>>& operands) {
    const auto sizes = letter_sizes(equation, operands);
    if (!sizes)
        return std::nullopt;
    if (operands.size() < 2)
        return 0;
    std::int64_t macs = 1;
    for (const auto& [_, d] : *sizes)
        if (__builtin_mul_overflow(macs, d, &macs))
            return std::nullopt;
    return macs;
}

} // namespace cleave::graph
