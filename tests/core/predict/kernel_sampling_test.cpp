// Choosing the kernels to profile first on a new device: KMeans on separated blobs, and
// sample_kernels on the kernels of resnet18 and mobilenet_v2 (every distinct kernel once the
// budget covers them, the same choice for the same seed, one kernel per cluster).
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/predict/kernel_sampling.hpp"

#include <QtTest>
#include <map>
#include <random>
#include <set>

using namespace cleave;
using namespace cleave::predict;

namespace {

std::vector<KernelCandidate> candidates_of(const std::vector<std::string>& names) {
    const auto method = fusion::find_fusion_method("ort-cpu");
    std::vector<KernelCandidate> out;
    for (const auto& name : names) {
        const auto model =
            graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/" + name + ".onnx");
        const auto found = kernel_candidates(name, model, fusion::detect_kernels(model, method));
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

using Identity = std::pair<std::string, std::vector<double>>;

Identity identity(const KernelCandidate& c) {
    return {c.cost_class, c.features};
}

} // namespace

class KernelSamplingTest : public QObject {
    Q_OBJECT

    std::vector<KernelCandidate> candidates_;

private slots:
    void initTestCase() {
        candidates_ = candidates_of({"resnet18", "mobilenet_v2"});
        QVERIFY(candidates_.size() > 100);
    }

    void kmeansRecoversSeparatedBlobs() {
        const std::vector<std::pair<double, double>> centres{{0, 0}, {10, 0}, {0, 10}, {10, 10}};
        const int per_blob = 40;
        Eigen::MatrixXd points(centres.size() * per_blob, 2);
        std::mt19937_64 rng(7);
        std::normal_distribution<double> noise(0.0, 0.5);
        for (std::size_t b = 0; b < centres.size(); ++b)
            for (int i = 0; i < per_blob; ++i)
                points.row(b * per_blob + i) << centres[b].first + noise(rng),
                    centres[b].second + noise(rng);
        const std::vector<double> weights(points.rows(), 1.0);
        const auto result = kmeans(points, weights, 4, 3);
        std::set<int> blob_clusters;
        for (std::size_t b = 0; b < centres.size(); ++b) {
            const int cluster = result.assignment[b * per_blob];
            for (int i = 0; i < per_blob; ++i)
                QCOMPARE(result.assignment[b * per_blob + i], cluster);
            blob_clusters.insert(cluster);
            QVERIFY(std::abs(result.centroids(cluster, 0) - centres[b].first) < 0.3);
            QVERIFY(std::abs(result.centroids(cluster, 1) - centres[b].second) < 0.3);
        }
        QCOMPARE(blob_clusters.size(), centres.size());
    }

    void budgetCoveringEveryKernelReturnsEachOnce() {
        std::set<Identity> distinct;
        for (const auto& c : candidates_)
            distinct.insert(identity(c));
        QVERIFY(distinct.size() < candidates_.size()); // resnet18 repeats its blocks
        const auto chosen = sample_kernels(candidates_, 100000, 1);
        QCOMPARE(chosen.size(), distinct.size());
        std::set<Identity> seen;
        int occurrences = 0;
        for (const auto& s : chosen) {
            QVERIFY(seen.insert(identity(s.kernel)).second);
            QCOMPARE(s.cluster_size, s.occurrences);
            occurrences += s.occurrences;
        }
        QCOMPARE(occurrences, static_cast<int>(candidates_.size()));
    }

    void sameSeedGivesSameChoice() {
        const auto a = sample_kernels(candidates_, 12, 5);
        const auto b = sample_kernels(candidates_, 12, 5);
        QCOMPARE(a.size(), std::size_t(12));
        QCOMPARE(b.size(), a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].kernel.model, b[i].kernel.model);
            QCOMPARE(a[i].kernel.kernel, b[i].kernel.kernel);
            QCOMPARE(a[i].cluster_size, b[i].cluster_size);
        }
    }

    void chosenKernelsComeFromDistinctClusters() {
        const int budget = 10;
        const unsigned seed = 2;
        const auto chosen = sample_kernels(candidates_, budget, seed);
        QCOMPARE(static_cast<int>(chosen.size()), budget);
        // The clustering sample_kernels runs: distinct kernels in first-seen order, weighted by
        // their occurrences, in the log1p-standardised space.
        std::map<Identity, int> index;
        std::vector<std::vector<double>> features;
        std::vector<double> weights;
        for (const auto& c : candidates_) {
            const auto [it, added] = index.emplace(identity(c), static_cast<int>(features.size()));
            if (added) {
                features.push_back(c.features);
                weights.push_back(0);
            }
            weights[it->second] += 1;
        }
        const auto clusters = kmeans(sampling_space(features), weights, budget, seed);
        std::set<int> clusters_seen;
        int covered = 0;
        for (std::size_t i = 0; i < chosen.size(); ++i) {
            const int cluster = clusters.assignment[index.at(identity(chosen[i].kernel))];
            QVERIFY(clusters_seen.insert(cluster).second);
            covered += chosen[i].cluster_size;
            if (i > 0)
                QVERIFY(chosen[i - 1].cluster_size >= chosen[i].cluster_size);
        }
        QCOMPARE(covered, static_cast<int>(candidates_.size()));
    }

    void budgetBelowOneIsRefused() {
        QVERIFY_THROWS_EXCEPTION(InputError, sample_kernels(candidates_, 0, 1));
    }
};

QTEST_GUILESS_MAIN(KernelSamplingTest)
#include "kernel_sampling_test.moc"
