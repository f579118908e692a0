// Which kernels to profile first on a new device (CDMPP, Alg. 1): the distinct kernels of some
// models clustered by their features (log1p, standardised) with KMeans, k = the profiling
// budget, and per cluster the kernel nearest its centroid, so a few profiled kernels cover the
// feature space a predictor has to learn.
#pragma once

#include "core/fusion/kernel_graph.hpp"

#include <Eigen/Dense>
#include <string>
#include <vector>

namespace cleave::predict {

struct KMeansResult {
    Eigen::MatrixXd centroids;   // k x features
    std::vector<int> assignment; // per point, its cluster
    int iterations = 0;          // Lloyd iterations run
};

// Weighted KMeans on the rows of `points`: k-means++ seeding from `seed`, then Lloyd iterations
// until no point changes cluster or `max_iterations`. k is capped at the number of rows; a
// weight counts a point that many times. Throws std::invalid_argument for k < 1.
KMeansResult kmeans(const Eigen::MatrixXd& points, const std::vector<double>& weights, int k,
                    unsigned seed, int max_iterations = 100);

struct KernelCandidate {
    std::string model;  // the model it was found in
    std::string kernel; // fusion::Kernel::name
    std::string cost_class;
    std::vector<double> features; // kernel_features
};

// Every kernel of `kernels` as a candidate, named for `model_name`.
std::vector<KernelCandidate> kernel_candidates(const std::string& model_name,
                                               const graph::Model& model,
                                               const fusion::KernelGraph& kernels);

struct SampledKernel {
    KernelCandidate kernel; // its first occurrence among the candidates
    int occurrences = 0;    // candidates with its cost class and features
    int cluster_size = 0;   // candidates in its cluster, occurrences counted
};

// The kernels to profile: candidates with the same cost class and features count as one
// kernel; KMeans with k = min(budget, distinct kernels); per cluster the member nearest its
// centroid. Ordered by cluster size, largest first. Throws InputError for budget < 1.
std::vector<SampledKernel> sample_kernels(const std::vector<KernelCandidate>& candidates,
                                          int budget, unsigned seed);

// The features as KMeans sees them: log1p, then each column standardised over the rows it was
// fitted to (a constant column becomes 0), so other kernels can be placed among them.
struct SamplingSpace {
    Eigen::RowVectorXd mean; // of log1p(feature), per column
    Eigen::RowVectorXd sd;
    static SamplingSpace fit(const std::vector<std::vector<double>>& features);
    Eigen::MatrixXd transform(const std::vector<std::vector<double>>& features) const;
};
Eigen::MatrixXd sampling_space(const std::vector<std::vector<double>>& features);

// Per row of `points`, the index of its nearest centroid (-1 without centroids).
std::vector<int> nearest_centroids(const Eigen::MatrixXd& points, const Eigen::MatrixXd& centroids);

} // namespace cleave::predict
