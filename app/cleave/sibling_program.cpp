#include "sibling_program.hpp"

#include "core/input_error.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace cleave::cli {

void run_sibling(const std::string& program, std::vector<std::string> arguments,
                 const std::string& missing) {
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error)
        throw std::runtime_error("cannot find this program's own path: " + error.message());
    const auto path = self.parent_path() / program;
    std::vector<char*> argv;
    for (auto& word : arguments)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    ::execv(path.c_str(), argv.data());
    const int why = errno;
    if (why == ENOENT)
        throw InputError(path.string(), "", missing);
    throw std::runtime_error("cannot run " + path.string() + ": " + std::strerror(why));
}

} // namespace cleave::cli
