#include "gzip_codec.hpp"

#include "input_error.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <zlib.h>

namespace cleave {

namespace {

constexpr int kGzipOnly = 16 + MAX_WBITS; // inflate's window bits for a gzip header and trailer

// Frees the inflate state however decompression ends.
struct Inflater {
    z_stream stream{};
    Inflater() {
        if (inflateInit2(&stream, kGzipOnly) != Z_OK)
            throw std::runtime_error("cannot start the gzip decoder");
    }
    ~Inflater() { inflateEnd(&stream); }
    Inflater(const Inflater&) = delete;
    Inflater& operator=(const Inflater&) = delete;
};

} // namespace

bool is_gzip(std::string_view bytes) {
    return bytes.size() >= 2 && bytes[0] == '\x1F' && bytes[1] == '\x8B';
}

std::string gzip_decompress(std::string_view compressed, const std::string& path,
                            const std::string& expected) {
    const auto fail = [&](std::size_t at, const std::string& why) {
        throw InputError(path, "byte " + std::to_string(at),
                         "not valid gzip: " + why + "; expected " + expected);
    };
    if (!is_gzip(compressed))
        fail(0, "the file does not start with gzip's magic bytes (1f 8b)");
    Inflater inflater;
    z_stream& stream = inflater.stream;
    std::array<unsigned char, 1 << 16> buffer{};
    std::string out;
    std::size_t consumed = 0; // bytes of `compressed` inflate has taken
    int status = Z_OK;
    while (true) {
        // zlib counts in 32 bits: a larger file is fed a slice at a time.
        const std::size_t slice = std::min<std::size_t>(compressed.size() - consumed, UINT_MAX);
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data() + consumed));
        stream.avail_in = static_cast<uInt>(slice);
        stream.next_out = buffer.data();
        stream.avail_out = buffer.size();
        status = inflate(&stream, Z_NO_FLUSH);
        out.append(reinterpret_cast<const char*>(buffer.data()), buffer.size() - stream.avail_out);
        consumed += slice - stream.avail_in;
        if (status == Z_STREAM_END) {
            if (consumed == compressed.size())
                return out;
            // Another member follows (gzip -c a b > ab.gz, or pigz's output).
            if (!is_gzip(compressed.substr(consumed)))
                fail(consumed, "bytes after the end of the stream that start no gzip member");
            inflateReset(&stream);
            continue;
        }
        if (status == Z_BUF_ERROR && consumed == compressed.size())
            fail(consumed, "the stream is truncated");
        if (status != Z_OK && status != Z_BUF_ERROR)
            fail(consumed, std::string("the stream is corrupt (") +
                               (stream.msg ? stream.msg : "zlib status " + std::to_string(status)) +
                               ")");
    }
}

} // namespace cleave
