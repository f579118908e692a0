#include "kernel_sampling.hpp"

#include "core/input_error.hpp"
#include "kernel_features.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>

namespace cleave::predict {

namespace {

// Squared distances, points x centroids.
Eigen::MatrixXd squared_distances(const Eigen::MatrixXd& points, const Eigen::MatrixXd& centroids) {
    Eigen::MatrixXd d = -2.0 * points * centroids.transpose();
    d.colwise() += points.rowwise().squaredNorm();
    d.rowwise() += centroids.rowwise().squaredNorm().transpose();
    return d.cwiseMax(0.0);
}

// k-means++ (Arthur and Vassilvitskii): each next centre drawn with probability proportional to
// weight x squared distance to the nearest centre chosen so far.
Eigen::MatrixXd seed_centroids(const Eigen::MatrixXd& points, const std::vector<double>& weights,
                               int k, std::mt19937_64& rng) {
    const Eigen::Index n = points.rows();
    Eigen::MatrixXd centroids(k, points.cols());
    std::discrete_distribution<Eigen::Index> first(weights.begin(), weights.end());
    centroids.row(0) = points.row(first(rng));
    Eigen::VectorXd nearest = squared_distances(points, centroids.topRows(1)).col(0);
    for (int c = 1; c < k; ++c) {
        std::vector<double> p(n);
        for (Eigen::Index i = 0; i < n; ++i)
            p[i] = weights[i] * nearest(i);
        Eigen::Index pick = 0;
        if (std::any_of(p.begin(), p.end(), [](double v) { return v > 0; }))
            pick = std::discrete_distribution<Eigen::Index>(p.begin(), p.end())(rng);
        else // fewer distinct points than centres: any point will do
            pick = static_cast<Eigen::Index>(rng() % static_cast<std::uint64_t>(n));
        centroids.row(c) = points.row(pick);
        nearest = nearest.cwiseMin(squared_distances(points, centroids.row(c)).col(0));
    }
    return centroids;
}

std::string identity_key(const std::string& cost_class, const std::vector<double>& features) {
    std::string key = cost_class;
    for (const double f : features)
        key += ' ' + std::to_string(f);
    return key;
}

} // namespace

KMeansResult kmeans(const Eigen::MatrixXd& points, const std::vector<double>& weights, int k,
                    unsigned seed, int max_iterations) {
    if (k < 1)
        throw std::invalid_argument("kmeans: k must be at least 1");
    if (static_cast<Eigen::Index>(weights.size()) != points.rows())
        throw std::invalid_argument("kmeans: one weight per point");
    KMeansResult r;
    const Eigen::Index n = points.rows();
    if (n == 0)
        return r;
    k = static_cast<int>(std::min<Eigen::Index>(k, n));
    std::mt19937_64 rng(seed);
    r.centroids = seed_centroids(points, weights, k, rng);
    r.assignment.assign(n, -1);
    for (r.iterations = 1; r.iterations <= max_iterations; ++r.iterations) {
        const Eigen::MatrixXd d = squared_distances(points, r.centroids);
        bool changed = false;
        for (Eigen::Index i = 0; i < n; ++i) {
            Eigen::Index c = 0;
            d.row(i).minCoeff(&c);
            changed |= r.assignment[i] != static_cast<int>(c);
            r.assignment[i] = static_cast<int>(c);
        }
        if (!changed)
            break;
        Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(k, points.cols());
        Eigen::VectorXd mass = Eigen::VectorXd::Zero(k);
        for (Eigen::Index i = 0; i < n; ++i) {
            sums.row(r.assignment[i]) += weights[i] * points.row(i);
            mass(r.assignment[i]) += weights[i];
        }
        for (int c = 0; c < k; ++c) {
            if (mass(c) > 0) {
                r.centroids.row(c) = sums.row(c) / mass(c);
                continue;
            }
            // An emptied cluster restarts at the point farthest from its own centre.
            Eigen::Index far = 0;
            Eigen::VectorXd own(n);
            for (Eigen::Index i = 0; i < n; ++i)
                own(i) = d(i, r.assignment[i]);
            own.maxCoeff(&far);
            r.centroids.row(c) = points.row(far);
        }
    }
    r.iterations = std::min(r.iterations, max_iterations);
    return r;
}

std::vector<KernelCandidate> kernel_candidates(const std::string& model_name,
                                               const graph::Model& model,
                                               const fusion::KernelGraph& kernels) {
    std::vector<KernelCandidate> out;
    out.reserve(kernels.kernels.size());
    const auto step = decode_step_bytes(model);
    for (const auto& kernel : kernels.kernels)
        out.push_back({model_name, kernel.name, cost_class(model, kernel),
                       kernel_features(model, kernel, step)});
    return out;
}

namespace {

Eigen::MatrixXd log_features(const std::vector<std::vector<double>>& features) {
    const Eigen::Index n = static_cast<Eigen::Index>(features.size());
    const Eigen::Index m = n == 0 ? 0 : static_cast<Eigen::Index>(features[0].size());
    Eigen::MatrixXd x(n, m);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < m; ++j)
            x(i, j) = std::log1p(std::max(0.0, features[i][j]));
    return x;
}

} // namespace

SamplingSpace SamplingSpace::fit(const std::vector<std::vector<double>>& features) {
    const Eigen::MatrixXd x = log_features(features);
    SamplingSpace space;
    if (x.rows() == 0)
        return space;
    space.mean = x.colwise().mean();
    const Eigen::MatrixXd centred = x.rowwise() - space.mean;
    space.sd = (centred.colwise().squaredNorm() / static_cast<double>(x.rows())).cwiseSqrt();
    return space;
}

Eigen::MatrixXd SamplingSpace::transform(const std::vector<std::vector<double>>& features) const {
    Eigen::MatrixXd x = log_features(features);
    if (x.rows() == 0 || x.cols() != mean.size())
        return x;
    x.rowwise() -= mean;
    for (Eigen::Index j = 0; j < x.cols(); ++j)
        x.col(j) =
            sd(j) > 1e-12 ? Eigen::VectorXd(x.col(j) / sd(j)) : Eigen::VectorXd::Zero(x.rows());
    return x;
}

Eigen::MatrixXd sampling_space(const std::vector<std::vector<double>>& features) {
    return SamplingSpace::fit(features).transform(features);
}

std::vector<int> nearest_centroids(const Eigen::MatrixXd& points,
                                   const Eigen::MatrixXd& centroids) {
    std::vector<int> nearest(static_cast<std::size_t>(points.rows()), -1);
    if (centroids.rows() == 0)
        return nearest;
    const Eigen::MatrixXd d = squared_distances(points, centroids);
    for (Eigen::Index i = 0; i < points.rows(); ++i) {
        Eigen::Index c = 0;
        d.row(i).minCoeff(&c);
        nearest[static_cast<std::size_t>(i)] = static_cast<int>(c);
    }
    return nearest;
}

std::vector<SampledKernel> sample_kernels(const std::vector<KernelCandidate>& candidates,
                                          int budget, unsigned seed) {
    if (budget < 1)
        throw InputError("", "--budget", "the budget must be at least 1 kernel");
    std::vector<SampledKernel> distinct;
    std::map<std::string, std::size_t> index;
    for (const auto& c : candidates) {
        const auto [it, added] =
            index.emplace(identity_key(c.cost_class, c.features), distinct.size());
        if (added)
            distinct.push_back({c, 0, 0});
        ++distinct[it->second].occurrences;
    }
    std::vector<SampledKernel> chosen;
    if (budget >= static_cast<int>(distinct.size())) {
        for (auto& d : distinct) {
            d.cluster_size = d.occurrences;
            chosen.push_back(d);
        }
    } else {
        std::vector<std::vector<double>> features;
        std::vector<double> weights;
        for (const auto& d : distinct) {
            features.push_back(d.kernel.features);
            weights.push_back(d.occurrences);
        }
        const Eigen::MatrixXd points = sampling_space(features);
        const auto clusters = kmeans(points, weights, budget, seed);
        const Eigen::MatrixXd d = squared_distances(points, clusters.centroids);
        const int k = static_cast<int>(clusters.centroids.rows());
        std::vector<int> nearest(k, -1), size(k, 0);
        for (std::size_t i = 0; i < distinct.size(); ++i) {
            const int c = clusters.assignment[i];
            size[c] += distinct[i].occurrences;
            if (nearest[c] < 0 || d(i, c) < d(nearest[c], c))
                nearest[c] = static_cast<int>(i);
        }
        for (int c = 0; c < k; ++c)
            if (nearest[c] >= 0) {
                chosen.push_back(distinct[nearest[c]]);
                chosen.back().cluster_size = size[c];
            }
    }
    std::stable_sort(chosen.begin(), chosen.end(),
                     [](const auto& a, const auto& b) { return a.cluster_size > b.cluster_size; });
    return chosen;
}

} // namespace cleave::predict
