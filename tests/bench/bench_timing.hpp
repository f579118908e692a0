// What every benchmark measures with: the median wall-clock time of a few runs, and whole
// processes with their peak memory.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace cleave::bench {

inline double median_seconds(int repeat, const std::function<void()>& run) {
    std::vector<double> seconds;
    for (int r = 0; r < repeat; ++r) {
        const auto start = std::chrono::steady_clock::now();
        run();
        seconds.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(seconds.begin(), seconds.end());
    return seconds[seconds.size() / 2];
}

struct ProcessSample {
    double seconds = 0;
    double peak_rss_mb = 0;
};

// Runs argv with stdout (and with `quiet`, stderr) to /dev/null; wall time and the child's own
// peak RSS. Throws when it fails.
inline ProcessSample run_process(const std::vector<std::string>& argv, bool quiet = false) {
    const auto start = std::chrono::steady_clock::now();
    std::fflush(stdout); // or the child flushes our buffered lines a second time
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (!std::freopen("/dev/null", "w", stdout) ||
            (quiet && !std::freopen("/dev/null", "w", stderr)))
            _exit(126);
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        ::execv(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    struct rusage usage {};
    ::wait4(pid, &status, 0, &usage);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::string command;
        for (const auto& a : argv)
            command += (command.empty() ? "" : " ") + a;
        throw std::runtime_error("command failed: " + command);
    }
    return {seconds, static_cast<double>(usage.ru_maxrss) / 1024.0};
}

// The sample of median time, with the largest peak RSS of them all.
inline ProcessSample median(std::vector<ProcessSample> samples) {
    std::sort(samples.begin(), samples.end(),
              [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
    ProcessSample m = samples[samples.size() / 2];
    for (const auto& s : samples)
        m.peak_rss_mb = std::max(m.peak_rss_mb, s.peak_rss_mb);
    return m;
}

} // namespace cleave::bench
