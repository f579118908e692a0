// xz (LZMA2) streams in memory: the compressed form of the JSON files Cleave reads and writes
// (predictors, measured data), told from plain text by their magic bytes.
#pragma once

#include <string>
#include <string_view>

namespace cleave {

bool is_xz(std::string_view bytes);

// Preset 6, CRC64 check, as the xz tool writes by default.
std::string xz_compress(std::string_view bytes);

// Throws InputError(path, "byte N", "not valid xz: ...") for bytes that are no xz stream or a
// corrupt or truncated one; `expected` says what the file should have been.
std::string xz_decompress(std::string_view compressed, const std::string& path,
                          const std::string& expected);

} // namespace cleave
