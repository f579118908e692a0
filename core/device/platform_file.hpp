// AutoDiCE's platform.txt: one host a line, `nx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)`, or a
// bare host name; '#' starts a comment. Read with errors naming the file and line, and written
// back in the same form.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cleave::device {

struct Slots {
    int first = 0;
    int last = 0;
    int count() const { return last - first + 1; }
    bool operator==(const Slots&) const = default;
};

struct PlatformGpu {
    std::string arch; // "NVIDIAVolta"
    std::string api;  // "CUDA"; may be empty
    bool operator==(const PlatformGpu&) const = default;
};

struct PlatformHost {
    int line = 0; // in the file it was read from; 0 when made in memory
    std::string host;
    std::string arch;                // "arm", "x86"; empty for a bare host name
    std::optional<Slots> slot_range; // `slots=FIRST-LAST` (not `slots`: a Qt keyword)
    std::optional<PlatformGpu> gpu;
    bool bare() const { return arch.empty(); }
};

struct PlatformFile {
    std::string file;
    std::vector<PlatformHost> hosts;
};

// The longest host name, Linux's HOST_NAME_MAX: a host's PE keys name the files of its
// sub-models in an exported package.
inline constexpr std::size_t kMaxHostNameLength = 64;

// Host names: letters, digits, '-' and '.'; not '_', which joins host and resource in AutoDiCE's
// keys ("nx01_gpu"); at most kMaxHostNameLength characters.
bool valid_host_name(const std::string& host);
// The message for a host name longer than kMaxHostNameLength.
std::string host_name_too_long(const std::string& host);

// Throws InputError(file, "line N", expected) at the first bad line.
PlatformFile parse_platform_file(const std::string& text, const std::string& file);
PlatformFile load_platform_file(const std::string& path);

std::string platform_file_text(const PlatformFile& platform);
// Written atomically.
void save_platform_file(const PlatformFile& platform, const std::string& path);

} // namespace cleave::device
