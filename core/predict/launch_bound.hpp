// The launch-bound model of a runtime that launches every op by itself (PyTorch eager at batch
// 1): an op costs at least a launch floor, the host's dispatch while the GPU waits, and an op
// with much work the time its FLOPs or bytes take at a fitted rate:
//     t = max(floor_us, flops / compute rate, bytes / bandwidth)
// Fitted per kernel where kernel times exist, or jointly over groups of kernels on end-to-end
// totals (fit_launch_bound), which is all the H100 runs give.
#pragma once

#include "regressor.hpp"

#include <vector>

namespace cleave::predict {

struct LaunchBoundParameters {
    double floor_us = 0;      // > 0: every launch costs at least this
    double gflops = 0;        // compute rate; 0: the op is never bound by its FLOPs
    double bandwidth_gbs = 0; // 0: never bound by its bytes
};

// One launch of an op with these FLOPs and bytes (bytes_in + bytes_out).
double launch_bound_us(const LaunchBoundParameters& parameters, double flops, double bytes);

// What the joint fit sees of one kernel: its group (the parameters it shares), its launches and
// work.
struct LaunchBoundKernel {
    int group = 0;
    double launches = 1;
    double flops = 0;
    double bytes = 0;
};

// A measured total: the sum of its kernels' times plus the fitted overhead.
struct LaunchBoundTotal {
    std::vector<LaunchBoundKernel> kernels;
    double us = 0; // > 0
};

struct LaunchBoundFitOptions {
    int groups = 1;
    // Per group: whether its FLOPs can bound it (convolutions, matrix products); empty: every
    // group.
    std::vector<bool> compute_bound;
    // Per group: a compute rate known beforehand (GFLOP/s) that the fit keeps, or 0 to fit one
    // where compute_bound says; empty: fit them all. End-to-end totals that the host bounds say
    // little about the GPU's rate, and a held-out family with big convolutions would take it
    // from families whose convolutions never reach it.
    std::vector<double> known_gflops;
    // A bandwidth known beforehand (GB/s) for every group, or 0 to fit one from the totals.
    double known_bandwidth_gbs = 0;
    bool fit_overhead = true; // a per-total constant, for end-to-end totals
    // Groups' floors are a shared floor plus a per-group extra, above or below it, that this
    // ridge (on the extra, relative to the floor) pulls to 0: with few totals, ops seen together
    // in every model (Conv, BatchNormalization, Relu) cannot be told apart and would otherwise
    // trade floors.
    double floor_ridge = 1.0;
    // Per group, a factor on floor_ridge (0: that group's floor is free); empty: 1 for every
    // group.
    std::vector<double> floor_ridge_factors;
    int iterations = 60;
};

struct LaunchBoundFit {
    double overhead_us = 0;
    std::vector<LaunchBoundParameters> groups;
    double shared_floor_us = 0; // the floor every group has at least
    double training_mape = 0;
};

// Minimises the mean absolute percentage error of the totals (iteratively reweighted
// non-negative least squares): robust to totals a busy host slowed, which a squared error would
// chase. Each round fixes which branch of the max every kernel is on and refits the then linear
// model; it starts from the additive model (floor + work), which gives the rates a start.
// Throws std::invalid_argument without totals or with a total <= 0 or a group out of range.
LaunchBoundFit fit_launch_bound(const std::vector<LaunchBoundTotal>& totals,
                                const LaunchBoundFitOptions& options);

// One class's parameters as a Regressor over the kernel feature columns (flops, bytes_in,
// bytes_out): fit takes per-kernel samples (each one a total of one kernel, no overhead).
class LaunchBoundRegressor final : public Regressor {
public:
    LaunchBoundRegressor() = default;
    explicit LaunchBoundRegressor(LaunchBoundParameters parameters) : parameters_(parameters) {}
    void fit(const RegressionSamples& samples, unsigned seed) override;
    double predict(const double* features) const override;
    std::string save() const override;
    void load(const std::string& json, std::size_t feature_count) override;
    const LaunchBoundParameters& parameters() const { return parameters_; }

private:
    LaunchBoundParameters parameters_;
};

} // namespace cleave::predict
