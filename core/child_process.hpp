// A helper process driven over pipes: its stdin takes what is written, its stdout is read back
// line by line or a counted number of bytes at a time, and its stderr goes to a log file, quoted
// when it fails. Used for runtimes reachable only as a program of their own (onnxruntime-node).
// Reads block; a process that ends or dies turns the next read into an error naming what was
// being done and the tail of its log. The destructor kills a process still running.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <sys/types.h>
#include <vector>

namespace cleave {

class ChildProcess {
public:
    // Starts argv[0] (a path) with `argv`, this process's environment less the variables named
    // in `unset` plus `extra_env` ("NAME=value"). Throws std::runtime_error when it cannot start.
    ChildProcess(const std::vector<std::string>& argv, const std::filesystem::path& log,
                 const std::vector<std::string>& extra_env = {},
                 const std::vector<std::string>& unset = {});
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Throws std::runtime_error ("... could not <doing>: the process stopped reading") when the
    // process no longer reads.
    void write(const void* data, std::size_t size, const std::string& doing);
    void write(const std::string& text, const std::string& doing) {
        write(text.data(), text.size(), doing);
    }
    // The pieces in order, in as few system calls as the pipe takes (one wake-up of the reader
    // for a request and its tensors, not one per piece).
    void write(const std::vector<std::span<const std::byte>>& pieces, const std::string& doing);
    // One line without its newline; throws when the process ended before one.
    std::string read_line(const std::string& doing);
    // Exactly `size` bytes into `data`; throws when the process ended before.
    void read(void* data, std::size_t size, const std::string& doing);
    // Whether output is there to read (or its end), waiting at most `timeout_ms` for it.
    bool readable(int timeout_ms);
    // Closes its stdin and waits for it to exit; its exit status (-1 if killed by a signal).
    int finish();
    pid_t pid() const { return pid_; }
    const std::filesystem::path& log() const { return log_; }

    [[noreturn]] void fail(const std::string& doing, const std::string& what) const;

private:
    std::string name_; // argv[1] where there is one (a script), else argv[0]
    std::filesystem::path log_;
    pid_t pid_ = -1;
    int to_ = -1;
    int from_ = -1;
    std::vector<char> buffer_; // read ahead of the caller
    std::size_t start_ = 0;    // first unread byte of buffer_
    bool fill(const std::string& doing); // false at the end of its output
};

} // namespace cleave
