// A language-model decoder's NSGA-II search held to its layers (docs/dse.md, "A decoder's
// layers"): the mappings the exact plans range over (contiguous layer ranges, each taking host one
// stage on one of its PEs, under the exact plans' memory count), searched by the multi-stage
// NSGA-II, so that its front stands beside the exact optima (partition/decoder_plans.hpp) and
// shows how close the search comes.
#pragma once

#include "core/partition/decoder_plans.hpp"
#include "mapping_space.hpp"
#include "nsga2_search.hpp"

#include <memory>
#include <vector>

namespace cleave::dse {

struct DecoderSpace {
    partition::LayerPlanInput input;
    std::unique_ptr<MappingSpace> space;
};

// The context's usable PEs, each host's fastest on the decode step first, those hosts fastest
// first (so that stage k, on the first 2^k PEs, maps onto 2^k hosts), then the hosts' other PEs;
// the space held to the decoder's layers, its memory the exact plans' (no pool capacity is left
// to the kernels' count), its objectives `objectives` (the latency is the time per output token).
DecoderSpace decoder_space(const partition::DecoderPlanContext& context, ObjectiveSet objectives);

// The search's best plans by the two objectives the exact plans solve: least time per output
// token and least slowest stage, each the front's feasible mapping best by it (nullopt when the
// front is empty), with every figure (partition::decoder_plan). Rules "nsga2-time-per-token" and
// "nsga2-bottleneck".
struct DecoderFrontPlans {
    std::vector<partition::DecoderPlan> front; // every front mapping, by time per token
    std::optional<partition::DecoderPlan> fastest;
    std::optional<partition::DecoderPlan> widest;
};
DecoderFrontPlans decoder_front_plans(const partition::DecoderPlanContext& context,
                                      const DecoderSpace& space,
                                      const std::vector<Solution>& front);

} // namespace cleave::dse
