// Einsum's equation ("B G H I D, B G H J D -> B G H I J", as torchvision's MaxViT writes it):
// the output shape and the multiply-accumulates it implies from its operands' shapes, which
// libonnx 1.12 does not infer (it gives the output's rank only). Internal to core/graph.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cleave::graph {

struct EinsumEquation {
    std::vector<std::string> inputs; // one subscript per operand, spaces removed
    std::string output;              // explicit, or in implicit mode the letters used once, sorted
};

// nullopt for an equation it does not read: broadcast ellipses ("..."), a character other than a
// letter, or an output letter no operand has.
std::optional<EinsumEquation> parse_einsum(std::string_view equation);

// The output dims, from the operands' dims (one shape per operand); nullopt when an operand's rank
// differs from its subscript or a letter's sizes disagree (1 broadcasts).
std::optional<std::vector<std::int64_t>>
einsum_output_shape(const EinsumEquation& equation,
                    const std::vector<std::vector<std::int64_t>>& operands);

// For two operands or more, the product of every letter's size: one multiply-accumulate per
// point of the iteration space. 0 for one operand (a transpose or a sum), nullopt as above.
std::optional<std::int64_t> einsum_macs(const EinsumEquation& equation,
                                        const std::vector<std::vector<std::int64_t>>& operands);

} // namespace cleave::graph
