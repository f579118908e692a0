// Writing a user's file so that a crash or a full disk never leaves it half-written: the
// bytes go to a temporary file in the same folder, are flushed, then renamed over the target.
#pragma once

#include <filesystem>
#include <string_view>

namespace cleave {

// Throws InputError naming the path when the folder is missing or not writable.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

} // namespace cleave
