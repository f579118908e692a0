// The memory bandwidth this process reaches, measured: what a roofline divides a decode step's
// weights and KV cache by, which Linux does not report (it knows neither the memory's speed nor
// its channels).
#pragma once

#include <cstddef>
#include <vector>

namespace cleave::device {

struct MemoryProbe {
    double gbs = 0;         // the best pass: bytes read / seconds, in 1e9 bytes a second
    int threads = 1;        // each read an equal share
    std::size_t bytes = 0;  // the buffer read in each pass
    int passes = 0;         // timed passes, after one that faults the pages in
};

inline constexpr std::size_t kMemoryProbeBytes = std::size_t{256} << 20;

// `threads` threads each sum their share of a buffer of `bytes` (far larger than any cache by
// default) in vector registers; the best of `passes` passes counts. Reads, as a decode step
// streams its weights and cache. About 0.2 s on a desktop.
MemoryProbe probe_memory_bandwidth(int threads, std::size_t bytes = kMemoryProbeBytes,
                                   int passes = 3);

// The bandwidth of reading `bytes` over and over: a working set that stays in a cache reads faster
// than one streamed from memory, which is what a model whose weights outgrow the caches does on
// every inference.
struct BandwidthPoint {
    double bytes = 0; // the working set
    double gbs = 0;   // 1e9 bytes a second
};

// The probe at working sets of 4 MiB to 512 MiB (each doubling), each read 512 MiB or 3 times:
// where caches end shows without asking the CPU (a virtual machine's CPUID reports caches it
// does not give). About 2 s under a virtual machine, most of it faulting in the 512 MiB once.
std::vector<BandwidthPoint> probe_memory_curve(int threads);

// The curve's bandwidth at a working set of `bytes`: interpolated on log(bytes) between its
// points, the first's below it and the last's above. 0 for an empty curve.
double bandwidth_at(const std::vector<BandwidthPoint>& curve, double bytes);

} // namespace cleave::device
