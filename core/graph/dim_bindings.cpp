#include "dim_bindings.hpp"

#include "../input_error.hpp"

#include <charconv>

namespace cleave::graph {

namespace {

std::optional<std::int64_t> whole_number(std::string_view text) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

void check_at_least(const char* flag, const std::optional<std::int64_t>& value, std::int64_t least,
                    const char* why) {
    if (value && *value < least)
        throw InputError(flag, std::to_string(*value),
                         std::string(why) +
                             "; expected a whole number >= " + std::to_string(least));
}

} // namespace

std::optional<std::int64_t> DimBindings::new_tokens() const {
    if (prefill)
        return prefill;
    if (decode)
        return 1;
    return std::nullopt;
}

std::optional<std::int64_t> DimBindings::cached_tokens() const {
    if (prefill)
        return 0;
    return decode;
}

void check_dim_bindings(const DimBindings& bindings) {
    check_at_least("--batch", bindings.batch, 1, "a batch holds at least one sequence");
    check_at_least("--prefill", bindings.prefill, 1, "a prefill reads at least one new token");
    check_at_least("--decode", bindings.decode, 0, "the cached tokens cannot be negative");
    for (const auto& [name, value] : bindings.names)
        if (value < 0)
            throw InputError("--dim", name + "=" + std::to_string(value),
                             "a dim cannot be negative; expected a whole number >= 0");
    if (bindings.prefill && bindings.decode)
        throw InputError("--prefill", "--decode",
                         "a model is costed for a prefill or for a decode step, not both");
}

std::pair<std::string, std::int64_t> parse_dim_binding(std::string_view spec) {
    const auto equals = spec.rfind('=');
    const auto fail = [&](const std::string& why) -> std::pair<std::string, std::int64_t> {
        throw InputError("--dim", std::string(spec),
                         why + "; expected NAME=VALUE such as sequence_length=128");
    };
    if (equals == std::string_view::npos || equals == 0)
        return fail("no dim name");
    const auto value = whole_number(spec.substr(equals + 1));
    if (!value)
        return fail("'" + std::string(spec.substr(equals + 1)) + "' is not a whole number");
    if (*value < 0)
        return fail("a dim cannot be negative");
    return {std::string(spec.substr(0, equals)), *value};
}

DimBindings parse_dim_bindings_text(std::string_view text) {
    DimBindings bindings;
    std::size_t at = 0;
    while (at < text.size()) {
        const auto end = text.find_first_of(" \t,", at);
        const auto word = text.substr(at, end == std::string_view::npos ? end : end - at);
        at = end == std::string_view::npos ? text.size() : end + 1;
        if (word.empty())
            continue;
        const auto equals = word.find('=');
        const auto key = word.substr(0, equals);
        const auto value =
            equals == std::string_view::npos ? std::nullopt : whole_number(word.substr(equals + 1));
        if (!value || key.empty())
            throw InputError("dims", std::string(word),
                             "expected KEY=VALUE with a whole number, such as decode=1024, "
                             "prefill=512, batch=2 or sequence_length=128");
        if (key == "batch")
            bindings.batch = value;
        else if (key == "prefill")
            bindings.prefill = value;
        else if (key == "decode")
            bindings.decode = value;
        else
            bindings.names[std::string(key)] = *value;
    }
    check_dim_bindings(bindings);
    return bindings;
}

std::string dim_bindings_text(const DimBindings& bindings) {
    std::string text;
    const auto add = [&](const std::string& key, std::int64_t value) {
        text += (text.empty() ? "" : " ") + key + "=" + std::to_string(value);
    };
    if (bindings.batch)
        add("batch", *bindings.batch);
    if (bindings.prefill)
        add("prefill", *bindings.prefill);
    if (bindings.decode)
        add("decode", *bindings.decode);
    for (const auto& [name, value] : bindings.names)
        add(name, value);
    return text;
}

} // namespace cleave::graph
