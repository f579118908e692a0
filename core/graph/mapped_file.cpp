#include "mapped_file.hpp"

#include "../input_error.hpp"
#include "model_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cleave::graph {

MappedFile::MappedFile(const std::filesystem::path& path) {
    const std::string name = path.string();
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) {
        const auto other = existing_model_file(path);
        throw InputError(name, "",
                         "no such file; expected an ONNX model file" +
                             (other.empty() ? "" : " (" + other.string() + " is there)"));
    }
    if (std::filesystem::is_directory(status))
        throw InputError(name, "", "is a directory; expected an ONNX model file");
    const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw InputError(name, "", std::string("cannot open (") + std::strerror(errno) + ")");
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        throw InputError(name, "", "not a regular file; expected an ONNX model file");
    }
    if (info.st_size == 0) {
        ::close(fd);
        throw InputError(name, "", "the file is empty (0 bytes); expected an ONNX model");
    }
    size_ = static_cast<std::size_t>(info.st_size);
    void* address = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (address == MAP_FAILED)
        throw InputError(name, "",
                         std::string("cannot map the file (") + std::strerror(errno) + ")");
    data_ = static_cast<const std::uint8_t*>(address);
    mapped_ = true;

    const auto compression = model_compression(path, bytes());
    if (compression == ModelCompression::none)
        return;
    try {
        owned_ = unpack_model(compression, bytes(), name);
    } catch (...) {
        unmap();
        throw;
    }
    unmap();
    data_ = reinterpret_cast<const std::uint8_t*>(owned_.data());
    size_ = owned_.size();
    unpacked_ = true;
    if (size_ == 0)
        throw InputError(name, "", "unpacks to nothing (0 bytes); expected an ONNX model");
}

MappedFile::MappedFile(std::vector<std::uint8_t> bytes) : owned_(bytes.begin(), bytes.end()) {
    data_ = reinterpret_cast<const std::uint8_t*>(owned_.data());
    size_ = owned_.size();
}

MappedFile::~MappedFile() {
    unmap();
}

void MappedFile::unmap() {
    if (mapped_)
        ::munmap(const_cast<std::uint8_t*>(data_), size_);
    mapped_ = false;
}

} // namespace cleave::graph
