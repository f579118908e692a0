// Mappings of a model's kernels onto the PEs of a cluster, in the two encodings the DSE uses:
// split points on the kernel order with one PE per segment (split-point encoding, SPE), and any
// kernel-to-PE assignment (naive encoding). PEs are indices into `device::Cluster::pes`.
#pragma once

#include "core/device/cluster.hpp"

#include <string>
#include <vector>

namespace cleave::partition {

// SPE: point j is the number of kernels before the cut (0 < j < K, ascending), so segment s
// holds kernels [points[s-1], points[s]) and runs on pes[s]; pes has one more entry than points.
struct Mapping {
    std::vector<int> points;
    std::vector<int> pes;
};

// Naive encoding: the PE of every kernel, in kernel order.
struct KernelAssignment {
    std::vector<int> pe_of_kernel;
};

// Throws InputError (place `place`) unless the points ascend strictly inside (0, kernel_count)
// and every segment has a PE of a cluster with `pe_count` PEs.
void check_mapping(const Mapping& mapping, int kernel_count, int pe_count,
                   const std::string& place = "--points");

KernelAssignment assignment_of(const Mapping& mapping, int kernel_count);
// The inverse: each run of consecutive kernels on one PE becomes a segment (a PE may come back).
Mapping runs_of(const KernelAssignment& assignment);

// "12,40" and "nx01_gpu,nx02_gpu,nx03_arm012345" as the CLI takes them; PE keys must be the
// cluster's. Throws InputError naming the flag and what was expected.
Mapping parse_mapping(const std::string& points, const std::string& pes,
                      const device::Cluster& cluster, int kernel_count);

} // namespace cleave::partition
