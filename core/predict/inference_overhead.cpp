#include "inference_overhead.hpp"

#include "core/graph/data_type.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

namespace cleave::predict {

namespace {

constexpr int kParts = 3; // fixed (us), per kernel (us), per io megabyte (us)
constexpr int kRounds = 40;

constexpr int kPerKernel = 1; // the one part that may be negative

// Weighted least squares with the fixed and the input/output parts >= 0: the best of the fits on
// each subset of those two left free (the per-kernel part always is) whose solution keeps them
// non-negative.
Eigen::Vector3d constrained_fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                const Eigen::VectorXd& w) {
    Eigen::Vector3d best = Eigen::Vector3d::Zero();
    double best_loss = (w.array() * y.array().square()).sum();
    for (int mask = 0; mask < (1 << kParts); ++mask) {
        if (!(mask & (1 << kPerKernel)))
            continue;
        std::vector<int> free;
        for (int j = 0; j < kParts; ++j)
            if (mask & (1 << j))
                free.push_back(j);
        Eigen::MatrixXd a(x.rows(), static_cast<Eigen::Index>(free.size()));
        for (std::size_t j = 0; j < free.size(); ++j)
            a.col(static_cast<Eigen::Index>(j)) = x.col(free[j]);
        const Eigen::MatrixXd normal = a.transpose() * w.asDiagonal() * a;
        const Eigen::VectorXd theta_free =
            normal.ldlt().solve(a.transpose() * (w.array() * y.array()).matrix());
        bool feasible = theta_free.allFinite();
        for (std::size_t j = 0; j < free.size(); ++j)
            feasible &= free[j] == kPerKernel || theta_free(static_cast<Eigen::Index>(j)) >= 0;
        if (!feasible)
            continue;
        Eigen::Vector3d theta = Eigen::Vector3d::Zero();
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

double InferenceOverhead::ms(double kernels, double io_bytes) const {
    return fixed_ms + (per_kernel_us * kernels + per_io_mb_us * io_bytes / 1e6) / 1000.0;
}

double graph_io_bytes(const graph::Model& model) {
    double bytes = 0;
    for (const auto& list : {model.inputs, model.outputs})
        for (const int t : list) {
            const auto& tensor = model.tensors[static_cast<std::size_t>(t)];
            const auto elements = tensor.elements();
            if (elements > 0)
                bytes += static_cast<double>(elements) * static_cast<double>(graph::element_bytes(tensor.dtype));
        }
    return bytes;
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
        x.row(i) << 1.0, r.kernels, r.io_bytes / 1e6;
        y(i) = (r.e2e_ms - r.kernels_ms) * 1000.0;
        e2e(i) = r.e2e_ms * 1000.0;
    }
    // Squared relative error to start, then weights that turn it into the absolute one.
    Eigen::VectorXd w = e2e.array().square().inverse();
    Eigen::Vector3d theta = constrained_fit(x, y, w);
    double best_loss = std::numeric_limits<double>::infinity();
    Eigen::Vector3d best = theta;
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
    fit.per_io_mb_us = best(2);
    return fit;
}

} // namespace cleave::predict
