// Binding a model's symbolic input dims to numbers: by name (DimBindings::names), by the role a
// dim plays in a language-model decoder, found from where it appears (input_ids is [batch, new
// tokens], a past key/value input [batch, heads, cached tokens, head dim], the attention mask
// [batch, cached + new]) or from its spelling ("past_sequence_length"), and by evaluating the
// expressions exporters write ("past_sequence_length + 1", "s0 + s1").
#pragma once

#include "dim_bindings.hpp"
#include "model.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cleave::graph {

enum class DimRole { Batch, NewTokens, CachedTokens, TotalTokens };

std::string_view to_string(DimRole role); // "batch", "sequence", "past", "total"

// The role of each dim of a graph input, from the input's name and rank (nullopt: none known).
std::vector<std::optional<DimRole>> input_dim_roles(std::string_view input, std::size_t rank);
// The value a model's inputs' dims of `role` were bound to (Model::dim_roles); nullopt when none.
std::optional<std::int64_t> bound_role(const Model& model, DimRole role);
// The role a dim's own name spells ("batch_size", "sequence_length", "past_sequence_length").
std::optional<DimRole> spelled_dim_role(std::string_view param);

struct InputDim {
    std::int64_t value = -1; // >= 0: fixed (in the file or by --input-shape)
    std::string param;       // the file's dim_param, possibly empty
};

struct InputDims {
    std::string name;
    std::vector<InputDim> dims;
};

struct BoundInputDims {
    std::vector<Shape> shapes;                 // one per input, every dim >= 0
    std::map<std::string, std::int64_t> names; // every dim_param given a value, expressions too
    std::map<std::string, std::int64_t> roles; // to_string(role) -> value, for the roles found
    std::vector<std::string> warnings;         // flags that bound nothing
    std::vector<std::string> notes;            // defaults taken: the batch of 1
};

// A model is a decoder when an input holds past keys or values. Without bindings, a model that is
// no decoder keeps the old rule: each unknown dim becomes 1, with a warning. Otherwise the batch
// defaults to 1 (with a note), and a decoder's new or cached tokens left unbound are an
// InputError naming the input and the dim, as are contradicting bindings, a batch or new-token
// count of 0, a --dim naming no dim of the model, and a dim expression that does not parse.
BoundInputDims bind_input_dims(const std::vector<InputDims>& inputs, const DimBindings& bindings,
                               const std::string& file);

} // namespace cleave::graph
