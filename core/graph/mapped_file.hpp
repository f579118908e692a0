// A model file's bytes, memory-mapped read-only so that weights are never copied: pages that
// nothing reads never become resident. A compressed model (.onnx.xz, .onnx.gz: model_file.hpp)
// is unpacked into memory instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace cleave::graph {

class MappedFile {
public:
    // Throws InputError naming the path when it is missing, a folder, empty or unreadable, or
    // compressed and not valid xz or gzip.
    explicit MappedFile(const std::filesystem::path& path);
    // Holds a copy of bytes that did not come from a file (tests, fuzzing).
    explicit MappedFile(std::vector<std::uint8_t> bytes);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
    // Whether the bytes were unpacked from a compressed file: then the file itself is no ONNX.
    bool unpacked() const { return unpacked_; }

private:
    void unmap();

    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    bool mapped_ = false;
    bool unpacked_ = false;
    std::string owned_;
};

} // namespace cleave::graph
