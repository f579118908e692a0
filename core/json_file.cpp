#include "json_file.hpp"

#include "input_error.hpp"
#include "xz_codec.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace cleave {

namespace {

std::string read_json_text(const std::string& path, const std::string& expected) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "", "cannot open; expected " + expected);
    std::stringstream bytes;
    bytes << in.rdbuf();
    std::string text = bytes.str();
    return is_xz(text) ? xz_decompress(text, path, expected) : text;
}

template <class Json> Json parse_json_file(const std::string& path, const std::string& expected) {
    const auto text = read_json_text(path, expected);
    try {
        return Json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(path, "byte " + std::to_string(e.byte),
                         "not valid JSON; expected " + expected);
    }
}

} // namespace

nlohmann::json read_json_file(const std::string& path, const std::string& expected) {
    return parse_json_file<nlohmann::json>(path, expected);
}

nlohmann::ordered_json read_ordered_json_file(const std::string& path,
                                              const std::string& expected) {
    return parse_json_file<nlohmann::ordered_json>(path, expected);
}

} // namespace cleave
