#include "log_correction.hpp"

#include "core/json_reader.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace cleave::predict {

namespace {

// Penalties in units of samples: a per-column offset is pulled toward 0 as if `penalty` more
// kernels of that column had measured exactly what the model predicts. The largest ones leave
// the term out in effect.
constexpr double kColumnPenalties[] = {1e6, 64, 16, 4, 1};
constexpr double kSlopePenalties[] = {1e6, 32, 4};

struct Fit {
    Eigen::VectorXd beta;
    double loo_error = 0; // mean absolute leave-one-out error of log_ratio
};

Fit ridge(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const Eigen::VectorXd& w,
          const Eigen::VectorXd& penalty) {
    const Eigen::MatrixXd xw = x.transpose() * w.asDiagonal(); // parameters x samples
    Eigen::MatrixXd a = xw * x;
    a.diagonal() += penalty;
    const Eigen::MatrixXd k = a.ldlt().solve(xw);
    Fit fit;
    fit.beta = k * y;
    const Eigen::VectorXd fitted = x * fit.beta;
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const double leverage = x.row(i).dot(k.col(i));
        const double residual = y(i) - fitted(i);
        fit.loo_error += w(i) * (1 - leverage > 1e-9 ? std::abs(residual / (1 - leverage))
                                                     : std::numeric_limits<double>::infinity());
    }
    fit.loo_error /= w.sum();
    return fit;
}

} // namespace

double LogCorrection::log_factor(const double* row, double log_nominal_us) const {
    double out = offset + slope * (log_nominal_us - center) / scale;
    for (const auto& [column, value] : column_offsets)
        if (row[column] != 0)
            out += value;
    return out;
}

LogCorrection LogCorrection::fit(const std::vector<CorrectionSample>& samples) {
    if (samples.empty())
        throw std::invalid_argument("a correction needs samples");
    const auto n = static_cast<Eigen::Index>(samples.size());
    LogCorrection c;
    Eigen::VectorXd y(n), z(n), w(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto& s = samples[static_cast<std::size_t>(i)];
        if (!(s.weight > 0))
            throw std::invalid_argument("a correction's sample weights must be positive");
        y(i) = s.log_ratio;
        z(i) = s.log_nominal_us;
        w(i) = s.weight;
    }
    w *= static_cast<double>(n) / w.sum(); // penalties stay in units of samples
    c.offset = w.dot(y) / n;
    c.center = w.dot(z) / n;
    const double sd = std::sqrt(w.dot((z.array() - c.center).square().matrix()) / n);
    c.scale = sd > 1e-9 ? sd : 1.0;
    if (n < 3)
        return c;

    std::map<std::size_t, Eigen::Index> index; // indicator column -> parameter
    for (const auto& s : samples)
        for (const auto column : s.columns)
            index.emplace(column, 0);
    Eigen::Index parameter = 2;
    for (auto& [column, p] : index)
        p = parameter++;
    Eigen::MatrixXd x = Eigen::MatrixXd::Zero(n, parameter);
    for (Eigen::Index i = 0; i < n; ++i) {
        x(i, 0) = 1;
        x(i, 1) = (z(i) - c.center) / c.scale;
        for (const auto column : samples[static_cast<std::size_t>(i)].columns)
            x(i, index.at(column)) = 1;
    }
    // The simplest model first: a richer one is kept only where it predicts left-out kernels
    // better.
    Fit best;
    best.loo_error = std::numeric_limits<double>::infinity();
    for (const double slope_penalty : kSlopePenalties)
        for (const double column_penalty : kColumnPenalties) {
            Eigen::VectorXd penalty = Eigen::VectorXd::Constant(parameter, column_penalty);
            penalty(0) = 0;
            penalty(1) = slope_penalty;
            auto fit = ridge(x, y, w, penalty);
            if (fit.loo_error < best.loo_error - 1e-12) {
                best = std::move(fit);
                c.slope_penalty = slope_penalty;
                c.column_penalty = column_penalty;
            }
        }
    c.offset = best.beta(0);
    c.slope = best.beta(1);
    for (const auto& [column, p] : index)
        if (std::abs(best.beta(p)) > 1e-12)
            c.column_offsets.emplace_back(column, best.beta(p));
    return c;
}

void LogCorrection::write(nlohmann::json& doc) const {
    doc["offset"] = offset;
    doc["slope"] = slope;
    doc["center"] = center;
    doc["scale"] = scale;
    auto columns = nlohmann::json::array();
    for (const auto& [column, value] : column_offsets)
        columns.push_back({{"column", column}, {"offset", value}});
    doc["columns"] = columns;
    doc["penalties"] = {{"columns", column_penalty}, {"slope", slope_penalty}};
}

LogCorrection LogCorrection::read(const nlohmann::json& doc, std::size_t feature_count) {
    const JsonReader reader("");
    reader.expect_object(doc, "", "a correction object");
    LogCorrection c;
    c.offset = reader.finite(doc, "", "offset");
    c.slope = reader.finite(doc, "", "slope");
    c.center = reader.finite(doc, "", "center");
    c.scale = reader.number(doc, "", "scale", true, "").value();
    const auto* columns =
        reader.array(doc, "", "columns", true, "an array of {\"column\", \"offset\"}");
    for (std::size_t i = 0; i < columns->size(); ++i) {
        const auto& entry = (*columns)[i];
        const std::string at = child_pointer("/columns", i);
        reader.expect_object(entry, at, "{\"column\", \"offset\"}");
        const int column = reader.whole_number(entry, at, "column", true, 0,
                                               static_cast<int>(feature_count) - 1)
                               .value();
        c.column_offsets.emplace_back(static_cast<std::size_t>(column),
                                      reader.finite(entry, at, "offset"));
    }
    if (const auto penalties = doc.find("penalties"); penalties != doc.end() && penalties->is_object()) {
        c.column_penalty = penalties->value("columns", 0.0);
        c.slope_penalty = penalties->value("slope", 0.0);
    }
    return c;
}

} // namespace cleave::predict
