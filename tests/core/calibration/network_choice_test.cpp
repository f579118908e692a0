// Choosing what to measure next: kernels are clustered over the whole pool; coverage takes the
// network that fills the most clusters still short of kernels per second of measuring, and stops
// when none fills any; the error-driven choice takes the network whose time lies most in clusters
// a predictor gets wrong.
#include "core/calibration/network_choice.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/model_specs.hpp"

#include <QtTest>

using namespace cleave;

namespace {

calibration::PoolNetwork network(const modelgen::ModelSpec& spec) {
    modelgen::NetBuilder b(spec.name, spec.input_shape, 1);
    spec.build(b);
    const std::string bytes = b.model().SerializeAsString();
    return calibration::pool_network(
        spec.name, spec.category, spec.name + ".onnx",
        graph::load_model_from_bytes({bytes.begin(), bytes.end()}, spec.name + ".onnx"),
        fusion::find_fusion_method("ort-cpu"), false);
}

// Three one-conv networks and a MobileNetV2 of many kernels.
std::vector<calibration::PoolNetwork> pool() {
    std::vector<calibration::PoolNetwork> out;
    for (const auto& spec : modelgen::benchmark_suite())
        if (spec.name == "affinity_conv1x1" || spec.name == "affinity_conv7x7" ||
            spec.name == "affinity_depthwise3x3" || spec.name == "mobilenet_v2_w100_r96")
            out.push_back(network(spec));
    return out;
}

int index_of(const std::vector<calibration::PoolNetwork>& pool, const std::string& name) {
    for (std::size_t i = 0; i < pool.size(); ++i)
        if (pool[i].name == name)
            return static_cast<int>(i);
    return -1;
}

std::vector<calibration::Candidate> candidates(const std::vector<calibration::PoolNetwork>& pool,
                                               const std::vector<double>& seconds) {
    std::vector<calibration::Candidate> out;
    for (std::size_t i = 0; i < pool.size(); ++i)
        out.push_back({static_cast<int>(i), seconds[i],
                       std::vector<double>(pool[i].kernels.kernels.size(), 100.0)});
    return out;
}

} // namespace

class NetworkChoiceTest : public QObject {
    Q_OBJECT

private slots:
    void everyKernelOfThePoolHasACluster() {
        const auto p = pool();
        const auto clusters = calibration::cluster_pool_kernels(p, 8, 1);
        QCOMPARE(clusters.count(), 8);
        QCOMPARE(clusters.clusters.size(), p.size());
        for (std::size_t n = 0; n < p.size(); ++n) {
            QCOMPARE(clusters.clusters[n].size(), p[n].kernels.kernels.size());
            for (const int c : clusters.clusters[n])
                QVERIFY(c >= 0 && c < 8);
        }
    }

    void coverageTakesTheNetworkFillingMostClustersPerSecond() {
        const auto p = pool();
        const auto clusters = calibration::cluster_pool_kernels(p, 8, 1);
        const std::vector<double> none(8, 0);
        const int mobilenet = index_of(p, "mobilenet_v2_w100_r96");
        // At equal cost the network of many kinds of kernel fills the most clusters.
        QCOMPARE(calibration::next_by_coverage(clusters, candidates(p, {1, 1, 1, 1}), none, 3),
                 mobilenet);
        // At a hundred times the cost a single conv fills more per second.
        std::vector<double> seconds(p.size(), 1);
        seconds[static_cast<std::size_t>(mobilenet)] = 100;
        QVERIFY(calibration::next_by_coverage(clusters, candidates(p, seconds), none, 3) !=
                mobilenet);
        // Clusters holding enough kernels already bring nothing.
        const std::vector<double> full(8, 3);
        QCOMPARE(calibration::next_by_coverage(clusters, candidates(p, {1, 1, 1, 1}), full, 3), -1);
    }

    void errorTakesTheNetworkWhoseTimeLiesInWrongClusters() {
        const auto p = pool();
        // As many clusters as distinct kernels: each single conv has a cluster of its own.
        const auto clusters = calibration::cluster_pool_kernels(p, 1000, 1);
        const int seven = index_of(p, "affinity_conv7x7");
        const int one = index_of(p, "affinity_conv1x1");
        const auto k = static_cast<std::size_t>(clusters.count());
        QVERIFY(clusters.clusters[static_cast<std::size_t>(seven)][0] !=
                clusters.clusters[static_cast<std::size_t>(one)][0]);
        std::vector<double> errors(k, 0.01);
        errors[static_cast<std::size_t>(clusters.clusters[static_cast<std::size_t>(seven)][0])] =
            0.9;
        auto list = candidates(p, {1, 1, 1, 1});
        list.erase(list.begin() + index_of(p, "mobilenet_v2_w100_r96"));
        const int chosen = calibration::next_by_error(clusters, list, errors, 0.5);
        QCOMPARE(list[static_cast<std::size_t>(chosen)].network, seven);
        // A cluster nothing measured shows counts as the unknown error.
        std::vector<double> unknown(k, 0.01);
        unknown[static_cast<std::size_t>(clusters.clusters[static_cast<std::size_t>(one)][0])] = -1;
        const int picked = calibration::next_by_error(clusters, list, unknown, 0.5);
        QCOMPARE(list[static_cast<std::size_t>(picked)].network, one);
        QCOMPARE(calibration::next_by_error(clusters, {}, errors, 0.5), -1);
    }
};

QTEST_GUILESS_MAIN(NetworkChoiceTest)
#include "network_choice_test.moc"
