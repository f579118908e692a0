#include "child_process.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <poll.h>
#include <spawn.h>
#include <stdexcept>
#include <string_view>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace cleave {

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::filesystem::path& log,
                           const std::vector<std::string>& extra_env,
                           const std::vector<std::string>& unset)
    : name_(argv.size() > 1 ? std::filesystem::path(argv[1]).filename().string()
                            : std::filesystem::path(argv.at(0)).filename().string()),
      log_(log) {
    int down[2], up[2];
    if (pipe2(down, O_CLOEXEC) != 0)
        throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
    if (pipe2(up, O_CLOEXEC) != 0) {
        close(down[0]);
        close(down[1]);
        throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, down[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, up[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<char*> env;
    for (char** e = environ; *e; ++e) {
        const std::string_view entry(*e);
        const bool dropped = std::any_of(unset.begin(), unset.end(), [&](const std::string& n) {
            return entry.starts_with(n + "=");
        });
        if (!dropped)
            env.push_back(*e);
    }
    for (const auto& e : extra_env)
        env.push_back(const_cast<char*>(e.c_str()));
    env.push_back(nullptr);
    const int spawned =
        posix_spawn(&pid_, argv[0].c_str(), &actions, nullptr, args.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    close(down[0]);
    close(up[1]);
    to_ = down[1];
    from_ = up[0];
    if (spawned != 0) {
        pid_ = -1;
        close(to_);
        close(from_);
        to_ = from_ = -1;
        throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(spawned));
    }
    // A child that dies must not kill this process with SIGPIPE on the next write.
    std::signal(SIGPIPE, SIG_IGN);
}

ChildProcess::~ChildProcess() {
    if (to_ >= 0)
        close(to_);
    if (from_ >= 0)
        close(from_);
    if (pid_ > 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
}

void ChildProcess::write(const void* data, std::size_t size, const std::string& doing) {
    const auto* bytes = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(to_, bytes, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fail(doing, "the process stopped reading");
        bytes += n;
        size -= static_cast<std::size_t>(n);
    }
}

void ChildProcess::write(const std::vector<std::span<const std::byte>>& pieces,
                         const std::string& doing) {
    std::vector<iovec> left;
    for (const auto& piece : pieces)
        if (!piece.empty())
            left.push_back({const_cast<std::byte*>(piece.data()), piece.size()});
    std::size_t first = 0;
    while (first < left.size()) {
        const int count = static_cast<int>(std::min<std::size_t>(left.size() - first, IOV_MAX));
        const ssize_t n = ::writev(to_, left.data() + first, count);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fail(doing, "the process stopped reading");
        auto done = static_cast<std::size_t>(n);
        while (done > 0 && done >= left[first].iov_len)
            done -= left[first++].iov_len;
        if (done > 0) {
            left[first].iov_base = static_cast<char*>(left[first].iov_base) + done;
            left[first].iov_len -= done;
        }
    }
}

bool ChildProcess::fill(const std::string& doing) {
    if (start_ > 0) {
        buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(start_));
        start_ = 0;
    }
    const std::size_t old = buffer_.size();
    buffer_.resize(old + 65536);
    ssize_t n;
    do
        n = ::read(from_, buffer_.data() + old, 65536);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        fail(doing, std::string("read: ") + std::strerror(errno));
    buffer_.resize(old + static_cast<std::size_t>(n));
    return n > 0;
}

std::string ChildProcess::read_line(const std::string& doing) {
    while (true) {
        const auto begin = buffer_.begin() + static_cast<std::ptrdiff_t>(start_);
        const auto newline = std::find(begin, buffer_.end(), '\n');
        if (newline != buffer_.end()) {
            std::string line(begin, newline);
            start_ = static_cast<std::size_t>(newline - buffer_.begin()) + 1;
            return line;
        }
        if (!fill(doing))
            fail(doing, "the process ended");
    }
}

void ChildProcess::read(void* data, std::size_t size, const std::string& doing) {
    auto* out = static_cast<char*>(data);
    // What was read ahead first, then straight into `data`.
    const std::size_t ahead = std::min(size, buffer_.size() - start_);
    std::memcpy(out, buffer_.data() + start_, ahead);
    start_ += ahead;
    out += ahead;
    size -= ahead;
    while (size > 0) {
        const ssize_t n = ::read(from_, out, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fail(doing, n == 0 ? "the process ended" : std::string("read: ") + std::strerror(errno));
        out += n;
        size -= static_cast<std::size_t>(n);
    }
}

bool ChildProcess::readable(int timeout_ms) {
    if (start_ < buffer_.size())
        return true;
    pollfd fd{from_, POLLIN, 0};
    int n;
    do
        n = ::poll(&fd, 1, timeout_ms);
    while (n < 0 && errno == EINTR);
    return n != 0;
}

int ChildProcess::finish() {
    if (to_ >= 0)
        close(to_);
    to_ = -1;
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void ChildProcess::fail(const std::string& doing, const std::string& what) const {
    std::ifstream in(log_);
    std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (log.size() > 2000)
        log = "..." + log.substr(log.size() - 2000);
    throw std::runtime_error(name_ + " could not " + doing + ": " + what +
                             (log.empty() ? "" : "; it wrote: " + log));
}

} // namespace cleave
