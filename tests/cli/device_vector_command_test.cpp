// `cleave device-vector` and the grouping it feeds: vectors from measured data files (a device
// named on the command line), `cleave group --features hp|ha --vectors` with the serving
// simulation, and exit 2 with a precise message for bad input.
#include "cli_run.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;
using cleave::test::written;

const QString kSample = QString(CLEAVE_TEST_DATA_DIR) + "/ort-cpu-xeon-sample.json";

// The sample with every end-to-end time multiplied by `factor`.
QByteArray scaled_sample(double factor) {
    QFile file(kSample);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    QJsonArray runs = root["runs"].toArray();
    for (auto&& value : runs) {
        QJsonObject run = value.toObject();
        QJsonArray times;
        for (const auto& t : run["e2e_ms"].toArray())
            times.append(t.toDouble() * factor);
        run["e2e_ms"] = times;
        value = run;
    }
    root["runs"] = runs;
    return QJsonDocument(root).toJson();
}

} // namespace

class DeviceVectorCommandTest : public QObject {
    Q_OBJECT

private slots:
    void vectorsFeedGroupingAndServing() {
        QTemporaryDir dir;
        const QString slow = written(dir, "slow.json", scaled_sample(4.0));
        const QString vectors = dir.filePath("vectors.json");
        const Run made =
            run_cleave({"device-vector", "--data", "xeon-ort-4t=" + kSample, "xeon-ort-1t=" + slow,
                        "--models", CLEAVE_EXAMPLE_MODELS_DIR, "--out", vectors, "--json"});
        QCOMPARE(made.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(made.out).object();
        QCOMPARE(root["format"].toString(), QString("cleave-device-vectors"));
        QCOMPARE(root["benchmarks"].toArray().size(), 5);
        const QJsonObject devices = root["devices"].toObject();
        QCOMPARE(devices.keys(), (QStringList{"xeon-ort-1t", "xeon-ort-4t"}));
        const double fast = devices["xeon-ort-4t"].toObject()["hp_ms"].toArray()[0].toDouble();
        const double slow_ms = devices["xeon-ort-1t"].toObject()["hp_ms"].toArray()[0].toDouble();
        QVERIFY(std::abs(slow_ms - 4 * fast) < 1e-9 * slow_ms);
        QVERIFY(QFile::exists(vectors));

        // Two fast and eight slow hosts (4x slower): by HA (HP rates, and HE shares, the same for
        // both devices, so they count hosts) each of two groups gets one fast host and four slow
        // ones: equal rates, equal sizes.
        QByteArray cluster = R"({"version": 1, "hosts": [
            {"host": "f1", "device": "xeon-ort-4t"}, {"host": "f2", "device": "xeon-ort-4t"})";
        for (int i = 1; i <= 8; ++i)
            cluster +=
                ", {\"host\": \"s" + QByteArray::number(i) + "\", \"device\": \"xeon-ort-1t\"}";
        cluster += "]}";
        const QString cluster_file = written(dir, "c.cluster.json", cluster);
        const QString workload = root["benchmarks"].toArray()[0].toString();
        const Run grouped = run_cleave({"group", "--cluster", cluster_file, "--groups", "2",
                                        "--features", "ha", "--vectors", vectors, "--serve-rates",
                                        "5,10", "--workload", workload, "--batch", "2", "--json"});
        QCOMPARE(grouped.exit_code, 0);
        const QJsonObject result = QJsonDocument::fromJson(grouped.out).object();
        for (const auto& group : result["groups"].toArray()) {
            const QJsonArray hosts = group.toObject()["hosts"].toArray();
            QCOMPARE(hosts.size(), 5);
            int fast_hosts = 0;
            for (const auto& h : hosts)
                fast_hosts += h.toString().startsWith('f');
            QCOMPARE(fast_hosts, 1);
        }
        const QJsonObject serving = result["serving"].toObject();
        QCOMPARE(serving["workload"].toString(), workload);
        const QJsonArray runs = serving["runs"].toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[1].toObject()["rate_per_s"].toDouble(), 10.0);
        const QJsonArray groups = runs[0].toObject()["groups"].toArray();
        QCOMPARE(groups.size(), 2);
        QVERIFY(std::abs(groups[0].toObject()["images_per_s"].toDouble() -
                         groups[1].toObject()["images_per_s"].toDouble()) < 1e-6);
        QVERIFY(groups[0].toObject()["tasks"].toInt() > 0);
    }

    void badInputExitsTwo() {
        QTemporaryDir dir;
        const Run unknown = run_cleave({"device-vector", "--data", "no-such-device=" + kSample,
                                        "--models", CLEAVE_EXAMPLE_MODELS_DIR});
        QCOMPARE(unknown.exit_code, 2);
        QVERIFY(unknown.err.contains("no-such-device"));
        const Run one = run_cleave({"device-vector", "--data", "xeon-ort-1t=" + kSample, "--models",
                                    CLEAVE_EXAMPLE_MODELS_DIR});
        QCOMPARE(one.exit_code, 2);
        QVERIFY(one.err.contains("at least two"));
        const Run unclaimed =
            run_cleave({"device-vector", "--data", kSample, "--models", CLEAVE_EXAMPLE_MODELS_DIR});
        QCOMPARE(unclaimed.exit_code, 2);
        QVERIFY(unclaimed.err.contains("DEVICE=FILE"));
        const QString cluster = QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/mixed4.cluster.json";
        const Run no_vectors =
            run_cleave({"group", "--cluster", cluster, "--groups", "2", "--features", "ha"});
        QCOMPARE(no_vectors.exit_code, 2);
        QVERIFY(no_vectors.err.contains("--vectors"));
        const Run no_workload = run_cleave({"group", "--cluster", cluster, "--groups", "2",
                                            "--features", "flops", "--serve-rates", "100"});
        QCOMPARE(no_workload.exit_code, 2);
        QVERIFY(no_workload.err.contains("--workload"));
        const QString bad = written(dir, "v.json", R"({"format": "something-else"})");
        const Run bad_file = run_cleave(
            {"group", "--cluster", cluster, "--groups", "2", "--features", "hp", "--vectors", bad});
        QCOMPARE(bad_file.exit_code, 2);
        QVERIFY(bad_file.err.contains("v.json"));
        QVERIFY(bad_file.err.contains("/format"));
    }
};

QTEST_GUILESS_MAIN(DeviceVectorCommandTest)
#include "device_vector_command_test.moc"
