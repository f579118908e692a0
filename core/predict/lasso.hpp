// Non-negative lasso with a mean-squared percentage error objective (Li et al., ICPE'23, Eq. 1):
// minimise (1/2n) sum ((y_i - f(x_i)) / y_i)^2 + alpha * sum |w_j| over standardised features,
// with every weight >= 0, by coordinate descent; alpha is chosen by k-fold cross-validation.
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace cleave::predict {

// f(x) = intercept + weights . x in the features' own units.
struct LinearModel {
    double intercept = 0;
    std::vector<double> weights;
    double floor = 0; // predictions never go below this (half the smallest training target)
    double alpha = 0; // the penalty it was fitted with, on standardised features

    double predict(const double* x) const; // x: one value per weight
};

struct LassoOptions {
    std::vector<double> alphas; // empty: 13 values from 1e-4 to 1 times the smallest alpha that
                                // zeroes every weight, and 0
    int folds = 5;
    unsigned seed = 1;
    // Each sample's squared error is weighted by y^-target_power: 2 gives the squared percentage
    // error of Eq. 1, 0 plain squared error (big kernels dominate), 1 between the two.
    double target_power = 2;
    int max_sweeps = 2000;
    double tolerance = 1e-9;
};

// Rows of `x` are samples; y > 0. Throws std::invalid_argument on mismatched sizes or y <= 0.
LinearModel fit_lasso(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, double alpha,
                      const LassoOptions& options = {});
// Picks alpha by cross-validated MSPE, then fits on every sample.
LinearModel fit_lasso_cv(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                         const LassoOptions& options = {});

// Mean of ((y - f(x)) / y)^2.
double mean_squared_percentage_error(const LinearModel& model, const Eigen::MatrixXd& x,
                                     const Eigen::VectorXd& y);

} // namespace cleave::predict

#include "regressor.hpp"

namespace cleave::predict {

// The lasso as a Regressor: fit_lasso_cv over the additive features (is_additive_feature); the
// others get no weight.
class LassoRegressor final : public Regressor {
public:
    explicit LassoRegressor(LassoOptions options = {}) : options_(std::move(options)) {}
    void fit(const RegressionSamples& samples, unsigned seed) override;
    double predict(const double* features) const override;
    std::string save() const override;
    void load(const std::string& json, std::size_t feature_count) override;
    const LinearModel& model() const { return model_; }

private:
    LassoOptions options_;
    LinearModel model_;
};

} // namespace cleave::predict
