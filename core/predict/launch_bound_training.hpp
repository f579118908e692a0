// A launch-bound predictor (launch_bound.hpp) trained on end-to-end totals alone, for data that
// times whole runs but not their kernels (the H100 runs): each run's kernels under the
// predictor's fusion method, grouped by the op category of their anchor (fusion::op_category),
// fitted jointly so that their predicted times plus an overhead per inference add up to the
// measured medians. The per-kernel form is exactly what was fitted, so every kernel of a model
// gets its share (partition and DSE need them), not only the total.
#pragma once

#include "predictor_training.hpp"

namespace cleave::predict {

inline constexpr const char* kLaunchBoundKind = "launch-bound";

// Throws InputError when no run has an end-to-end time.
Predictor train_launch_bound_on_totals(const std::vector<const RunData*>& runs,
                                       const PredictorTrainingOptions& options);

} // namespace cleave::predict
