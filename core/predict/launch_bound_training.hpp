// A launch-bound predictor (launch_bound.hpp) trained on end-to-end totals alone, for data that
// times whole runs but not their kernels (the H100 runs): each run's kernels under the
// predictor's fusion method, grouped by how eager dispatches their anchor op (convolutions,
// matrix products, normalisations, pools, reductions, views, copies, elementwise), each group
// with its own launch floor, fitted jointly so that their predicted times plus an overhead per
// inference add up to the measured medians. The per-kernel form is exactly what was fitted, so
// every kernel of a model gets its share (partition and DSE need them), not only the total.
#pragma once

#include "predictor_training.hpp"

namespace cleave::predict {

inline constexpr const char* kLaunchBoundKind = "launch-bound";

// How eager dispatches an op, which is what an op costs the host: each group has its own launch
// floor. Convolutions and matrix products (Linear's MatMul too) go to cuDNN and cuBLAS; views
// (a reshape, a permute, a slice, a chunk, an eval-mode dropout) launch no kernel and cost the
// host little; copies (cat, pad, resize, expand) launch one; the rest are normalisation,
// pooling, reduction and elementwise kernels.
enum EagerGroup {
    kConvolutions,
    kMatrixProducts,
    kNormalisations,
    kPools,
    kReductions,
    kViews,
    kCopies,
    kElementwise,
    kEagerGroups
};

// An ONNX op's group; an op no group names goes with its kin (fusion::op_category).
int eager_group(const std::string& op);

// Throws InputError when no run has an end-to-end time.
Predictor train_launch_bound_on_totals(const std::vector<const RunData*>& runs,
                                       const PredictorTrainingOptions& options);

} // namespace cleave::predict
