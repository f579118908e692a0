// Writing a user's file so that a crash or a full disk never leaves it half-written: the
// bytes go to a temporary file in the same folder, are flushed, then renamed over the target.
#pragma once

#include <filesystem>
#include <string_view>

namespace cleave {

// Throws InputError naming the path when the folder is missing or not writable.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

// Throws the InputError write_file_atomically would throw for the folder of `path`, before any
// work: a command that works for minutes and then writes checks where it will write first.
void check_file_can_be_written(const std::filesystem::path& path);

} // namespace cleave
