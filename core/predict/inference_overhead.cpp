#include "inference_overhead.hpp"

#include "core/graph/data_type.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

namespace cleave::predict {

namespace {

// Fixed (us), per kernel (us), share of the kernels' time, per output megabyte (us), per mapped
// output megabyte (us).
constexpr int kParts = 5;
constexpr bool kNonNegative[kParts] = {true, false, false, true, true};
constexpr int kRounds = 40;
using Parts = Eigen::Matrix<double, kParts, 1>;

// Weighted least squares with the fixed and output parts >= 0: the best of the fits on each
// subset of those three left free (the others always are) whose solution keeps them non-negative.
// A column the runs leave undetermined (every run with the same kernel time makes the share one
// with the fixed part) gets the least-norm solution.
Parts constrained_fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                      const Eigen::VectorXd& w) {
    Parts best = Parts::Zero();
    double best_loss = (w.array() * y.array().square()).sum();
    for (int mask = 0; mask < (1 << kParts); ++mask) {
        bool always_free_kept = true;
        for (int j = 0; j < kParts; ++j)
            always_free_kept &= kNonNegative[j] || (mask & (1 << j));
        if (!always_free_kept)
            continue;
        std::vector<int> free;
        for (int j = 0; j < kParts; ++j)
            if (mask & (1 << j))
                free.push_back(j);
        Eigen::MatrixXd a(x.rows(), static_cast<Eigen::Index>(free.size()));
        for (std::size_t j = 0; j < free.size(); ++j)
            a.col(static_cast<Eigen::Index>(j)) = x.col(free[j]);
        const Eigen::VectorXd root_w = w.array().sqrt();
        const Eigen::VectorXd theta_free = (root_w.asDiagonal() * a)
                                               .completeOrthogonalDecomposition()
                                               .solve((root_w.array() * y.array()).matrix());
        bool feasible = theta_free.allFinite();
        for (std::size_t j = 0; j < free.size(); ++j)
            feasible &= !kNonNegative[free[j]] || theta_free(static_cast<Eigen::Index>(j)) >= 0;
        if (!feasible)
            continue;
        Parts theta = Parts::Zero();
        for (std::size_t j = 0; j < free.size(); ++j)
            theta(free[j]) = theta_free(static_cast<Eigen::Index>(j));
        const double loss = (w.array() * (y - x * theta).array().square()).sum();
        if (loss < best_loss) {
            best_loss = loss;
            best = theta;
        }
    }
    return best;
}

} // namespace

double InferenceOverhead::ms(double kernels, double kernels_ms, const GraphIoBytes& io) const {
    return fixed_ms + kernel_time_share * kernels_ms +
           (per_kernel_us * kernels + per_output_mb_us * io.outputs / 1e6 +
            per_mapped_output_mb_us * io.mapped_outputs / 1e6 +
            per_io_mb_us * (io.inputs + io.outputs) / 1e6) /
               1000.0;
}

GraphIoBytes graph_io_bytes(const graph::Model& model) {
    const auto bytes = [&](const std::vector<int>& list, double above) {
        double sum = 0;
        for (const int t : list) {
            const auto& tensor = model.tensors[static_cast<std::size_t>(t)];
            const auto elements = tensor.elements();
            const double b = elements > 0
                                 ? static_cast<double>(elements) *
                                       static_cast<double>(graph::element_bits(tensor.dtype)) / 8
                                 : 0;
            if (b > above)
                sum += b;
        }
        return sum;
    };
    return {bytes(model.inputs, 0), bytes(model.outputs, 0),
            bytes(model.outputs, kMappedAllocationBytes)};
}

InferenceOverhead fit_inference_overhead(const std::vector<OverheadSample>& runs) {
    std::vector<const OverheadSample*> used;
    for (const auto& r : runs)
        if (r.e2e_ms > 0 && r.kernels_ms > 0)
            used.push_back(&r);
    InferenceOverhead fit;
    if (used.empty())
        return fit;
    const auto n = static_cast<Eigen::Index>(used.size());
    Eigen::MatrixXd x(n, kParts);
    Eigen::VectorXd y(n), e2e(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto& r = *used[static_cast<std::size_t>(i)];
        x.row(i) << 1.0, r.kernels, r.kernels_ms * 1000.0, r.io.outputs / 1e6,
            r.io.mapped_outputs / 1e6;
        y(i) = (r.e2e_ms - r.kernels_ms) * 1000.0;
        e2e(i) = r.e2e_ms * 1000.0;
    }
    // Squared relative error to start, then weights that turn it into the absolute one.
    Eigen::VectorXd w = e2e.array().square().inverse();
    Parts theta = constrained_fit(x, y, w);
    double best_loss = std::numeric_limits<double>::infinity();
    Parts best = theta;
    for (int round = 0; round < kRounds; ++round) {
        const Eigen::VectorXd relative = ((y - x * theta).array() / e2e.array()).abs();
        const double loss = relative.sum();
        if (loss < best_loss - 1e-12) {
            best_loss = loss;
            best = theta;
        }
        w = (e2e.array().square() * relative.array().max(1e-4)).inverse();
        theta = constrained_fit(x, y, w);
    }
    fit.fixed_ms = best(0) / 1000.0;
    fit.per_kernel_us = best(1);
    fit.kernel_time_share = best(2);
    fit.per_output_mb_us = best(3);
    fit.per_mapped_output_mb_us = best(4);
    return fit;
}

} // namespace cleave::predict
