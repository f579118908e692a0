// How consistent measured runs are with one another, before any predictor is trained: kernels
// a predictor cannot tell apart (the same cost class and every kernel feature equal: same op,
// shapes, fused ops) should take the same time in every run of one device. Where they do not, no
// predictor that sees kernels can do better than the data allows. The floor: an oracle that
// predicts each kernel of a run as the median time of its twins in the other runs of the device,
// knows the time of every kernel that has no twin elsewhere exactly, and keeps the run's measured
// time outside its kernels; its end-to-end error comes only from runs disagreeing about identical
// kernels, and a predictor scored on runs it never saw cannot know more than the other runs say.
#pragma once

#include "predictor_training.hpp"

#include <string>
#include <vector>

namespace cleave::predict {

struct RunConsistency {
    const RunData* run = nullptr;
    double twin_share = 0;   // of the run's timed kernel time, kernels with a twin in another run
    double speed_factor = 1; // its kernels against their twins' medians elsewhere (time-weighted,
                             // geometric)
    double oracle_error = 0; // (oracle e2e - measured e2e) / measured e2e
};

struct ConsistencySummary {
    std::vector<RunConsistency> runs;
    int timed_kernels = 0;
    int distinct_kernels = 0; // distinct (class, features) among them
    double oracle_mape = 0;   // mean |oracle_error| over runs
};

// `runs`: one device's runs (one thread count). Kernels are the runs' timed samples.
ConsistencySummary run_consistency(const std::vector<const RunData*>& runs);

// The same question end to end, for runs whose time barely depends on the input size (PyTorch
// eager at batch 1, bound by the host's launches): a model's runs at its other input sizes are
// its twins. Two oracles, each knowing every model's measured times: one predicts a run by the
// median of the same model's runs at other sizes; the other gives each model the one time that
// fits all its runs best (in hindsight: the minimum of their absolute percentage errors), the
// floor of any predictor whose answer does not move with the input size.
struct SizeConsistency {
    int runs = 0;   // runs of models measured at more than one size
    int models = 0; // such models
    double other_sizes_mape = 0;
    double best_single_time_mape = 0;
};

SizeConsistency size_consistency(const std::vector<const RunData*>& runs);

} // namespace cleave::predict
