#include "launch_bound.hpp"

#include "core/json_reader.hpp"
#include "core/statistics.hpp"
#include "kernel_features.hpp"
#include "nonnegative_least_squares.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace cleave::predict {

namespace {

// A floor of 0 would give a launch no cost at all; a fitted floor never goes below this.
constexpr double kLeastFloorUs = 1e-3;
// IRLS for the absolute percentage error weighs a total by 1 / max(|error|, this): totals fitted
// exactly would otherwise take all the weight.
constexpr double kLeastRelativeError = 0.01;

// Columns of the (then linear) model, in this order: overhead, shared floor, per group a floor
// extra above it and one below it (both >= 0, so that a group's floor can sit on either side of
// the shared one), one compute term per compute-bound group, one memory term shared by all.
struct Layout {
    int overhead = -1;
    int floor = 0;
    int extras = 0; // per group g: above at extras + 2g, below at extras + 2g + 1
    std::vector<int> compute;         // per group, -1 where the group has no fitted compute term
    std::vector<double> known_gflops; // per group, > 0 where its rate is given
    double known_bandwidth_gbs = 0;   // > 0: no memory column
    int memory = -1;
    int size = 0;
};

double known_rate(const LaunchBoundFitOptions& o, int group) {
    return o.known_gflops.empty() ? 0.0 : o.known_gflops[static_cast<std::size_t>(group)];
}

Layout layout_of(const LaunchBoundFitOptions& o) {
    Layout l;
    l.known_gflops = o.known_gflops;
    l.known_bandwidth_gbs = o.known_bandwidth_gbs;
    int next = 0;
    if (o.fit_overhead)
        l.overhead = next++;
    l.floor = next++;
    l.extras = next;
    next += 2 * o.groups;
    for (int g = 0; g < o.groups; ++g) {
        const bool bound = known_rate(o, g) <= 0 && (o.compute_bound.empty() ||
                                                     o.compute_bound[static_cast<std::size_t>(g)]);
        l.compute.push_back(bound ? next++ : -1);
    }
    if (!(o.known_bandwidth_gbs > 0))
        l.memory = next++;
    l.size = next;
    return l;
}

enum class Branch { floor, compute, memory };

double group_floor(const Layout& l, const Eigen::VectorXd& theta, int group) {
    return theta(l.floor) + theta(l.extras + 2 * group) - theta(l.extras + 2 * group + 1);
}

struct Terms {
    double floor_us, compute_us, memory_us;
};

// One launch's three candidate times under parameters theta.
Terms terms(const Layout& l, const Eigen::VectorXd& theta, const LaunchBoundKernel& k) {
    const auto g = static_cast<std::size_t>(k.group);
    const int c = l.compute[g];
    const double known = l.known_gflops.empty() ? 0.0 : l.known_gflops[g];
    const double compute = known > 0 ? k.flops / (known * 1e3) : c >= 0 ? theta(c) * k.flops : 0.0;
    const double memory = l.known_bandwidth_gbs > 0 ? k.bytes / (l.known_bandwidth_gbs * 1e3)
                          : l.memory >= 0         ? theta(l.memory) * k.bytes
                                                  : 0.0;
    return {group_floor(l, theta, k.group), compute, memory};
}

double predicted_us(const Layout& l, const Eigen::VectorXd& theta, const LaunchBoundTotal& t) {
    double us = l.overhead >= 0 ? theta(l.overhead) : 0.0;
    for (const auto& k : t.kernels) {
        const auto v = terms(l, theta, k);
        us += k.launches * std::max({v.floor_us, v.compute_us, v.memory_us});
    }
    return us;
}

// The design row of a total: with `additive`, every kernel adds to all its columns (the model
// floor + work, which starts the fit); else only to the branch of the max it is on. Time on a
// compute branch whose rate is known, or on the memory branch with a known bandwidth, is no
// column's: it goes to `fixed_us`.
Eigen::VectorXd design_row(const Layout& l, const Eigen::VectorXd& theta, const LaunchBoundTotal& t,
                           bool additive, double& fixed_us) {
    Eigen::VectorXd row = Eigen::VectorXd::Zero(l.size);
    fixed_us = 0;
    if (l.overhead >= 0)
        row(l.overhead) = 1;
    for (const auto& k : t.kernels) {
        const int c = l.compute[static_cast<std::size_t>(k.group)];
        Branch branch = Branch::floor;
        if (!additive) {
            const auto v = terms(l, theta, k);
            if (v.compute_us > v.floor_us && v.compute_us >= v.memory_us)
                branch = Branch::compute;
            else if (v.memory_us > v.floor_us)
                branch = Branch::memory;
        }
        if (additive || branch == Branch::floor) {
            row(l.floor) += k.launches;
            row(l.extras + 2 * k.group) += k.launches;
            row(l.extras + 2 * k.group + 1) -= k.launches;
        }
        if (additive || branch == Branch::compute) {
            if (c >= 0)
                row(c) += k.launches * k.flops;
            else
                fixed_us += k.launches * terms(l, theta, k).compute_us;
        }
        if (additive || branch == Branch::memory) {
            if (l.memory >= 0)
                row(l.memory) += k.launches * k.bytes;
            else
                fixed_us += k.launches * terms(l, theta, k).memory_us;
        }
    }
    return row;
}

} // namespace

double launch_bound_us(const LaunchBoundParameters& p, double flops, double bytes) {
    const double compute = p.gflops > 0 ? flops / (p.gflops * 1e3) : 0.0;
    const double memory = p.bandwidth_gbs > 0 ? bytes / (p.bandwidth_gbs * 1e3) : 0.0;
    return std::max({p.floor_us, compute, memory});
}

LaunchBoundFit fit_launch_bound(const std::vector<LaunchBoundTotal>& totals,
                                const LaunchBoundFitOptions& options) {
    if (totals.empty())
        throw std::invalid_argument("launch-bound: no totals to fit");
    // A per-group option is empty (the default for every group) or has one entry per group.
    const auto per_group = [&](const auto& values) {
        return values.empty() || values.size() == static_cast<std::size_t>(options.groups);
    };
    if (options.groups < 1 || !per_group(options.compute_bound) ||
        !per_group(options.known_gflops) || !per_group(options.floor_ridge_factors))
        throw std::invalid_argument("launch-bound: compute_bound, known_gflops or "
                                    "floor_ridge_factors do not match the groups");
    std::vector<double> floors; // each total's time per launch: the floor's scale
    for (const auto& t : totals) {
        if (!(t.us > 0))
            throw std::invalid_argument("launch-bound: totals must be positive");
        double launches = 0;
        for (const auto& k : t.kernels) {
            if (k.group < 0 || k.group >= options.groups)
                throw std::invalid_argument("launch-bound: a kernel's group is out of range");
            launches += k.launches;
        }
        if (launches > 0)
            floors.push_back(t.us / launches);
    }
    const auto l = layout_of(options);
    const auto n = static_cast<Eigen::Index>(totals.size());
    Eigen::VectorXd y(n);
    for (Eigen::Index i = 0; i < n; ++i)
        y(i) = totals[static_cast<std::size_t>(i)].us;
    const double floor_scale = floors.empty() ? 1.0 : median(floors);

    // Weighted squared error with weights y^-2 is the squared percentage error; the penalty is in
    // those units: an extra of one floor_scale costs as much as `floor_ridge` squared relative
    // error on every total.
    Eigen::VectorXd penalty = Eigen::VectorXd::Zero(l.size);
    for (int g = 0; g < options.groups; ++g)
        for (const int side : {0, 1})
            penalty(l.extras + 2 * g + side) =
                options.floor_ridge *
                (options.floor_ridge_factors.empty()
                     ? 1.0
                     : options.floor_ridge_factors[static_cast<std::size_t>(g)]) *
                static_cast<double>(n) / (floor_scale * floor_scale);
    Eigen::VectorXd w = y.array().square().inverse();
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(l.size);
    theta(l.floor) = floor_scale;

    Eigen::VectorXd best = theta;
    double best_mape = std::numeric_limits<double>::infinity();
    Eigen::MatrixXd a(n, l.size);
    Eigen::VectorXd rest(n); // each total less the time its known-rate branches take
    for (int round = 0; round < options.iterations; ++round) {
        for (Eigen::Index i = 0; i < n; ++i) {
            double fixed_us = 0;
            a.row(i) =
                design_row(l, theta, totals[static_cast<std::size_t>(i)], round == 0, fixed_us);
            rest(i) = y(i) - fixed_us;
        }
        theta = nonnegative_least_squares(a, rest, w, penalty, theta);
        double mape = 0;
        Eigen::VectorXd relative(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            relative(i) =
                std::abs(predicted_us(l, theta, totals[static_cast<std::size_t>(i)]) - y(i)) / y(i);
            mape += relative(i) / static_cast<double>(n);
        }
        if (mape < best_mape - 1e-12) {
            best_mape = mape;
            best = theta;
        }
        for (Eigen::Index i = 0; i < n; ++i)
            w(i) = 1.0 / (y(i) * y(i) * std::max(relative(i), kLeastRelativeError));
    }

    LaunchBoundFit fit;
    fit.overhead_us = l.overhead >= 0 ? best(l.overhead) : 0.0;
    fit.shared_floor_us = std::max(best(l.floor), kLeastFloorUs);
    fit.training_mape = best_mape;
    const double memory = l.memory >= 0 ? best(l.memory) : 0.0;
    for (int g = 0; g < options.groups; ++g) {
        const int c = l.compute[static_cast<std::size_t>(g)];
        LaunchBoundParameters p;
        p.floor_us = std::max(group_floor(l, best, g), kLeastFloorUs);
        p.gflops = known_rate(options, g) > 0 ? known_rate(options, g)
                   : c >= 0 && best(c) > 0    ? 1.0 / (best(c) * 1e3)
                                              : 0.0;
        p.bandwidth_gbs = options.known_bandwidth_gbs > 0 ? options.known_bandwidth_gbs
                          : memory > 0                     ? 1.0 / (memory * 1e3)
                                                           : 0.0;
        fit.groups.push_back(p);
    }
    return fit;
}

namespace {

struct Columns {
    std::size_t flops = 0;
    std::vector<std::size_t> bytes;
};

const Columns& columns() {
    static const Columns c = [] {
        Columns out;
        const auto& names = kernel_feature_names();
        for (std::size_t j = 0; j < names.size(); ++j) {
            if (names[j] == "flops")
                out.flops = j;
            if (names[j] == "bytes_in" || names[j] == "bytes_out")
                out.bytes.push_back(j);
        }
        return out;
    }();
    return c;
}

double bytes_of(const double* row) {
    double bytes = 0;
    for (const auto j : columns().bytes)
        bytes += row[j];
    return bytes;
}

} // namespace

void LaunchBoundRegressor::fit(const RegressionSamples& samples, unsigned) {
    const auto p = samples.feature_names.size();
    if (samples.rows == 0 || samples.x.size() != samples.rows * p ||
        samples.y.size() != samples.rows || p < kernel_feature_names().size())
        throw std::invalid_argument("launch-bound: no samples, or sample sizes that do not match");
    std::vector<LaunchBoundTotal> totals;
    for (std::size_t i = 0; i < samples.rows; ++i) {
        const double* row = &samples.x[i * p];
        totals.push_back({{{0, 1.0, row[columns().flops], bytes_of(row)}}, samples.y[i]});
    }
    LaunchBoundFitOptions options;
    options.fit_overhead = false;
    parameters_ = fit_launch_bound(totals, options).groups.front();
}

double LaunchBoundRegressor::predict(const double* features) const {
    return launch_bound_us(parameters_, features[columns().flops], bytes_of(features));
}

std::string LaunchBoundRegressor::save() const {
    return nlohmann::ordered_json{{"floor_us", parameters_.floor_us},
                                  {"gflops", parameters_.gflops},
                                  {"bandwidth_gbs", parameters_.bandwidth_gbs}}
        .dump();
}

void LaunchBoundRegressor::load(const std::string& text, std::size_t feature_count) {
    const JsonReader reader("");
    if (feature_count < kernel_feature_names().size())
        reader.fail("", "expected rows of the " + std::to_string(kernel_feature_names().size()) +
                            " kernel features at least");
    const auto doc = reader.parse(text, "a launch-bound model");
    reader.expect_object(doc, "", "an object with floor_us, gflops, bandwidth_gbs");
    LaunchBoundParameters p;
    p.floor_us = reader.number(doc, "", "floor_us", true, "us, the launch floor").value();
    p.gflops = reader.number(doc, "", "gflops", true, "0: no such bound", true).value();
    p.bandwidth_gbs = reader.number(doc, "", "bandwidth_gbs", true, "0: no such bound", true).value();
    parameters_ = p;
}

} // namespace cleave::predict
