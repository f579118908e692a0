#include "xz_codec.hpp"

#include "input_error.hpp"

#include <array>
#include <cstdint>
#include <lzma.h>
#include <stdexcept>

namespace cleave {

namespace {

// Runs `stream` over `input` to its end; the status lzma_code ended with.
lzma_ret run(lzma_stream& stream, std::string_view input, std::string& out) {
    std::array<std::uint8_t, 1 << 16> buffer{};
    stream.next_in = reinterpret_cast<const std::uint8_t*>(input.data());
    stream.avail_in = input.size();
    lzma_ret status = LZMA_OK;
    while (status == LZMA_OK) {
        stream.next_out = buffer.data();
        stream.avail_out = buffer.size();
        status = lzma_code(&stream, LZMA_FINISH);
        out.append(reinterpret_cast<const char*>(buffer.data()), buffer.size() - stream.avail_out);
    }
    return status;
}

} // namespace

bool is_xz(std::string_view bytes) {
    static constexpr char magic[] = {'\xFD', '7', 'z', 'X', 'Z', '\0'};
    return bytes.size() >= sizeof magic &&
           bytes.substr(0, sizeof magic) == std::string_view(magic, sizeof magic);
}

std::string xz_compress(std::string_view bytes) {
    lzma_stream stream = LZMA_STREAM_INIT;
    if (lzma_easy_encoder(&stream, 6, LZMA_CHECK_CRC64) != LZMA_OK)
        throw std::runtime_error("cannot start the xz encoder");
    std::string out;
    const lzma_ret status = run(stream, bytes, out);
    lzma_end(&stream);
    if (status != LZMA_STREAM_END)
        throw std::runtime_error("xz encoder failed (lzma status " + std::to_string(status) + ")");
    return out;
}

std::string xz_decompress(std::string_view compressed, const std::string& path,
                          const std::string& expected) {
    if (!is_xz(compressed))
        throw InputError(path, "byte 0",
                         "not valid xz: the file does not start with xz's magic bytes "
                         "(fd 37 7a 58 5a 00); expected " +
                             expected);
    lzma_stream stream = LZMA_STREAM_INIT;
    if (lzma_stream_decoder(&stream, UINT64_MAX, 0) != LZMA_OK)
        throw std::runtime_error("cannot start the xz decoder");
    std::string out;
    const lzma_ret status = run(stream, compressed, out);
    const auto consumed = stream.total_in;
    lzma_end(&stream);
    if (status != LZMA_STREAM_END)
        throw InputError(path, "byte " + std::to_string(consumed),
                         "not valid xz: the stream is corrupt or truncated; expected " + expected);
    return out;
}

} // namespace cleave
