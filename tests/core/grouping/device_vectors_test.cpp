// Arch2End device vectors (HP, HE, HA) from measured runs, their file, and the grouping features
// built from them.
#include "../library_cluster.hpp"
#include "../measured_sample.hpp"
#include "core/device/device_library.hpp"
#include "core/grouping/device_vectors.hpp"
#include "core/input_error.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <numeric>

using namespace cleave;

namespace {

grouping::DeviceRuns runs_of(const std::string& device, const profile::MeasuredDataset& data) {
    grouping::DeviceRuns runs{device, data.file, {}};
    for (const auto& run : data.runs)
        runs.runs.push_back(&run);
    return runs;
}

// The sample's runs with every time multiplied by `factor`, or set to `constant_ms`.
profile::MeasuredDataset scaled(const profile::MeasuredDataset& data, double factor,
                                double constant_ms = 0) {
    auto copy = data;
    for (auto& run : copy.runs)
        for (auto& ms : run.e2e_ms)
            ms = constant_ms > 0 ? constant_ms : ms * factor;
    return copy;
}

} // namespace

class DeviceVectorsTest : public QObject {
    Q_OBJECT

private slots:
    void libraryDevicesClaimTheirRuns() {
        profile::MeasuredDataset data;
        data.file = "/somewhere/ort-cpu-xeon.json.xz";
        for (const int threads : {1, 4, 3, 4}) {
            profile::MeasuredRun run;
            run.model = "resnet18";
            run.threads = threads;
            run.e2e_ms = {1.0};
            data.runs.push_back(run);
        }
        const auto found = grouping::measured_devices(data, device::library_devices());
        QCOMPARE(found.size(), std::size_t{2});
        QCOMPARE(found[0].device, std::string("xeon-ort-1t"));
        QCOMPARE(found[0].runs.size(), std::size_t{1});
        QCOMPARE(found[1].device, std::string("xeon-ort-4t"));
        QCOMPARE(found[1].runs.size(), std::size_t{2}); // the 3-thread run has no device
        data.file = "elsewhere.json";
        QVERIFY(grouping::measured_devices(data, device::library_devices()).empty());
    }

    void vectorsFollowTheMeasuredTimes() {
        const test::MeasuredSample sample;
        const auto twice = scaled(sample.data, 2.0);
        const auto flat = scaled(sample.data, 1.0, 3.0);
        profile::RunModels models(CLEAVE_EXAMPLE_MODELS_DIR, true);
        const auto vectors = grouping::compute_device_vectors(
            {runs_of("a", sample.data), runs_of("b", twice), runs_of("c", flat)}, models);
        QCOMPARE(vectors.devices, (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(vectors.benchmarks.size(), sample.data.runs.size());
        QVERIFY(std::find(vectors.benchmarks.begin(), vectors.benchmarks.end(),
                          "resnet18@1x3x224x224") != vectors.benchmarks.end());
        // HP: the medians, benchmark by benchmark.
        for (std::size_t b = 0; b < vectors.benchmarks.size(); ++b) {
            QVERIFY(std::abs(vectors.hp_ms[1][b] - 2 * vectors.hp_ms[0][b]) < 1e-9);
            QCOMPARE(vectors.hp_ms[2][b], 3.0);
        }
        // HE: the fixed part plus at most 4 selected features; shares sum to 1 and do not
        // depend on the device's speed, only on what its time follows.
        QCOMPARE(vectors.he_features.front(), std::string("fixed_ms"));
        QVERIFY(vectors.he_features.size() >= 2 && vectors.he_features.size() <= 5);
        for (const auto& shares : vectors.he) {
            QVERIFY(std::abs(std::accumulate(shares.begin(), shares.end(), 0.0) - 1) < 1e-9);
            for (const double s : shares)
                QVERIFY(s >= 0);
        }
        for (std::size_t j = 0; j < vectors.he_features.size(); ++j)
            QVERIFY(std::abs(vectors.he[0][j] - vectors.he[1][j]) < 1e-6);
        QVERIFY(std::abs(vectors.he_fit_mape[0] - vectors.he_fit_mape[1]) < 1e-6);
        // A device that takes 3 ms whatever the model: all fixed, fitted exactly.
        QVERIFY(std::abs(vectors.he[2][0] - 1) < 1e-9);
        QVERIFY(vectors.he_fit_mape[2] < 1e-6);
        // The measured Xeon's time follows the model's work: a fit within 25% on 5 CNNs.
        QVERIFY2(vectors.he_fit_mape[0] < 25, std::to_string(vectors.he_fit_mape[0]).c_str());
        QVERIFY(vectors.he[0][0] < 0.5);

        // The file round trip.
        QTemporaryDir dir;
        const auto path = dir.filePath("vectors.json").toStdString();
        grouping::save_device_vectors(vectors, path);
        const auto loaded = grouping::load_device_vectors(path);
        QCOMPARE(loaded.devices, vectors.devices);
        QCOMPARE(loaded.benchmarks, vectors.benchmarks);
        QCOMPARE(loaded.hp_ms, vectors.hp_ms);
        QCOMPARE(loaded.he_features, vectors.he_features);
    }

    void tooFewSharedBenchmarksIsAnError() {
        const test::MeasuredSample sample;
        auto two = sample.data;
        two.runs.resize(2);
        profile::RunModels models(CLEAVE_EXAMPLE_MODELS_DIR, true);
        try {
            grouping::compute_device_vectors({runs_of("a", sample.data), runs_of("b", two)},
                                             models);
            QFAIL("expected an InputError");
        } catch (const InputError& e) {
            QVERIFY(std::string(e.what()).find("share 2 measured runs") != std::string::npos);
        }
        QVERIFY_THROWS_EXCEPTION(
            InputError, grouping::compute_device_vectors({runs_of("a", sample.data)}, models));
    }

    void featuresAndWorkloadComeFromEachHostsDevice() {
        grouping::DeviceVectors vectors;
        vectors.devices = {"xeon-ort-1t", "xeon-ort-4t"};
        vectors.files = {"x", "x"};
        vectors.benchmarks = {"m@1x3x224x224", "n@1x3x224x224"};
        vectors.hp_ms = {{10, 20}, {4, 5}};
        vectors.he_features = {"fixed_ms", "macs"};
        vectors.he = {{0.1, 0.9}, {0.3, 0.7}};
        vectors.he_fit_mape = {1, 2};
        const auto cluster = test::library_cluster({"xeon-ort-4t", "xeon-ort-1t", "xeon-ort-4t"});
        const auto hp = grouping::vector_features(cluster, vectors, "hp", "v.json");
        QCOMPARE(hp.values[0], (std::vector<double>{250, 200}));
        QCOMPARE(hp.values[1], (std::vector<double>{100, 50}));
        const auto ha = grouping::vector_features(cluster, vectors, "ha", "v.json");
        QCOMPARE(ha.features.size(), std::size_t{4});
        QCOMPARE(ha.values[1], (std::vector<double>{100, 50, 0.1, 0.9}));
        QCOMPARE(grouping::host_benchmark_ms(cluster, vectors, "n@1x3x224x224", "v.json", "w"),
                 (std::vector<double>{5, 20, 5}));
        QVERIFY_THROWS_EXCEPTION(
            InputError, grouping::host_benchmark_ms(cluster, vectors, "zzz", "v.json", "w"));
        try {
            grouping::vector_features(test::library_cluster({"raspberry-pi-4"}), vectors, "he",
                                      "v.json");
            QFAIL("expected an InputError");
        } catch (const InputError& e) {
            const std::string what = e.what();
            QVERIFY(what.find("v.json") != std::string::npos);
            QVERIFY(what.find("raspberry-pi-4") != std::string::npos);
        }
    }

    void badVectorsFileNamesThePlace() {
        QTemporaryDir dir;
        const auto path = dir.filePath("v.json").toStdString();
        std::ofstream(path) << R"({"format": "cleave-device-vectors", "version": 1,
            "benchmarks": ["a", "b"], "he_features": ["fixed_ms"],
            "devices": {"d": {"hp_ms": [1, -2], "he": [1]}}})";
        try {
            grouping::load_device_vectors(path);
            QFAIL("expected an InputError");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("/devices/d/hp_ms/1") != std::string::npos,
                     e.what());
        }
    }
};

QTEST_GUILESS_MAIN(DeviceVectorsTest)
#include "device_vectors_test.moc"
