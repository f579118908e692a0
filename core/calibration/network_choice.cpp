#include "network_choice.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace cleave::calibration {

std::vector<int>
KernelClusters::clusters_of(const std::vector<std::vector<double>>& features) const {
    return predict::nearest_centroids(space.transform(features), centroids);
}

KernelClusters cluster_pool_kernels(const std::vector<PoolNetwork>& pool, int k, unsigned seed) {
    // Distinct kernels (same features) once, weighted by how often they occur.
    std::map<std::vector<double>, std::size_t> index;
    std::vector<std::vector<double>> distinct;
    std::vector<double> weights;
    std::vector<std::vector<std::size_t>> of_kernel(pool.size());
    for (std::size_t n = 0; n < pool.size(); ++n)
        for (const auto& features : pool[n].features) {
            const auto [it, added] = index.emplace(features, distinct.size());
            if (added) {
                distinct.push_back(features);
                weights.push_back(0);
            }
            weights[it->second] += 1;
            of_kernel[n].push_back(it->second);
        }
    KernelClusters out;
    out.space = predict::SamplingSpace::fit(distinct);
    const Eigen::MatrixXd points = out.space.transform(distinct);
    const auto result = predict::kmeans(points, weights, std::max(1, k), seed);
    out.centroids = result.centroids;
    out.clusters.resize(pool.size());
    for (std::size_t n = 0; n < pool.size(); ++n)
        for (const auto i : of_kernel[n])
            out.clusters[n].push_back(result.assignment[i]);
    return out;
}

int next_by_coverage(const KernelClusters& clusters, const std::vector<Candidate>& candidates,
                     const std::vector<double>& measured_per_cluster, double per_cluster) {
    int best = -1;
    double best_value = 0;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
        const auto& candidate = candidates[c];
        // Kernels this network adds to each cluster, counted only up to what the cluster lacks.
        std::map<int, double> adds;
        for (const int cluster : clusters.clusters[static_cast<std::size_t>(candidate.network)])
            adds[cluster] += 1;
        double value = 0;
        for (const auto& [cluster, count] : adds)
            value += std::clamp(
                per_cluster - measured_per_cluster[static_cast<std::size_t>(cluster)], 0.0, count);
        value /= std::max(candidate.seconds, 1e-3);
        if (value > best_value) {
            best_value = value;
            best = static_cast<int>(c);
        }
    }
    return best;
}

int next_by_error(const KernelClusters& clusters, const std::vector<Candidate>& candidates,
                  const std::vector<double>& cluster_error, double unknown_error) {
    int best = -1;
    double best_value = -1;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
        const auto& candidate = candidates[c];
        const auto& of_kernel = clusters.clusters[static_cast<std::size_t>(candidate.network)];
        double value = 0;
        for (std::size_t k = 0; k < of_kernel.size() && k < candidate.kernel_us.size(); ++k) {
            const double error = cluster_error[static_cast<std::size_t>(of_kernel[k])];
            value += candidate.kernel_us[k] * (error < 0 ? unknown_error : error);
        }
        value /= std::max(candidate.seconds, 1e-3) * 1e6; // error-weighted share of the time
        if (value > best_value) {
            best_value = value;
            best = static_cast<int>(c);
        }
    }
    return best;
}

std::vector<double> cluster_errors(const std::vector<predict::RunData>& runs,
                                   const KernelClusters& clusters,
                                   const predict::PredictorTrainingOptions& training, int folds) {
    std::vector<double> error_us(static_cast<std::size_t>(clusters.count()), 0);
    std::vector<double> us(static_cast<std::size_t>(clusters.count()), 0);
    std::vector<int> fold(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        fold[i] = static_cast<int>(i % static_cast<std::size_t>(folds));
    std::shuffle(fold.begin(), fold.end(), std::mt19937(training.seed));
    for (int f = 0; f < folds; ++f) {
        std::vector<const predict::RunData*> train;
        for (std::size_t i = 0; i < runs.size(); ++i)
            if (fold[i] != f)
                train.push_back(&runs[i]);
        if (train.size() == runs.size() || train.empty())
            continue;
        const auto predictor = predict::train_predictor(train, training);
        for (std::size_t i = 0; i < runs.size(); ++i) {
            if (fold[i] != f)
                continue;
            std::vector<std::vector<double>> features;
            for (const auto& s : runs[i].samples)
                features.push_back(s.features);
            const auto of_sample = clusters.clusters_of(features);
            const auto predicted = predict::predict_samples(predictor, runs[i].samples);
            for (std::size_t s = 0; s < runs[i].samples.size(); ++s) {
                const auto c = static_cast<std::size_t>(of_sample[s]);
                error_us[c] += std::abs(predicted[s] - runs[i].samples[s].us);
                us[c] += runs[i].samples[s].us;
            }
        }
    }
    std::vector<double> errors(us.size(), -1);
    for (std::size_t c = 0; c < us.size(); ++c)
        if (us[c] > 0)
            errors[c] = error_us[c] / us[c];
    return errors;
}

} // namespace cleave::calibration
