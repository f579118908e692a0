#include "json_reader.hpp"

#include "input_error.hpp"

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
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        throw InputError(file_, "byte " + std::to_string(e.byte),
                         "not valid JSON; expected " + expected);
    }
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
