#include "json_reader.hpp"

#include "input_error.hpp"

#include <cmath>
#include <cstdio>

namespace cleave {

using nlohmann::json;

namespace {
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

const json* JsonReader::object(const json& parent, const std::string& pointer,
                               const std::string& key, bool required,
                               const std::string& expected) const {
    const json* value = member(parent, pointer, key, required, expected);
    if (value && !value->is_object())
        fail(child_pointer(pointer, key),
             "expected " + expected + ", found " + std::string(value->type_name()));
    return value;
}

const json* JsonReader::array(const json& parent, const std::string& pointer,
                              const std::string& key, bool required,
                              const std::string& expected) const {
    const json* value = member(parent, pointer, key, required, expected);
    if (value && !value->is_array())
        fail(child_pointer(pointer, key),
             "expected " + expected + ", found " + std::string(value->type_name()));
    return value;
}

std::string JsonReader::string(const json& object, const std::string& pointer,
                               const std::string& key, bool required,
                               const std::string& expected) const {
    const json* value = member(object, pointer, key, required, expected);
    if (!value)
        return {};
    if (!value->is_string())
        fail(child_pointer(pointer, key),
             "expected " + expected + ", found " + std::string(value->type_name()));
    if (value->get<std::string>().empty())
        fail(child_pointer(pointer, key), "expected " + expected + ", found an empty string");
    return value->get<std::string>();
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
    const std::string expected =
        "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
    const json* value = member(object, pointer, key, required, expected);
    if (!value)
        return std::nullopt;
    if (!value->is_number_integer())
        fail(child_pointer(pointer, key),
             "expected " + expected + ", found " +
                 (value->is_number() ? value->dump() : std::string(value->type_name())));
    const auto v = value->get<std::int64_t>();
    if (v < min || v > max)
        fail(child_pointer(pointer, key), "expected " + expected + ", found " + value->dump());
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
