// The memory bandwidth this process reaches, measured: what a roofline divides a decode step's
// weights and KV cache by, which Linux does not report (it knows neither the memory's speed nor
// its channels).
#pragma once

#include <cstddef>

namespace cleave::device {

struct MemoryProbe {
    double gbs = 0;         // the best pass: bytes read / seconds, in 1e9 bytes a second
    int threads = 1;        // each read an equal share
    std::size_t bytes = 0;  // the buffer read in each pass
    int passes = 0;         // timed passes, after one that faults the pages in
};

inline constexpr std::size_t kMemoryProbeBytes = std::size_t{256} << 20;

// `threads` threads each sum their share of a buffer of `bytes` (far larger than any cache by
// default), 64 bits at a time in eight independent sums; the best of `passes` passes counts.
// Reads, as a decode step streams its weights and cache. About 0.2 s on a desktop.
MemoryProbe probe_memory_bandwidth(int threads, std::size_t bytes = kMemoryProbeBytes,
                                   int passes = 3);

} // namespace cleave::device
