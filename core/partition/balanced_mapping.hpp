// The mappings the Partition tab opens with and balances to: split points that even out the
// compute of a chosen run of PEs, and the best of those over each host's fastest PE.
#pragma once

#include "core/device/cluster.hpp"
#include "mapping.hpp"
#include "mapping_costs.hpp"

#include <span>
#include <vector>

namespace cleave::partition {

// Split points over `pes` (in this order; `kernel_ms[pe]` the PE's latency per kernel) that make
// the slowest segment's compute time least: a binary search over that time with a greedy fill. A
// PE that would get no kernel is left out. Empty without PEs or kernels.
//
// With `crossing` (MappingCosts::crossing_tensors()), splits go only where the fewest tensors
// cross, between the blocks of a ResNet or a transformer rather than inside one, unless that
// makes the slowest segment more than kBlockSplitSlack slower than splits anywhere would; then
// where at most one more crosses, then two more (a mask every layer reads), then anywhere.
inline constexpr double kBlockSplitSlack = 0.10;
Mapping balanced_mapping(const std::vector<std::vector<double>>& kernel_ms,
                         const std::vector<int>& pes, std::span<const int> crossing = {});

// The mapping a cluster opens with: take the fastest PE (least total latency) of each host, the
// fastest host first; of the balanced mappings over the first n of them (n = 1 .. hosts, split
// between blocks as above), the one with the highest throughput, communication included (ties:
// fewer PEs). PEs with an empty
// `kernel_ms` row have no latencies and are left out; empty when none has them.
Mapping default_mapping(const MappingCosts& costs, const device::Cluster& cluster,
                        const std::vector<std::vector<double>>& kernel_ms);

} // namespace cleave::partition
