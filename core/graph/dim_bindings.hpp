// What a user binds a model's symbolic dims to: by name (--dim NAME=VALUE) and by the role a dim
// plays in a language-model decoder: the batch (--batch), the new tokens and the cached tokens
// (--prefill N: N new, none cached; --decode L: one new after L cached). input_dim_binding.hpp
// finds the roles in a model's inputs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace cleave::graph {

struct DimBindings {
    std::map<std::string, std::int64_t> names; // --dim NAME=VALUE
    std::optional<std::int64_t> batch;         // --batch B
    std::optional<std::int64_t> prefill;       // --prefill N
    std::optional<std::int64_t> decode;        // --decode L

    bool empty() const { return names.empty() && !batch && !prefill && !decode; }
    std::optional<std::int64_t> new_tokens() const;    // N under --prefill, 1 under --decode
    std::optional<std::int64_t> cached_tokens() const; // 0 under --prefill, L under --decode
    bool operator==(const DimBindings&) const = default;
};

// Throws InputError naming the flag and its value for a negative value, a batch or prefill of 0,
// or --prefill with --decode.
void check_dim_bindings(const DimBindings& bindings);

// --dim's NAME=VALUE (the last '=' splits, so a name may hold one); InputError names the flag.
std::pair<std::string, std::int64_t> parse_dim_binding(std::string_view spec);

// The bindings as one line a person edits (the studio's): words such as "decode=1024",
// "prefill=512", "batch=2" and "s0=4", separated by spaces or commas. Checked as above.
DimBindings parse_dim_bindings_text(std::string_view text);
std::string dim_bindings_text(const DimBindings& bindings); // batch, prefill, decode, then names

} // namespace cleave::graph
