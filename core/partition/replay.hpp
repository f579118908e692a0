// Beyond the paper's sums: a replay of a mapping that runs the kernel DAG as events over PEs
// and links for a stream of inputs (CDMPP's replayer idea), giving end-to-end latency and
// throughput with contention; and each PE's peak live memory next to the paper's sum. The
// model is in docs/partition.md ("Replay", "Peak-live memory").
#pragma once

#include "mapping.hpp"
#include "mapping_costs.hpp"

#include <cstdint>
#include <vector>

namespace cleave::partition {

struct ReplayOptions {
    int inputs = 32;
    double interval_ms = 0; // between arrivals; 0: all queued at once (back to back)
};

struct ReplayPe {
    double compute_ms = 0;  // running kernels
    double busy_ms = 0;     // running kernels, sending or receiving
    double utilisation = 0; // busy_ms / makespan
};

// The network link between two hosts (host_a < host_b, indices into Cluster::hosts).
struct ReplayLink {
    int host_a = -1;
    int host_b = -1;
    int transfers = 0; // over the whole stream
    double busy_ms = 0;
    double utilisation = 0;
};

struct Replay {
    int inputs = 0;
    double interval_ms = 0;
    std::vector<double> latency_ms; // per input: its last op's end - its arrival
    double first_latency_ms = 0;
    double mean_latency_ms = 0;
    double throughput_per_s = 0;   // inputs finished per second over the last half of the stream
    double makespan_ms = 0;        // until the last input finishes
    std::vector<ReplayPe> pes;     // one per cluster PE; unused PEs stay zero
    std::vector<ReplayLink> links; // links that carried a transfer, by host pair
};

// Simulates options.inputs inputs through `assignment` (every kernel's PE must have latencies).
// O(kernels + (runs + transfers) x inputs x log), a run being kernels one PE takes in a row.
Replay replay(const MappingCosts& costs, const KernelAssignment& assignment,
              const ReplayOptions& options = {});
// The same for a split-point mapping (it must pass check_mapping), the same figures as its
// assignment's in O((segments + crossing tensors) x inputs x log).
Replay replay(const MappingCosts& costs, const Mapping& mapping, const ReplayOptions& options = {});

// Per cluster PE, the most bytes it holds at once while running its kernels in order: the
// weights of all its kernels, plus the tensors live at each kernel (its outputs, its inputs, and
// tensors produced or received earlier that a later kernel on it still reads). 0 for unused PEs.
// O(PEs x kernels + crossing tensors x their readers).
std::vector<std::int64_t> peak_live_bytes(const MappingCosts& costs,
                                          const KernelAssignment& assignment);

} // namespace cleave::partition
