// How a stage of the multi-stage search starts from the stage before: each of that stage's
// Pareto mappings is carried over as it is (it lies in the larger space too) and also refined onto
// the PEs the stage adds, its longest segments each cut in two where the busier half is least, one
// half moving to an added PE: once by time (compute, and the transfer the cut makes), once by the
// bytes the halves hold. Stage k doubles the PEs, so refining halves the work, or the memory, of
// the busiest PEs: the refined seeds start the larger space near both ends of its front (fast
// mappings, lean mappings).
#pragma once

#include "mapping_space.hpp"

namespace cleave::dse {

// What "longest" and "larger half" measure. compute: a segment's compute time on its PE; a half's,
// plus the transfer of the tensors that cross the cut (both halves' PEs spend it). memory: the
// bytes a run of kernels holds (its kernels' coefficients and the tensors they produce), the
// second half also those it receives across the cut.
enum class Balance { compute, memory };

// `mapping` uses only the first `from_pes` of space.pes(). Up to to_pes - from_pes of its
// segments of two kernels (two layers, held to a decoder's layers) or more, longest first by
// `balance`, are each cut at the kernel (layer) boundary that minimises the larger half by
// `balance`, one half staying on its PE and the other
// moving to the next of space.pes()[from_pes, to_pes), whichever way round is faster (for memory,
// among the cuts that hold equally few bytes). Only the cut's own transfer is weighed, not those
// at the segment's ends: this places seeds, the search then scores them.
partition::Mapping split_longest_segments(const MappingSpace& space,
                                          const partition::Mapping& mapping, int from_pes,
                                          int to_pes, Balance balance = Balance::compute);

} // namespace cleave::dse
