// gzip (RFC 1952) streams in memory: the other compressed form a model file takes (.onnx.gz),
// told from plain bytes by its magic bytes.
#pragma once

#include <string>
#include <string_view>

namespace cleave {

bool is_gzip(std::string_view bytes);

// Every member of the stream, one after the other, as the gzip tool unpacks them. Throws
// InputError(path, "byte N", "not valid gzip: ...") for a corrupt or truncated stream;
// `expected` says what the file should have been.
std::string gzip_decompress(std::string_view compressed, const std::string& path,
                            const std::string& expected);

} // namespace cleave
