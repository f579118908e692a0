// Balanced device grouping (Arch2End, Case 2): M devices split into G non-empty groups so that
// every group gets about the same total of each feature, i.e. the objective of group_balance.hpp
// is minimised. A local search for any size, and an exact solver for small clusters to check it.
#pragma once

#include "group_balance.hpp"

#include <cstdint>
#include <vector>

namespace cleave::grouping {

struct Grouping {
    std::vector<int> group_of; // device -> group; groups numbered by their first device
    double objective = 0;
};

struct SearchOptions {
    // Descents from random assignments after the one from the greedy start.
    int restarts = 32;
    // Per start, how often its local optimum is kicked (a few random moves) and descended
    // again, keeping the result when it is no worse (iterated local search).
    int kicks = 100;
    int kick_moves = 4;
    std::uint64_t seed = 1;
    // Take the best move or swap of each neighbourhood scan; else the first improving one.
    bool best_improvement = true;
};

struct SearchResult {
    Grouping best;
    int starts = 0;               // 1 + restarts
    int starts_reaching_best = 0; // ended at the best objective (within rounding)
    std::int64_t steps = 0;       // moves and swaps taken over all descents
};

// Largest device first (by its summed normalised features) into the lightest group (smallest
// summed feature totals, then fewest devices), so no group stays empty.
Grouping greedy_grouping(const FeatureMatrix& values, int groups);
// Moves (one device to another group, never emptying one) and swaps (two devices in different
// groups) while one lowers the objective.
Grouping descend(const FeatureMatrix& values, std::vector<int> group_of, int groups,
                 bool best_improvement = true, std::int64_t* steps = nullptr);
// The greedy start and `restarts` random ones (seeded: the same seed gives the same result),
// each descended and kicked; the best local optimum. Requires 1 <= groups <= values.size().
SearchResult balance_local_search(const FeatureMatrix& values, int groups,
                                  const SearchOptions& options = {});

// Largest cluster the exact solver takes.
inline constexpr std::size_t kExactMaxDevices = 14;
// Every partition of the devices into `groups` non-empty unlabelled groups (each visited once:
// a device joins an open group or opens the next), pruned by a lower bound where every feature is
// non-negative: each feature's undistributed total spread over the groups as evenly as it could
// be. Requires 1 <= groups <= values.size() <= kExactMaxDevices.
Grouping balance_exact(const FeatureMatrix& values, int groups);

// Groups renumbered in the order of their first device, so equal partitions compare equal.
std::vector<int> canonical_groups(const std::vector<int>& group_of);

} // namespace cleave::grouping
