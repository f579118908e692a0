// Reading a JSON file field by field, the one way every file Cleave reads is checked (devices,
// clusters, projects, predictors and their models): every wrong field becomes an InputError
// naming the file, the JSON pointer and what was expected there. A part read on its own (a
// regressor's model, which plugins read too) uses a reader with an empty file, and its caller
// places the errors under the part's pointer in the file (rethrow_under).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cleave {

// The deepest nesting of arrays and objects a file may have. No file of Cleave's nests more than
// a few levels, and copying, comparing or writing a value nested without end recurses once per
// level until the stack runs out.
inline constexpr int kMaxJsonDepth = 256;

class JsonReader {
public:
    // How a syntax error's place is told: "byte N", or "line L, column C" for a file read line
    // by line in an editor (a profiling trace).
    enum class TextPlace { byte, line_and_column };

    explicit JsonReader(std::string file, TextPlace text_place = TextPlace::byte)
        : file_(std::move(file)), text_place_(text_place) {}

    const std::string& file() const { return file_; }

    [[noreturn]] void fail(const std::string& pointer, const std::string& problem) const;

    // The whole text as JSON; `expected` says what the file should be ("a device file"). A
    // syntax error, a number too large for a double or nesting deeper than kMaxJsonDepth is
    // an InputError at the byte where it was found.
    nlohmann::json parse(const std::string& text, const std::string& expected) const;
    // The same, keeping the objects' keys in file order.
    nlohmann::ordered_json parse_ordered(const std::string& text,
                                         const std::string& expected) const;

    // The member `key` of `object` (at `pointer`), or nullptr when it is absent and optional.
    const nlohmann::json* member(const nlohmann::json& object, const std::string& pointer,
                                 const std::string& key, bool required,
                                 const std::string& expected) const;

    const nlohmann::json* object(const nlohmann::json& parent, const std::string& pointer,
                                 const std::string& key, bool required,
                                 const std::string& expected) const;
    const nlohmann::json* array(const nlohmann::json& parent, const std::string& pointer,
                                const std::string& key, bool required,
                                const std::string& expected) const;
    // A non-empty string; `expected` says what it names, for the message.
    std::string string(const nlohmann::json& object, const std::string& pointer,
                       const std::string& key, bool required,
                       const std::string& expected = "a string") const;
    // A number > 0, or >= 0 with `zero_allowed`; `unit` goes into the message ("GB/s").
    std::optional<double> number(const nlohmann::json& object, const std::string& pointer,
                                 const std::string& key, bool required, const std::string& unit,
                                 bool zero_allowed = false) const;
    // Any finite number (a weight, an offset), required.
    double finite(const nlohmann::json& object, const std::string& pointer,
                  const std::string& key) const;
    // An array of `count` finite numbers, required; `expected` says what they are ("one per
    // feature").
    std::vector<double> finite_numbers(const nlohmann::json& object, const std::string& pointer,
                                       const std::string& key, std::size_t count,
                                       const std::string& expected) const;
    // true or false; `expected` says what the flag means, for the message.
    std::optional<bool> boolean(const nlohmann::json& object, const std::string& pointer,
                                const std::string& key, bool required,
                                const std::string& expected = "true or false") const;
    // A whole number in [min, max].
    std::optional<int> whole_number(const nlohmann::json& object, const std::string& pointer,
                                    const std::string& key, bool required, int min, int max) const;

    void expect_object(const nlohmann::json& value, const std::string& pointer,
                       const std::string& expected) const;
    // The same checks for a value itself (an array's element) at `pointer`.
    std::string string_at(const nlohmann::json& value, const std::string& pointer,
                          const std::string& expected = "a string",
                          bool empty_allowed = false) const;
    int whole_number_at(const nlohmann::json& value, const std::string& pointer, int min,
                        int max) const;
    std::vector<double> finite_numbers_at(const nlohmann::json& value, const std::string& pointer,
                                          std::size_t count, const std::string& expected) const;
    // Refuses any member not in `known`, naming them.
    void only_known(const nlohmann::json& object, const std::string& pointer,
                    const std::vector<std::string>& known) const;

private:
    // The member `key`, refused (at its pointer) unless of `type`.
    const nlohmann::json* typed(const nlohmann::json& parent, const std::string& pointer,
                                const std::string& key, bool required, const std::string& expected,
                                nlohmann::json::value_t type) const;

    std::string file_;
    TextPlace text_place_;
};

class InputError;

// An error of a part read on its own (a regressor's model, a cluster inside a project) moved
// under `pointer` of `file`.
[[noreturn]] void rethrow_under(const InputError& error, const std::string& file,
                                const std::string& pointer);

// `pointer` + "/" + key, with '~' and '/' escaped as RFC 6901 asks.
std::string child_pointer(const std::string& pointer, const std::string& key);
std::string child_pointer(const std::string& pointer, std::size_t index);

} // namespace cleave
