#include "atomic_file.hpp"

#include "input_error.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cleave {

namespace {

// A new empty file beside `path` (its name in `pattern`), open; InputError naming `path` when the
// folder is missing or not writable.
int create_temporary_beside(const std::filesystem::path& path, std::string& pattern) {
    const auto folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    pattern = (folder / ("." + path.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0)
        throw InputError(path.string(), "",
                         std::string("cannot create a file in this folder (") +
                             std::strerror(errno) + ")");
    return fd;
}

} // namespace

void check_file_can_be_written(const std::filesystem::path& path) {
    std::string pattern;
    const int fd = create_temporary_beside(path, pattern);
    ::close(fd);
    ::unlink(pattern.c_str());
}

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
    const auto folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    std::string pattern;
    const int fd = create_temporary_beside(path, pattern);
    auto fail = [&](const char* what) {
        const std::string reason = std::strerror(errno);
        ::close(fd);
        ::unlink(pattern.c_str());
        throw InputError(path.string(), "", std::string(what) + " (" + reason + ")");
    };
    const char* data = contents.data();
    std::size_t left = contents.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fail("cannot write");
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    // Keep the mode of a file being replaced; a new file gets the usual rw-r--r--.
    struct stat existing {};
    const mode_t mode = ::stat(path.c_str(), &existing) == 0 ? existing.st_mode & 07777 : 0644;
    if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0)
        fail("cannot flush");
    if (::close(fd) != 0) {
        ::unlink(pattern.c_str());
        throw InputError(path.string(), "", "cannot close the temporary file");
    }
    if (::rename(pattern.c_str(), path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(pattern.c_str());
        throw InputError(path.string(), "", "cannot replace the file (" + reason + ")");
    }
    // The new name lives in the folder: flush it too, or a power cut can lose the rename. Some
    // file systems cannot flush a folder (EINVAL) or are read-only; then there is nothing to do.
    const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        const bool flushed = ::fsync(dir) == 0 || errno == EINVAL || errno == EROFS;
        const std::string reason = std::strerror(errno);
        ::close(dir);
        if (!flushed)
            throw InputError(path.string(), "",
                             "written, but its folder could not be flushed to disk (" + reason +
                                 ")");
    }
}

} // namespace cleave
