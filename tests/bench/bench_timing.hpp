// What every benchmark measures with: the median wall-clock time of a few runs.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
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

} // namespace cleave::bench
