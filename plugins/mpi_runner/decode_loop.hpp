// A language model's generation across the ranks (`run-partition DIR --prompt-tokens P --generate
// N --sequences S`): each sequence's prefill of P tokens, then decode steps, token by token, until
// N tokens are made. Each rank's engine keeps the key/value caches of its own layers between steps
// (KeptState); the rank making the logits picks the next token by greedy argmax and sends it to
// the ranks reading input_ids. Sequences interleave step by step, so with several in flight the
// stages overlap. Rank 0 then runs the whole model under teacher forcing (the tokens the ranks
// made fed back) and compares the logits of every step. Internal to the mpi runner plugin.
#pragma once

#include "rank_plan.hpp"

#include <nlohmann/json.hpp>
#include <optional>

namespace cleave::autodice {

struct DecodeOutcome {
    RankStats stats;
    double wall_ms = 0;                 // rank 0: from the start to the last token
    nlohmann::ordered_json summary;     // rank 0: the summary's "decode" object
    std::optional<double> max_abs_diff; // rank 0, with the check: over every step's logits
};

// Throws InputError for a model that is no decoder the loop can feed (no logits output, an input
// it cannot make, a cache read on one rank and written on another).
DecodeOutcome run_decode(const PartitionRunOptions& options, RankPlan& plan, RankEngine& engine,
                         RankEngine* whole, int rank, Watchdog& watchdog);

} // namespace cleave::autodice
