// Writes gzip streams in tests (Cleave itself only reads them), as `gzip -c` would.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <zlib.h>

namespace cleave::test {

inline std::string gzip(std::string_view bytes) {
    z_stream stream{};
    if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("cannot start the gzip encoder");
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream.avail_in = static_cast<uInt>(bytes.size());
    std::array<unsigned char, 1 << 16> buffer{};
    std::string out;
    int status = Z_OK;
    while (status == Z_OK) {
        stream.next_out = buffer.data();
        stream.avail_out = buffer.size();
        status = deflate(&stream, Z_FINISH);
        out.append(reinterpret_cast<const char*>(buffer.data()), buffer.size() - stream.avail_out);
    }
    deflateEnd(&stream);
    if (status != Z_STREAM_END)
        throw std::runtime_error("gzip encoder failed");
    return out;
}

} // namespace cleave::test
