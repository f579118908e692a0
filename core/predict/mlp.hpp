// The mlp regressor: a multilayer perceptron in Eigen (two ReLU hidden layers) on log(1 + x)
// features standardised, predicting log(time / nominal roofline) (baseline.hpp), trained with
// Adam on mini-batches, a tenth of the samples held out to keep the epoch with the lowest
// validation error. Seeded, so a fit is repeatable. A network extrapolates wildly outside what
// it saw, so its output is held between the 0.5th and 99.5th percentiles of the training
// targets.
#pragma once

#include "baseline.hpp"
#include "regressor.hpp"

#include <Eigen/Dense>

namespace cleave::predict {

struct MlpOptions {
    int hidden1 = 64;
    int hidden2 = 32;
    int epochs = 150;
    int batch = 128;
    double learning_rate = 1e-3;
    double weight_decay = 1e-5;
};

class MlpRegressor final : public Regressor {
public:
    explicit MlpRegressor(MlpOptions options = {}) : options_(options) {}
    void fit(const RegressionSamples& samples, unsigned seed) override;
    double predict(const double* features) const override;
    void predict_rows(const double* features, std::size_t rows, std::size_t columns,
                      double* out) const override;
    std::string save() const override;
    void load(const std::string& json, std::size_t feature_count) override;

private:
    // Rows of standardised log features.
    Eigen::MatrixXd inputs(const double* features, std::size_t rows, std::size_t columns) const;
    Eigen::VectorXd forward(const Eigen::MatrixXd& x) const; // log(time / baseline) per row

    MlpOptions options_;
    NominalRoofline baseline_;
    Eigen::VectorXd mean_, scale_;
    Eigen::MatrixXd w1_, w2_, w3_; // layer l maps a row vector: h = relu(x * w + b)
    Eigen::RowVectorXd b1_, b2_, b3_;
    double target_min_ = 0, target_max_ = 0; // percentiles of log(time / baseline) in training
};

} // namespace cleave::predict
