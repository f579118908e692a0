#include "nonnegative_least_squares.hpp"

#include <algorithm>
#include <cmath>

namespace cleave::predict {

Eigen::VectorXd nonnegative_least_squares(const Eigen::MatrixXd& a, const Eigen::VectorXd& y,
                                          const Eigen::VectorXd& w, const Eigen::VectorXd& penalty,
                                          Eigen::VectorXd theta) {
    const Eigen::MatrixXd aw = a.transpose() * w.asDiagonal();
    Eigen::MatrixXd g = aw * a;
    g.diagonal() += penalty;
    const Eigen::VectorXd h = aw * y;
    for (int sweep = 0; sweep < 20000; ++sweep) {
        double largest = 0;
        for (Eigen::Index j = 0; j < theta.size(); ++j) {
            if (g(j, j) <= 0)
                continue;
            const double next = std::max(0.0, theta(j) + (h(j) - g.row(j).dot(theta)) / g(j, j));
            largest = std::max(largest, std::abs(next - theta(j)) * std::sqrt(g(j, j)));
            theta(j) = next;
        }
        if (largest < 1e-12 * std::sqrt(std::max(1.0, h.norm())))
            break;
    }
    return theta;
}


} // namespace cleave::predict
