// Which network a calibration measures next. First by coverage (CDMPP, Alg. 1): the pool's
// kernels are clustered with KMeans over their features, and networks are taken by how many
// clusters still short of measured kernels they reach, per second of measuring. Then by error
// (nn-Meter's adaptive sampling): more samples where a predictor trained on what was measured
// errs most, judged on kernels it was not trained on.
#pragma once

#include "calibration_pool.hpp"
#include "core/predict/kernel_sampling.hpp"
#include "core/predict/predictor_training.hpp"

#include <vector>

namespace cleave::calibration {

struct KernelClusters {
    predict::SamplingSpace space;
    Eigen::MatrixXd centroids;              // clusters x features
    std::vector<std::vector<int>> clusters; // per pool network, per kernel: its cluster

    int count() const { return static_cast<int>(centroids.rows()); }
    // The cluster of each kernel with these features (kernel_features).
    std::vector<int> clusters_of(const std::vector<std::vector<double>>& features) const;
};

// KMeans with k clusters over the distinct kernels of the pool (kernel_sampling's space).
KernelClusters cluster_pool_kernels(const std::vector<PoolNetwork>& pool, int k, unsigned seed);

// A network the choice may take, with what measuring it is expected to cost.
struct Candidate {
    int network = -1;              // index into the pool
    double seconds = 0;            // expected time to measure it
    std::vector<double> kernel_us; // expected time of each of its kernels
};

// The candidate that brings the most measured kernels to clusters holding fewer than
// `per_cluster` of them, per expected second; -1 when none brings any. `measured_per_cluster`
// counts the measured kernels in each cluster.
int next_by_coverage(const KernelClusters& clusters, const std::vector<Candidate>& candidates,
                     const std::vector<double>& measured_per_cluster, double per_cluster);

// The candidate with the most expected error per expected second: over its kernels, the
// kernel's expected time times its cluster's error (`cluster_error`, a relative error; negative
// where nothing measured shows it, which counts as `unknown_error`). -1 without candidates.
int next_by_error(const KernelClusters& clusters, const std::vector<Candidate>& candidates,
                  const std::vector<double>& cluster_error, double unknown_error);

// Per cluster, the time-weighted mean absolute relative error of predictions for measured
// kernels from predictors trained without their network (`folds`-fold over networks); -1 where
// no measured kernel falls. What next_by_error weighs kernels by.
std::vector<double> cluster_errors(const std::vector<predict::RunData>& runs,
                                   const KernelClusters& clusters,
                                   const predict::PredictorTrainingOptions& training, int folds);

} // namespace cleave::calibration
