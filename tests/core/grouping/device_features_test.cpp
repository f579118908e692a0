// The per-device feature vectors balanced grouping evens out: peak FP32 and the datasheet
// configuration vector from a cluster's device specs, vectors read from a file with every mistake
// named by its JSON pointer, and each feature scaled by its largest magnitude.
#include "../library_cluster.hpp"
#include "core/grouping/device_features.hpp"
#include "core/input_error.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace cleave;
using FeatureMatrix = std::vector<std::vector<double>>;

class DeviceFeaturesTest : public QObject {
    Q_OBJECT

private slots:
    void flopsSumsPeakFp32OverProcessingElements() {
        const auto table = grouping::flops_features(test::library_cluster(
            {"jetson-orin-nano", "nvidia-t4", "raspberry-pi-4", "xeon-ort-1t"}));
        QCOMPARE(table.features, (std::vector<std::string>{"fp32_gflops"}));
        QCOMPARE(table.hosts, (std::vector<std::string>{"h1", "h2", "h3", "h4"}));
        QCOMPARE(table.values[0][0], 144.0 + 1280.0); // CPU and GPU
        QCOMPARE(table.values[1][0], 8100.0);
        QCOMPARE(table.values[2][0], 48.0); // the Pi 4's derived 4 x 1.5 GHz x 8
        QCOMPARE(table.values[3][0], 0.0);  // a measured device carries no datasheet figures
        QCOMPARE(table.notes.size(), std::size_t(1));
        QVERIFY(table.notes[0].starts_with("h4 (xeon-ort-1t): no fp32 peak"));
    }

    void configIsTheDatasheetVector() {
        const auto table =
            grouping::config_features(test::library_cluster({"jetson-xavier-nx", "nvidia-v100"}));
        QCOMPARE(table.features,
                 (std::vector<std::string>{"cpu_cores", "cpu_core_ghz", "gpu_sms", "gpu_cuda_cores",
                                           "memory_bandwidth_gbs", "memory_capacity_gib"}));
        const std::vector<double> nx{6, 6 * 1.9, 6, 384, 51.2, 8};
        const std::vector<double> v100{0, 0, 80, 5120, 900, 32};
        for (std::size_t f = 0; f < nx.size(); ++f) {
            QVERIFY(std::abs(table.values[0][f] - nx[f]) < 1e-12);
            QCOMPARE(table.values[1][f], v100[f]);
        }
        QVERIFY(table.notes.empty());
    }

    void normalisingDividesEachFeatureByItsLargestMagnitude() {
        const auto result = grouping::normalised({{2, 0, -4}, {8, 0, 1}});
        QCOMPARE(result, (FeatureMatrix{{0.25, 0, -1}, {1, 0, 0.25}}));
        QCOMPARE(grouping::feature_scales({{2, 0, -4}, {8, 0, 1}}), (std::vector<double>{8, 0, 4}));
    }

    void unknownFeatureSetIsAnInputError() {
        const auto cluster = test::library_cluster({"jetson-nano"});
        try {
            grouping::cluster_features(cluster, "hp");
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.place()), QString("--features"));
            QVERIFY(e.problem().find("expected one of flops, config") != std::string::npos);
        }
    }

    void featureSetsAreChosenByName() {
        const auto cluster = test::library_cluster({"jetson-xavier-nx", "nvidia-v100"});
        const auto flops = grouping::cluster_features(cluster, "flops");
        QCOMPARE(QString::fromStdString(flops.set), QString("flops"));
        QCOMPARE(flops.values, grouping::flops_features(cluster).values);
        QCOMPARE(flops.devices, (std::vector<std::string>{"jetson-xavier-nx", "nvidia-v100"}));
        const auto config = grouping::cluster_features(cluster, "config");
        QCOMPARE(config.values, grouping::config_features(cluster).values);
        QCOMPARE(config.features.size(), std::size_t{6});
        // The caller names the place of a wrong name.
        try {
            grouping::cluster_features(cluster, "speed", "/grouping/features");
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.place()), QString("/grouping/features"));
            QVERIFY(e.problem().starts_with("unknown feature set \"speed\""));
        }
    }

    void featuresFileGivesEachHostItsVector() {
        QTemporaryDir dir;
        const auto cluster = test::library_cluster({"jetson-nano", "nvidia-t4"});
        const auto write = [&](const char* text) {
            const std::string path = dir.filePath("f.json").toStdString();
            std::ofstream(path) << text;
            return path;
        };
        auto table =
            grouping::features_from_file(write(R"({"h2": [3, 4], "h1": [1, 2]})"), cluster);
        QCOMPARE(table.values, (FeatureMatrix{{1, 2}, {3, 4}}));
        QCOMPARE(table.features, (std::vector<std::string>{"f0", "f1"}));
        table = grouping::features_from_file(
            write(
                R"({"features": ["hp_resnet", "hp_vgg"], "hosts": {"h1": [1, 2], "h2": [3, 4]}})"),
            cluster);
        QCOMPARE(table.features, (std::vector<std::string>{"hp_resnet", "hp_vgg"}));

        const auto place_of = [&](const char* text) -> QString {
            try {
                grouping::features_from_file(write(text), cluster);
            } catch (const InputError& e) {
                return QString::fromStdString(e.place() + ": " + e.problem());
            }
            return "no error";
        };
        QVERIFY(place_of(R"({"h1": [1, 2]})").startsWith("/h2: missing"));
        QVERIFY(
            place_of(R"({"h1": [1, 2], "h2": [3]})").startsWith("/h2: has 1 numbers; expected 2"));
        QVERIFY(place_of(R"({"h1": [1, "x"], "h2": [3, 4]})")
                    .startsWith("/h1/1: expected a finite number"));
        QVERIFY(place_of(R"({"h1": [1], "h2": [3], "h9": [1]})").startsWith("/h9: not a host"));
        QVERIFY(place_of(R"([1, 2])").startsWith("/: expected an object"));
    }

    void namedFeaturesFixTheVectorLength() {
        QTemporaryDir dir;
        const auto cluster = test::library_cluster({"jetson-nano", "nvidia-t4"});
        const std::string path = dir.filePath("f.json").toStdString();
        std::ofstream(path) << R"({"features": ["a", "b"], "hosts": {"h1": [1], "h2": [3]}})";
        try {
            grouping::features_from_file(path, cluster);
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(path));
            QCOMPARE(QString::fromStdString(e.place() + ": " + e.problem()),
                     QString("/hosts/h1: has 1 numbers; expected 2 like the feature names"));
        }
        std::ofstream(path) << R"({"hosts": {"h1": [1], "h2": [3]}, "groups": 2})";
        try {
            grouping::features_from_file(path, cluster);
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.place()), QString("/groups"));
        }
    }
};

QTEST_GUILESS_MAIN(DeviceFeaturesTest)
#include "device_features_test.moc"
