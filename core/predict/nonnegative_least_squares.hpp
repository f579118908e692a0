// Least squares with every parameter kept >= 0, for the few-parameter laws predictors fit
// (launch_bound, the gbdt baseline's class laws).
#pragma once

#include <Eigen/Dense>

namespace cleave::predict {

// min (A theta - y)' W (A theta - y) + theta' P theta over theta >= 0 (W = diag(w), P =
// diag(penalty)), by coordinate descent on the normal equations (a handful of columns, so each
// sweep is cheap), from `theta`.
Eigen::VectorXd nonnegative_least_squares(const Eigen::MatrixXd& a, const Eigen::VectorXd& y,
                                          const Eigen::VectorXd& w, const Eigen::VectorXd& penalty,
                                          Eigen::VectorXd theta);

} // namespace cleave::predict
