#include "lasso.hpp"

#include "core/json_reader.hpp"
#include "kernel_features.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <stdexcept>

namespace cleave::predict {

namespace {

void check(const Eigen::MatrixXd& x, const Eigen::VectorXd& y) {
    if (x.rows() != y.size())
        throw std::invalid_argument("fit_lasso: " + std::to_string(x.rows()) + " rows for " +
                                    std::to_string(y.size()) + " targets");
    if (y.size() == 0)
        throw std::invalid_argument("fit_lasso: no samples");
    if ((y.array() <= 0).any())
        throw std::invalid_argument("fit_lasso: targets must be positive");
}

struct Standardised {
    Eigen::MatrixXd z;
    Eigen::VectorXd mean;
    Eigen::VectorXd scale; // 0 for a feature that never varies: it gets no weight
};

Standardised standardise(const Eigen::MatrixXd& x) {
    Standardised s;
    s.mean = x.colwise().mean();
    s.z = x.rowwise() - s.mean.transpose();
    s.scale = (s.z.colwise().squaredNorm() / static_cast<double>(x.rows())).array().sqrt();
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        if (s.scale(j) > 0)
            s.z.col(j) /= s.scale(j);
        else
            s.z.col(j).setZero();
    }
    return s;
}

// The smallest alpha at which every weight stays zero: max_j of the gradient at w = 0.
Eigen::VectorXd sample_weights(const Eigen::VectorXd& y, double power) {
    Eigen::VectorXd w = y.array().pow(-power);
    return w / w.mean();
}

double alpha_max(const Standardised& s, const Eigen::VectorXd& y, double power) {
    const Eigen::VectorXd weight = sample_weights(y, power);
    const double b = weight.dot(y) / weight.sum();
    const Eigen::VectorXd r = (y.array() - b) * weight.array();
    const double n = static_cast<double>(y.size());
    double most = 0;
    for (Eigen::Index j = 0; j < s.z.cols(); ++j)
        most = std::max(most, s.z.col(j).dot(r) / n);
    return most;
}

LinearModel fit_standardised(const Standardised& s, const Eigen::VectorXd& y, double alpha,
                             const LassoOptions& options) {
    const Eigen::Index n = s.z.rows();
    const Eigen::Index p = s.z.cols();
    const double count = static_cast<double>(n);
    const Eigen::VectorXd weight = sample_weights(y, options.target_power);
    Eigen::VectorXd w = Eigen::VectorXd::Zero(p);
    double b = weight.dot(y) / weight.sum();
    Eigen::VectorXd r = y.array() - b;
    Eigen::VectorXd curvature(p);
    for (Eigen::Index j = 0; j < p; ++j)
        curvature(j) = s.z.col(j).array().square().matrix().dot(weight) / count;
    for (int sweep = 0; sweep < options.max_sweeps; ++sweep) {
        double largest_step = 0;
        const double db = r.dot(weight) / weight.sum();
        b += db;
        r.array() -= db;
        largest_step = std::abs(db) / std::max(std::abs(b), 1e-12);
        for (Eigen::Index j = 0; j < p; ++j) {
            if (curvature(j) <= 0)
                continue;
            const double rho = (s.z.col(j).array() * weight.array() * r.array()).sum() / count +
                               curvature(j) * w(j);
            const double next = std::max(0.0, (rho - alpha) / curvature(j));
            const double step = next - w(j);
            if (step != 0) {
                r -= step * s.z.col(j);
                w(j) = next;
                largest_step = std::max(largest_step, std::abs(step) * std::sqrt(curvature(j)));
            }
        }
        if (largest_step < options.tolerance)
            break;
    }
    LinearModel model;
    model.alpha = alpha;
    model.weights.assign(static_cast<std::size_t>(p), 0.0);
    model.intercept = b;
    for (Eigen::Index j = 0; j < p; ++j) {
        if (s.scale(j) <= 0 || w(j) == 0)
            continue;
        model.weights[static_cast<std::size_t>(j)] = w(j) / s.scale(j);
        model.intercept -= w(j) * s.mean(j) / s.scale(j);
    }
    model.floor = y.minCoeff() / 2;
    return model;
}

Eigen::MatrixXd rows(const Eigen::MatrixXd& x, const std::vector<Eigen::Index>& index) {
    Eigen::MatrixXd out(static_cast<Eigen::Index>(index.size()), x.cols());
    for (std::size_t i = 0; i < index.size(); ++i)
        out.row(static_cast<Eigen::Index>(i)) = x.row(index[i]);
    return out;
}

Eigen::VectorXd rows(const Eigen::VectorXd& y, const std::vector<Eigen::Index>& index) {
    Eigen::VectorXd out(static_cast<Eigen::Index>(index.size()));
    for (std::size_t i = 0; i < index.size(); ++i)
        out(static_cast<Eigen::Index>(i)) = y(index[i]);
    return out;
}

} // namespace

double LinearModel::predict(const double* x) const {
    double value = intercept;
    for (std::size_t j = 0; j < weights.size(); ++j)
        value += weights[j] * x[j];
    return std::max(value, floor);
}

double mean_squared_percentage_error(const LinearModel& model, const Eigen::MatrixXd& x,
                                     const Eigen::VectorXd& y) {
    double sum = 0;
    std::vector<double> row(static_cast<std::size_t>(x.cols()));
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        for (Eigen::Index j = 0; j < x.cols(); ++j)
            row[static_cast<std::size_t>(j)] = x(i, j);
        const double e = (y(i) - model.predict(row.data())) / y(i);
        sum += e * e;
    }
    return x.rows() > 0 ? sum / static_cast<double>(x.rows()) : 0;
}

LinearModel fit_lasso(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, double alpha,
                      const LassoOptions& options) {
    check(x, y);
    return fit_standardised(standardise(x), y, alpha, options);
}

LinearModel fit_lasso_cv(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                         const LassoOptions& options) {
    check(x, y);
    const Standardised all = standardise(x);
    std::vector<double> alphas = options.alphas;
    if (alphas.empty()) {
        const double top = alpha_max(all, y, options.target_power);
        alphas.push_back(0.0);
        for (int k = 12; k >= 0; --k)
            alphas.push_back(top * std::pow(10.0, -k / 3.0));
    }
    const Eigen::Index n = y.size();
    const int folds = static_cast<int>(std::min<Eigen::Index>(options.folds, n));
    if (folds < 2 || alphas.size() == 1)
        return fit_standardised(all, y, alphas.front(), options);

    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    std::mt19937 random(options.seed);
    std::shuffle(order.begin(), order.end(), random);
    double best_error = std::numeric_limits<double>::infinity();
    double best_alpha = alphas.front();
    for (const double alpha : alphas) {
        double error = 0;
        for (int f = 0; f < folds; ++f) {
            std::vector<Eigen::Index> train, test;
            for (std::size_t i = 0; i < order.size(); ++i)
                (static_cast<int>(i % static_cast<std::size_t>(folds)) == f ? test : train)
                    .push_back(order[i]);
            const auto model = fit_lasso(rows(x, train), rows(y, train), alpha, options);
            const Eigen::MatrixXd xt = rows(x, test);
            std::vector<double> row(static_cast<std::size_t>(x.cols()));
            for (std::size_t i = 0; i < test.size(); ++i) {
                const auto r = static_cast<Eigen::Index>(i);
                for (Eigen::Index j = 0; j < x.cols(); ++j)
                    row[static_cast<std::size_t>(j)] = xt(r, j);
                const double target = y(test[i]);
                const double e = target - model.predict(row.data());
                error += e * e * std::pow(target, -options.target_power);
            }
        }
        if (error < best_error) {
            best_error = error;
            best_alpha = alpha;
        }
    }
    return fit_standardised(all, y, best_alpha, options);
}

} // namespace cleave::predict

namespace cleave::predict {

void LassoRegressor::fit(const RegressionSamples& samples, unsigned seed) {
    const auto p = samples.feature_names.size();
    if (samples.x.size() != samples.rows * p || samples.y.size() != samples.rows)
        throw std::invalid_argument("lasso: sample sizes do not match");
    Eigen::MatrixXd x = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(samples.rows),
                                              static_cast<Eigen::Index>(p));
    for (std::size_t j = 0; j < p; ++j)
        if (is_additive_feature(samples.feature_names[j]))
            for (std::size_t i = 0; i < samples.rows; ++i)
                x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
                    samples.x[i * p + j];
    const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(
        samples.y.data(), static_cast<Eigen::Index>(samples.rows));
    auto options = options_;
    options.seed = seed;
    model_ = fit_lasso_cv(x, y, options);
}

double LassoRegressor::predict(const double* features) const {
    return model_.predict(features);
}

std::string LassoRegressor::save() const {
    return nlohmann::ordered_json{{"intercept_us", model_.intercept},
                                  {"weights", model_.weights},
                                  {"floor_us", model_.floor},
                                  {"alpha", model_.alpha}}
        .dump();
}

void LassoRegressor::load(const std::string& text, std::size_t feature_count) {
    const JsonReader reader("");
    const auto doc = reader.parse(text, "a lasso model");
    reader.expect_object(doc, "", "an object with intercept_us, weights, floor_us");
    LinearModel m;
    m.intercept = reader.finite(doc, "", "intercept_us");
    m.floor = reader.finite(doc, "", "floor_us");
    m.alpha = reader.finite(doc, "", "alpha");
    m.weights = reader.finite_numbers(doc, "", "weights", feature_count, "one per feature");
    for (std::size_t j = 0; j < m.weights.size(); ++j)
        if (m.weights[j] < 0)
            reader.fail("/weights/" + std::to_string(j), "expected a non-negative number");
    model_ = std::move(m);
}

} // namespace cleave::predict
