// How a stage of the multi-stage search starts from the stage before: each of that stage's
// Pareto mappings is carried over as it is (it lies in the larger space too) and also refined onto
// the PEs the stage adds, its longest segments each cut in two where the halves' times are most
// even, one half moving to an added PE. Stage k doubles the PEs, so refining halves the work of the
// busiest PEs: the refined seeds start the larger space near where its fast mappings lie.
#pragma once

#include "mapping_space.hpp"

namespace cleave::dse {

// `mapping` uses only the first `from_pes` of space.pes(). Up to to_pes - from_pes of its
// segments of two kernels or more, longest first (compute time on their PE), are each cut at the
// kernel boundary that minimises the larger half's compute time, one half staying on its PE and
// the other moving to the next of space.pes()[from_pes, to_pes), whichever way round is faster.
// Transfers are not weighed: this places seeds, the search then scores them.
partition::Mapping split_longest_segments(const MappingSpace& space,
                                          const partition::Mapping& mapping, int from_pes,
                                          int to_pes);

} // namespace cleave::dse
