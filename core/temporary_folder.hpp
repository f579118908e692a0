// A private folder under the system's temporary directory, removed with everything in it when
// the object goes: scratch space for work that must leave nothing behind, even when it fails.
#pragma once

#include <filesystem>
#include <string>

namespace cleave {

class TemporaryFolder {
public:
    // `prefix` names it ("cleave-ort" -> /tmp/cleave-ort-XXXXXX). Throws std::runtime_error when
    // it cannot be made.
    explicit TemporaryFolder(const std::string& prefix);
    ~TemporaryFolder();
    TemporaryFolder(const TemporaryFolder&) = delete;
    TemporaryFolder& operator=(const TemporaryFolder&) = delete;

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

} // namespace cleave
