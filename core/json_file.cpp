#include "json_file.hpp"

#include "input_error.hpp"
#include "json_reader.hpp"
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

} // namespace

nlohmann::json read_json_file(const std::string& path, const std::string& expected) {
    return JsonReader(path).parse(read_json_text(path, expected), expected);
}

nlohmann::ordered_json read_ordered_json_file(const std::string& path,
                                              const std::string& expected) {
    return JsonReader(path).parse_ordered(read_json_text(path, expected), expected);
}

} // namespace cleave
