#include "memory_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

namespace cleave::device {

namespace {

std::uint64_t sum_words(const std::uint64_t* words, std::size_t count) {
    std::uint64_t s[8] = {};
    std::size_t i = 0;
    for (; i + 8 <= count; i += 8)
        for (int k = 0; k < 8; ++k)
            s[k] += words[i + static_cast<std::size_t>(k)];
    for (; i < count; ++i)
        s[0] += words[i];
    std::uint64_t total = 0;
    for (const auto v : s)
        total += v;
    return total;
}

} // namespace

MemoryProbe probe_memory_bandwidth(int threads, std::size_t bytes, int passes) {
    MemoryProbe probe;
    probe.threads = std::max(1, threads);
    probe.passes = std::max(1, passes);
    const std::size_t words = std::max<std::size_t>(bytes / sizeof(std::uint64_t), 8);
    probe.bytes = words * sizeof(std::uint64_t);
    const auto buffer = std::make_unique_for_overwrite<std::uint64_t[]>(words);
    const std::size_t share = (words + static_cast<std::size_t>(probe.threads) - 1) /
                              static_cast<std::size_t>(probe.threads);
    std::vector<std::uint64_t> sums(static_cast<std::size_t>(probe.threads));
    // Each thread touches its own share first, so that its pages are local to it.
    const auto run = [&](bool fill) {
        std::vector<std::thread> workers;
        for (int t = 0; t < probe.threads; ++t)
            workers.emplace_back([&, t] {
                const std::size_t begin = std::min(words, static_cast<std::size_t>(t) * share);
                const std::size_t count = std::min(words, begin + share) - begin;
                if (fill)
                    std::memset(buffer.get() + begin, t + 1, count * sizeof(std::uint64_t));
                sums[static_cast<std::size_t>(t)] += sum_words(buffer.get() + begin, count);
            });
        for (auto& w : workers)
            w.join();
    };
    run(true);
    double best = 0;
    for (int p = 0; p < probe.passes; ++p) {
        const auto start = std::chrono::steady_clock::now();
        run(false);
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        if (took.count() > 0)
            best = std::max(best, static_cast<double>(probe.bytes) / took.count() / 1e9);
    }
    // The sums are used, so that no pass can be left out.
    std::uint64_t all = 0;
    for (const auto s : sums)
        all += s;
    probe.gbs = all == 0 ? 0 : best;
    return probe;
}

} // namespace cleave::device
