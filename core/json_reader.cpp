#include "json_reader.hpp"

#include "input_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace cleave {

using nlohmann::json;

namespace {
std::string whole_numbers(int min, int max) {
    return max == std::numeric_limits<int>::max()
               ? "a whole number >= " + std::to_string(min)
               : "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
}

// What a wrong value is, for a message: a number as written, anything else by its type.
std::string found(const json& value) {
    return value.is_number() ? value.dump() : std::string(value.type_name());
}

std::string shown(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// nlohmann's own DOM builder, counting the nesting and keeping what went wrong where: the parser
// hands its errors to the builder with their byte, and nlohmann's builder would throw a number
// too large for a double (31e998) as an out_of_range that has lost it.
template <class Json> class PlacedDomBuilder {
public:
    explicit PlacedDomBuilder(Json& root) : dom_(root) {}

    bool null() { return dom_.null(); }
    bool boolean(bool value) { return dom_.boolean(value); }
    bool number_integer(typename Json::number_integer_t value) {
        return dom_.number_integer(value);
    }
    bool number_unsigned(typename Json::number_unsigned_t value) {
        return dom_.number_unsigned(value);
    }
    bool number_float(typename Json::number_float_t value, const typename Json::string_t& text) {
        return dom_.number_float(value, text);
    }
    bool string(typename Json::string_t& value) { return dom_.string(value); }
    bool binary(typename Json::binary_t& value) { return dom_.binary(value); }
    bool start_object(std::size_t size) { return deeper() && dom_.start_object(size); }
    bool key(typename Json::string_t& value) { return dom_.key(value); }
    bool end_object() {
        --depth_;
        return dom_.end_object();
    }
    bool start_array(std::size_t size) { return deeper() && dom_.start_array(size); }
    bool end_array() {
        --depth_;
        return dom_.end_array();
    }
    template <class Exception>
    bool parse_error(std::size_t byte, const std::string& token, const Exception& error) {
        byte_ = byte;
        token_ = token;
        error_id_ = error.id;
        return false;
    }

    bool too_deep() const { return too_deep_; }
    std::size_t byte() const { return byte_; }
    const std::string& token() const { return token_; }
    bool number_overflow() const { return error_id_ == kNumberOverflow; }

private:
    static constexpr int kNumberOverflow = 406; // nlohmann's out_of_range.406

    bool deeper() {
        too_deep_ = ++depth_ > kMaxJsonDepth;
        return !too_deep_;
    }

    nlohmann::detail::json_sax_dom_parser<Json> dom_;
    int depth_ = 0;
    bool too_deep_ = false;
    std::size_t byte_ = 0;
    std::string token_;
    int error_id_ = 0;
};

// The byte after the first bracket nested deeper than kMaxJsonDepth (brackets in strings do not
// count): the parser stops there without saying where.
std::size_t too_deep_at(const std::string& text) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                return i + 1;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return text.size();
}

// `read`: the bytes the parser had read when it stopped, the last of them the one at fault.
std::string text_place(const std::string& text, std::size_t read, JsonReader::TextPlace style) {
    if (style == JsonReader::TextPlace::byte)
        return "byte " + std::to_string(read);
    const std::size_t byte = std::min(read == 0 ? 0 : read - 1, text.size());
    const auto line =
        1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte), '\n');
    const auto start = text.rfind('\n', byte == 0 ? 0 : byte - 1);
    const auto column = start == std::string::npos || byte == 0 ? byte : byte - start - 1;
    return "line " + std::to_string(line) + ", column " + std::to_string(column + 1);
}

template <class Json>
Json parse_text(const std::string& text, const std::string& file, JsonReader::TextPlace style,
                const std::string& expected) {
    Json root;
    PlacedDomBuilder<Json> builder(root);
    if (Json::sax_parse(text, &builder))
        return root;
    if (builder.too_deep())
        throw InputError(file, text_place(text, too_deep_at(text), style),
                         "arrays and objects nested more than " + std::to_string(kMaxJsonDepth) +
                             " deep; expected " + expected);
    const std::string place = text_place(text, builder.byte(), style);
    if (builder.number_overflow())
        throw InputError(file, place,
                         "the number " + builder.token() + " is too large for a double; expected " +
                             expected);
    throw InputError(file, place, "not valid JSON; expected " + expected);
}
} // namespace

std::string child_pointer(const std::string& pointer, const std::string& key) {
    std::string escaped;
    for (const char c : key) {
        if (c == '~')
            escaped += "~0";
        else if (c == '/')
            escaped += "~1";
        else
            escaped += c;
    }
    return pointer + "/" + escaped;
}

std::string child_pointer(const std::string& pointer, std::size_t index) {
    return pointer + "/" + std::to_string(index);
}

void rethrow_under(const InputError& error, const std::string& file, const std::string& pointer) {
    const std::string place = error.place() == "/" ? "" : error.place();
    throw InputError(file, pointer + place, error.problem());
}

void JsonReader::fail(const std::string& pointer, const std::string& problem) const {
    throw InputError(file_, pointer.empty() ? "/" : pointer, problem);
}

json JsonReader::parse(const std::string& text, const std::string& expected) const {
    return parse_text<json>(text, file_, text_place_, expected);
}

nlohmann::ordered_json JsonReader::parse_ordered(const std::string& text,
                                                 const std::string& expected) const {
    return parse_text<nlohmann::ordered_json>(text, file_, text_place_, expected);
}

const json* JsonReader::member(const json& object, const std::string& pointer,
                               const std::string& key, bool required,
                               const std::string& expected) const {
    const auto it = object.find(key);
    if (it != object.end())
        return &*it;
    if (required)
        fail(pointer, "missing \"" + key + "\"; expected " + expected);
    return nullptr;
}

const json* JsonReader::typed(const json& parent, const std::string& pointer,
                              const std::string& key, bool required, const std::string& expected,
                              json::value_t type) const {
    const json* value = member(parent, pointer, key, required, expected);
    if (value && value->type() != type)
        fail(child_pointer(pointer, key),
             "expected " + expected + ", found " + std::string(value->type_name()));
    return value;
}

const json* JsonReader::object(const json& parent, const std::string& pointer,
                               const std::string& key, bool required,
                               const std::string& expected) const {
    return typed(parent, pointer, key, required, expected, json::value_t::object);
}

const json* JsonReader::array(const json& parent, const std::string& pointer,
                              const std::string& key, bool required,
                              const std::string& expected) const {
    return typed(parent, pointer, key, required, expected, json::value_t::array);
}

std::string JsonReader::string(const json& object, const std::string& pointer,
                               const std::string& key, bool required,
                               const std::string& expected) const {
    const json* value = member(object, pointer, key, required, expected);
    return value ? string_at(*value, child_pointer(pointer, key), expected) : std::string();
}

std::string JsonReader::string_at(const json& value, const std::string& pointer,
                                  const std::string& expected, bool empty_allowed) const {
    if (!value.is_string())
        fail(pointer, "expected " + expected + ", found " + std::string(value.type_name()));
    if (value.get<std::string>().empty() && !empty_allowed)
        fail(pointer, "expected " + expected + ", found an empty string");
    return value.get<std::string>();
}

std::optional<double> JsonReader::number(const json& object, const std::string& pointer,
                                         const std::string& key, bool required,
                                         const std::string& unit, bool zero_allowed) const {
    const std::string expected = std::string("a number ") + (zero_allowed ? ">= 0" : "> 0") +
                                 (unit.empty() ? "" : " (" + unit + ")");
    const json* value = member(object, pointer, key, required, expected);
    if (!value)
        return std::nullopt;
    if (!value->is_number())
        fail(child_pointer(pointer, key),
             "expected " + expected + ", found " + std::string(value->type_name()));
    const double v = value->get<double>();
    if (!std::isfinite(v) || v < 0 || (v == 0 && !zero_allowed))
        fail(child_pointer(pointer, key), "expected " + expected + ", found " + shown(v));
    return v;
}

double JsonReader::finite(const json& object, const std::string& pointer,
                          const std::string& key) const {
    const json* value = member(object, pointer, key, true, "a number");
    if (!value->is_number() || !std::isfinite(value->get<double>()))
        fail(child_pointer(pointer, key),
             "expected a finite number, found " +
                 found(*value));
    return value->get<double>();
}

std::vector<double> JsonReader::finite_numbers(const json& object, const std::string& pointer,
                                               const std::string& key, std::size_t count,
                                               const std::string& expected) const {
    const json* value = member(object, pointer, key, true, std::to_string(count) + " numbers");
    return finite_numbers_at(*value, child_pointer(pointer, key), count, expected);
}

std::vector<double> JsonReader::finite_numbers_at(const json& value, const std::string& pointer,
                                                  std::size_t count,
                                                  const std::string& expected) const {
    const std::string what = std::to_string(count) + " numbers, " + expected;
    if (!value.is_array())
        fail(pointer, "expected " + what + ", found " + std::string(value.type_name()));
    if (value.size() != count)
        fail(pointer, "expected " + what + ", found " + std::to_string(value.size()));
    std::vector<double> numbers;
    for (std::size_t i = 0; i < count; ++i) {
        const auto& v = value[i];
        if (!v.is_number() || !std::isfinite(v.get<double>()))
            fail(child_pointer(pointer, i),
                 "expected a finite number, found " +
                     found(v));
        numbers.push_back(v.get<double>());
    }
    return numbers;
}

std::optional<bool> JsonReader::boolean(const json& object, const std::string& pointer,
                                        const std::string& key, bool required,
                                        const std::string& expected) const {
    const json* value = member(object, pointer, key, required, expected);
    if (!value)
        return std::nullopt;
    if (!value->is_boolean())
        fail(child_pointer(pointer, key),
             "expected " + expected + ", found " +
                 (value->is_string() ? value->dump() : std::string(value->type_name())));
    return value->get<bool>();
}

std::optional<int> JsonReader::whole_number(const json& object, const std::string& pointer,
                                            const std::string& key, bool required, int min,
                                            int max) const {
    const json* value = member(object, pointer, key, required, whole_numbers(min, max));
    if (!value)
        return std::nullopt;
    return whole_number_at(*value, child_pointer(pointer, key), min, max);
}

int JsonReader::whole_number_at(const json& value, const std::string& pointer, int min,
                                int max) const {
    const std::string expected = whole_numbers(min, max);
    if (!value.is_number_integer())
        fail(pointer, "expected " + expected + ", found " +
                          found(value));
    const auto v = value.get<std::int64_t>();
    if (v < min || v > max)
        fail(pointer, "expected " + expected + ", found " + value.dump());
    return static_cast<int>(v);
}

void JsonReader::expect_object(const json& value, const std::string& pointer,
                               const std::string& expected) const {
    if (!value.is_object())
        fail(pointer, "expected " + expected + ", found " + std::string(value.type_name()));
}

void JsonReader::only_known(const json& object, const std::string& pointer,
                            const std::vector<std::string>& known) const {
    for (const auto& [key, _] : object.items()) {
        bool found = false;
        for (const auto& k : known)
            found = found || k == key;
        if (found)
            continue;
        std::string list;
        for (const auto& k : known)
            list += (list.empty() ? "" : ", ") + k;
        fail(child_pointer(pointer, key), "unknown field; expected one of " + list);
    }
}

} // namespace cleave
