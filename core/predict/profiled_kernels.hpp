// A device's measured runs as a profiler on that device meets their kernels: each cost class and
// feature vector once, with every time it was measured. Predictors trained on a few of them
// (chosen by KMeans, kernel_sampling.hpp) are scored here on the kernels not chosen and end to
// end on the runs: what `cleave evaluate-sampling` and the cross-device evaluation share.
#pragma once

#include "kernel_sampling.hpp"
#include "predictor_training.hpp"

#include <string>
#include <vector>

namespace cleave::predict {

struct ProfiledKernel {
    std::string cost_class;
    std::vector<double> features;
    std::vector<double> us; // every timed occurrence

    KernelSample sample() const; // one training sample at the median time
};

struct ProfiledKernels {
    std::vector<ProfiledKernel> kernels;
    std::vector<std::vector<int>> of_sample; // per run, per timed sample: its kernel
    // Per timed sample, as sample_kernels takes them; `kernel` is the kernel's index.
    std::vector<KernelCandidate> candidates;

    static ProfiledKernels of(const std::vector<RunData>& runs);
    static ProfiledKernels of(const std::vector<const RunData*>& runs);

    // The kernels KMeans chooses to profile with this budget (kernel_sampling.hpp), as indices.
    std::vector<int> choose_by_kmeans(int budget, unsigned seed) const;
    // One sample per kernel, at its median time.
    std::vector<KernelSample> samples(const std::vector<int>& chosen) const;
    std::vector<KernelSample> samples() const; // every kernel
};

struct SampledScore {
    ErrorSummary kernels; // on every timed sample of a kernel not chosen
    ErrorSummary e2e;     // on every run with an end-to-end time
    std::vector<double> e2e_errors; // relative, per run, in run order (0 where none is measured)
};

// A predictor trained on the `chosen` kernels of `runs`, scored on the rest of their kernels and
// end to end. `kernel_graphs` holds each run's kernels under the fusion method it predicts for.
SampledScore score_on_runs(const Predictor& predictor, const ProfiledKernels& profiled,
                           const std::vector<int>& chosen,
                           const std::vector<const RunData*>& runs,
                           const std::vector<fusion::KernelGraph>& kernel_graphs);

} // namespace cleave::predict
