// A model file's bytes, memory-mapped read-only so that weights are never copied: pages that
// nothing reads never become resident.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace cleave::graph {

class MappedFile {
public:
    // Throws InputError naming the path when it is missing, a folder, empty or unreadable.
    explicit MappedFile(const std::filesystem::path& path);
    // Holds a copy of bytes that did not come from a file (tests, fuzzing).
    explicit MappedFile(std::vector<std::uint8_t> bytes);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    std::span<const std::uint8_t> bytes() const { return {data_, size_}; }

private:
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    bool mapped_ = false;
    std::vector<std::uint8_t> owned_;
};

} // namespace cleave::graph
