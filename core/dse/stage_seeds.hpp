// How a stage of the multi-stage search starts from the stage before: each of that stage's
// Pareto mappings is carried over as it is (it lies in the larger space too) and also refined onto
// the PEs the stage adds, its longest segments each cut in two where the halves are most even, one
// half moving to an added PE: once by compute time, once by the bytes the segments hold. Stage k
// doubles the PEs, so refining halves the work, or the memory, of the busiest PEs: the refined
// seeds start the larger space near both ends of its front (fast mappings, lean mappings).
#pragma once

#include "mapping_space.hpp"

namespace cleave::dse {

// What "longest" and "even" measure: the compute time of a run of kernels on its PE, or the bytes
// it holds (its kernels' coefficients and the tensors they produce; the same on every PE).
enum class Balance { compute, memory };

// `mapping` uses only the first `from_pes` of space.pes(). Up to to_pes - from_pes of its
// segments of two kernels or more, longest first by `balance`, are each cut at the kernel
// boundary that minimises the larger half by `balance`, one half staying on its PE and the other
// moving to the next of space.pes()[from_pes, to_pes), whichever way round is faster (by compute
// time; for memory, among the cuts that hold equally few bytes). Transfers are not weighed: this
// places seeds, the search then scores them.
partition::Mapping split_longest_segments(const MappingSpace& space,
                                          const partition::Mapping& mapping, int from_pes,
                                          int to_pes, Balance balance = Balance::compute);

} // namespace cleave::dse
