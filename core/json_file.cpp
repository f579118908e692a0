#include "json_file.hpp"

#include "input_error.hpp"

#include <array>
#include <cstdint>
#include <fstream>
#include <lzma.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace cleave {

namespace {

bool is_xz(const std::string& bytes) {
    static const char magic[] = {'\xFD', '7', 'z', 'X', 'Z', '\0'};
    return bytes.size() >= sizeof magic && bytes.compare(0, sizeof magic, magic, sizeof magic) == 0;
}

std::string decompress_xz(const std::string& compressed, const std::string& path,
                          const std::string& expected) {
    lzma_stream stream = LZMA_STREAM_INIT;
    if (lzma_stream_decoder(&stream, UINT64_MAX, 0) != LZMA_OK)
        throw std::runtime_error("cannot start the xz decoder");
    std::string out;
    std::array<std::uint8_t, 1 << 16> buffer{};
    stream.next_in = reinterpret_cast<const std::uint8_t*>(compressed.data());
    stream.avail_in = compressed.size();
    lzma_ret status = LZMA_OK;
    while (status == LZMA_OK) {
        stream.next_out = buffer.data();
        stream.avail_out = buffer.size();
        status = lzma_code(&stream, LZMA_FINISH);
        out.append(reinterpret_cast<const char*>(buffer.data()), buffer.size() - stream.avail_out);
    }
    const auto consumed = stream.total_in;
    lzma_end(&stream);
    if (status != LZMA_STREAM_END)
        throw InputError(path, "byte " + std::to_string(consumed),
                         "the xz stream is corrupt or truncated; expected " + expected);
    return out;
}

} // namespace

namespace {

std::string read_json_text(const std::string& path, const std::string& expected) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "", "cannot open; expected " + expected);
    std::stringstream bytes;
    bytes << in.rdbuf();
    std::string text = bytes.str();
    return is_xz(text) ? decompress_xz(text, path, expected) : text;
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
