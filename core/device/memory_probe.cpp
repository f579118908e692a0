#include "memory_probe.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <thread>

namespace cleave::device {

namespace {

// Summed in vector registers, several at once (Eigen's reduction): a scalar loop would measure
// the core's adds, not the memory (11 GB/s in a 2 MiB buffer where 54 GB/s is there).
double sum_floats(const float* values, std::size_t count) {
    return static_cast<double>(
        Eigen::Map<const Eigen::ArrayXf>(values, static_cast<Eigen::Index>(count)).sum());
}

} // namespace

namespace {

// `threads` threads each sum their share of `words` floats of `buffer` (filling it first where
// asked: each thread its own share, so that its pages are local to it); the sum of all.
double read_shares(float* buffer, std::size_t words, int threads, bool fill) {
    const std::size_t share =
        (words + static_cast<std::size_t>(threads) - 1) / static_cast<std::size_t>(threads);
    std::vector<double> sums(static_cast<std::size_t>(threads));
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
            const std::size_t begin = std::min(words, static_cast<std::size_t>(t) * share);
            const std::size_t count = std::min(words, begin + share) - begin;
            if (fill) // bytes of 1: every float a small normal number, never a denormal
                std::memset(buffer + begin, 1, count * sizeof(float));
            sums[static_cast<std::size_t>(t)] = sum_floats(buffer + begin, count);
        });
    for (auto& w : workers)
        w.join();
    double all = 0;
    for (const auto s : sums)
        all += s;
    return all;
}

// The best of `passes` reads of the first `words` floats of `buffer`, in 1e9 bytes a second; 0
// where a sum came out 0 (so that no pass can be left out, the sums are used).
double best_pass_gbs(float* buffer, std::size_t words, int threads, int passes) {
    double best = 0, all = 0;
    for (int p = 0; p < passes; ++p) {
        const auto start = std::chrono::steady_clock::now();
        all += read_shares(buffer, words, threads, false);
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        if (took.count() > 0)
            best = std::max(best, static_cast<double>(words * sizeof(float)) / took.count() / 1e9);
    }
    return all > 0 ? best : 0;
}

} // namespace

MemoryProbe probe_memory_bandwidth(int threads, std::size_t bytes, int passes) {
    MemoryProbe probe;
    probe.threads = std::max(1, threads);
    probe.passes = std::max(1, passes);
    const std::size_t words = std::max<std::size_t>(bytes / sizeof(float), 8);
    probe.bytes = words * sizeof(float);
    const auto buffer = std::make_unique_for_overwrite<float[]>(words);
    read_shares(buffer.get(), words, probe.threads, true);
    probe.gbs = best_pass_gbs(buffer.get(), words, probe.threads, probe.passes);
    return probe;
}

std::vector<BandwidthPoint> probe_memory_curve(int threads) {
    threads = std::max(1, threads);
    constexpr std::size_t kLargest = std::size_t{512} << 20, kSmallest = std::size_t{4} << 20;
    const std::size_t words = kLargest / sizeof(float);
    const auto buffer = std::make_unique_for_overwrite<float[]>(words);
    read_shares(buffer.get(), words, threads, true); // faulted in once, read in prefixes
    std::vector<BandwidthPoint> curve;
    for (std::size_t bytes = kSmallest; bytes <= kLargest; bytes *= 2) {
        const int passes = static_cast<int>(std::max<std::size_t>(3, kLargest / bytes));
        curve.push_back({static_cast<double>(bytes),
                         best_pass_gbs(buffer.get(), bytes / sizeof(float), threads, passes)});
    }
    return curve;
}

double bandwidth_at(const std::vector<BandwidthPoint>& curve, double bytes) {
    if (curve.empty())
        return 0;
    if (bytes <= curve.front().bytes)
        return curve.front().gbs;
    for (std::size_t i = 1; i < curve.size(); ++i)
        if (bytes <= curve[i].bytes) {
            const auto& a = curve[i - 1];
            const auto& b = curve[i];
            const double f = std::log(bytes / a.bytes) / std::log(b.bytes / a.bytes);
            return a.gbs + f * (b.gbs - a.gbs);
        }
    return curve.back().gbs;
}

} // namespace cleave::device
