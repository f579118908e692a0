// `cleave evaluate-mapping` end to end on resnet18 and the eight-Jetson cluster: split points,
// the same mapping written as mapping.json and read back, and mapping errors (exit 2).
#include "cli_run.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

const QString kResnet18 = QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx";
const QString kCluster = QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/nx8.cluster.json";
const QString kPlatform = QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/nx8.platform.txt";

QJsonObject json_of(const Run& run) {
    return QJsonDocument::fromJson(run.out).object();
}

void write(const QString& path, const QByteArray& text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

} // namespace

class EvaluateMappingCommandTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    // A decoder under a workload: its memory host by host, what binds, the longest context that
    // fits; a context beyond the model's and a workload for a CNN are refused.
    void decoderMemoryUnderAWorkload() {
        const QString folder = dir_.filePath("smol");
        const Run written = run_cleave({"generate-models", "--llm", "smollm2-135m", "--precision",
                                        "int4", "--form", "genai", "--out", folder});
        QVERIFY2(written.exit_code == 0, written.err.constData());
        const QString model = folder + "/smollm2-135m.onnx";
        const QStringList mapping{
            "evaluate-mapping", model,      "--decode", "64",    "--cluster",
            kCluster,           "--points", "100",      "--pes", "nx01_gpu,nx02_gpu"};
        const Run run =
            run_cleave(mapping + QStringList{"--context", "8192", "--sequences", "2", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject root = json_of(run);
        const QJsonObject decoder = root["decoder"].toObject();
        QCOMPARE(decoder["workload"].toObject()["context"].toInt(), 8192);
        QCOMPARE(decoder["workload"].toObject()["sequences"].toInt(), 2);
        QCOMPARE(decoder["phase"].toString(), QString("decode"));
        // One step through both stages and the hop; two in flight keep both stages busy.
        QCOMPARE(decoder["time_per_output_token_ms"].toDouble(), root["latency_ms"].toDouble());
        const double both =
            std::min(2000 / root["latency_ms"].toDouble(), 1000 / root["bottleneck_ms"].toDouble());
        QVERIFY(std::abs(decoder["tokens_per_s"].toDouble() - both) < 1e-9 * both);
        const QJsonObject memory = decoder["memory"].toObject();
        const QJsonArray pools = memory["pools"].toArray();
        QCOMPARE(pools.size(), 2);
        double kv = 0;
        for (const auto& value : pools) {
            const QJsonObject pool = value.toObject();
            kv += pool["memory"].toObject()["kv_cache_bytes"].toDouble();
            QVERIFY(pool["fits"].toBool());
            QCOMPARE(pool["usable_bytes"].toDouble(),
                     8.0 * 1024 * 1024 * 1024 - pool["reserve_bytes"].toDouble());
            QVERIFY(pool["largest_context"].toInt() == 8192); // the model's own limit
        }
        // 30 layers x keys and values x 3 KV heads x 64 x 8,192 tokens x 4 bytes x 2 in flight.
        QCOMPARE(kv, 30.0 * 2 * 3 * 64 * 8192 * 4 * 2);
        QVERIFY(memory["fits"].toBool());
        QVERIFY(memory["binding"].toString().contains("usable"));

        const Run text =
            run_cleave(mapping + QStringList{"--prompt-tokens", "500", "--generate", "300"});
        QVERIFY2(text.exit_code == 0, text.err.constData());
        QVERIFY(text.out.contains("decoder memory at a context of 800 tokens"));
        QVERIFY(text.out.contains("time per output token"));

        // The layers split as distributed-llama splits them: 15 and 15 of 30, cut at a layer.
        const Run equal =
            run_cleave({"evaluate-mapping", model, "--decode", "64", "--cluster", kCluster,
                        "--layers-by", "equal", "--pes", "nx01_gpu,nx02_gpu", "--json"});
        QVERIFY2(equal.exit_code == 0, equal.err.constData());
        const QJsonObject layers = json_of(equal)["layers"].toObject();
        QCOMPARE(layers["rule"].toString(), QString("equal"));
        QCOMPARE(layers["per_pe"].toArray(), (QJsonArray{15, 15}));
        const QJsonArray pes = json_of(equal)["pes"].toArray();
        QCOMPARE(pes.size(), 2);
        const Run with_points =
            run_cleave({"evaluate-mapping", model, "--decode", "64", "--cluster", kCluster,
                        "--layers-by", "equal", "--points", "5", "--pes", "nx01_gpu,nx02_gpu"});
        QCOMPARE(with_points.exit_code, 2);
        QVERIFY(with_points.err.contains("--layers-by"));

        const Run beyond = run_cleave(mapping + QStringList{"--context", "9000"});
        QCOMPARE(beyond.exit_code, 2);
        QVERIFY(beyond.err.contains("--context: at most 8192 tokens"));
        const Run cnn =
            run_cleave({"evaluate-mapping", kResnet18, "--cluster", kCluster, "--points", "10",
                        "--pes", "nx01_gpu,nx02_gpu", "--context", "100"});
        QCOMPARE(cnn.exit_code, 2);
        QVERIFY(cnn.err.contains("a decoder"));

        // The precision it stores; a what-if cannot widen its 4-bit weights, nor go to 3 bits.
        QCOMPARE(decoder["precision"].toObject()["stored"].toString(), QString("int4"));
        QVERIFY(!decoder["precision"].toObject()["what_if"].toBool());
        const Run wider = run_cleave(mapping + QStringList{"--precision", "fp16"});
        QCOMPARE(wider.exit_code, 2);
        QVERIFY2(wider.err.contains("--precision: a model with floating-point weights for a "
                                    "what-if; this one stores them as int4"),
                 wider.err.constData());
        const Run three = run_cleave(mapping + QStringList{"--precision", "int3"});
        QCOMPARE(three.exit_code, 2);
        QVERIFY(three.err.contains("fp32, fp16, int8 or int4, found 'int3'"));
    }

    void splitPointsGivePerPeCostsAndThroughput() {
        const Run run =
            run_cleave({"evaluate-mapping", kResnet18, "--cluster", kCluster, "--points", "10,20",
                        "--pes", "nx01_gpu,nx02_gpu,nx03_gpu", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject root = json_of(run);
        const QJsonArray pes = root["pes"].toArray();
        QCOMPARE(pes.size(), 3);
        double slowest = 0;
        int kernels = 0;
        for (const auto& value : pes) {
            const QJsonObject pe = value.toObject();
            kernels += pe["kernels"].toInt();
            slowest = std::max(slowest, pe["time_ms"].toDouble());
            QVERIFY(pe["compute_ms"].toDouble() > 0);
            QCOMPARE(pe["memory_bytes"].toDouble(), pe["weight_bytes"].toDouble() +
                                                        pe["output_bytes"].toDouble() +
                                                        pe["input_bytes"].toDouble());
            QCOMPARE(pe["memory_capacity_bytes"].toDouble(), 8.0 * 1024 * 1024 * 1024);
            QCOMPARE(pe["busy_power_w"].toDouble(), 15.0);
            QVERIFY(pe["energy_mj"].toDouble() > 0);
        }
        QCOMPARE(pes[0].toObject()["kernels"].toInt(), 10);
        QCOMPARE(kernels, root["kernels"].toInt());
        QCOMPARE(root["bottleneck_ms"].toDouble(), slowest);
        QVERIFY(std::abs(root["throughput_per_s"].toDouble() - 1000 / slowest) < 1e-9);
        const QJsonArray transfers = root["transfers"].toArray();
        QVERIFY(!transfers.isEmpty());
        const QJsonObject first = transfers[0].toObject();
        QCOMPARE(first["from"].toString(), QString("nx01_gpu"));
        QCOMPARE(first["link"].toObject()["bandwidth_gbps"].toDouble(), 1.0);
        QVERIFY(std::abs(first["ms"].toDouble() -
                         (first["bytes"].toDouble() * 8 / 1e9 * 1e3 + 0.1)) < 1e-9);
    }

    void savedMappingReadsBackToTheSameCosts() {
        const QString mapping = dir_.filePath("mapping.json");
        const Run spe =
            run_cleave({"evaluate-mapping", kResnet18, "--cluster", kCluster, "--points", "15",
                        "--pes", "nx04_gpu,nx02_gpu", "--save-mapping", mapping, "--json"});
        QVERIFY2(spe.exit_code == 0, spe.err.constData());
        QFile file(mapping);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject written = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(written.keys(), (QStringList{"nx02_gpu", "nx04_gpu"}));
        // AutoDiCE's naming: the first output's name with '/' -> '_'.
        QVERIFY(written["nx04_gpu"].toArray()[0].toString().startsWith("_"));

        const Run back = run_cleave({"evaluate-mapping", kResnet18, "--cluster", kPlatform,
                                     "--mapping", mapping, "--json"});
        QVERIFY2(back.exit_code == 0, back.err.constData());
        QCOMPARE(json_of(back)["bottleneck_ms"].toDouble(),
                 json_of(spe)["bottleneck_ms"].toDouble());
        QCOMPARE(json_of(back)["transfers"].toArray().size(),
                 json_of(spe)["transfers"].toArray().size());
        QCOMPARE(json_of(back)["pes"].toArray()[0].toObject()["pe"].toString(),
                 QString("nx04_gpu"));
    }

    void mappingWithMissingRepeatedAndUnknownEntriesExitsTwo() {
        const QString bad = dir_.filePath("bad.json");
        write(bad, R"({"nx01_gpu": ["/conv1/Conv", "/conv1/Conv"], "nx99_gpu": ["nothing"]})");
        const Run run =
            run_cleave({"evaluate-mapping", kResnet18, "--cluster", kCluster, "--mapping", bad});
        QCOMPARE(run.exit_code, 2);
        const QString err = QString::fromUtf8(run.err);
        QVERIFY2(err.contains("bad.json"), run.err.constData());
        QVERIFY2(err.contains("keys that are not PEs of the cluster"), run.err.constData());
        QVERIFY2(err.contains("nx99_gpu"), run.err.constData());
        QVERIFY2(err.contains("not in the model"), run.err.constData());
        QVERIFY2(err.contains("nodes mapped more than once (1): /conv1/Conv"), run.err.constData());
        QVERIFY2(err.contains("mapped to no PE"), run.err.constData());
    }

    void badSplitPointsAndPesExitTwo() {
        const QStringList base{"evaluate-mapping", kResnet18, "--cluster", kCluster};
        Run run = run_cleave(
            base + QStringList{"--points", "20,10", "--pes", "nx01_gpu,nx02_gpu,nx03_gpu"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--points"), run.err.constData());
        run = run_cleave(base + QStringList{"--points", "10", "--pes", "nx01_gpu"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("2 segments"), run.err.constData());
        run = run_cleave(base + QStringList{"--points", "10", "--pes", "nx01_gpu,nx01_npu"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("no PE 'nx01_npu'"), run.err.constData());
    }

    void jetsonCpuPeIsCostedOnItsDerivedPeak() {
        // The Carmel CPU's roofline: 182.4 GFLOP/s (derived) against the GPU's 844.8, the same
        // 51.2 GB/s; the same figures whether the cluster is the cluster file or platform.txt.
        for (const QString& cluster : {kCluster, kPlatform}) {
            const Run cpu = run_cleave({"evaluate-mapping", kResnet18, "--cluster", cluster,
                                        "--points", "10", "--pes", "nx01_gpu,nx02_arm012345",
                                        "--json"});
            QVERIFY2(cpu.exit_code == 0, cpu.err.constData());
            const Run gpu = run_cleave({"evaluate-mapping", kResnet18, "--cluster", cluster,
                                        "--points", "10", "--pes", "nx01_gpu,nx02_gpu", "--json"});
            QCOMPARE(gpu.exit_code, 0);
            const QJsonObject on_cpu = json_of(cpu)["pes"].toArray()[1].toObject();
            const QJsonObject on_gpu = json_of(gpu)["pes"].toArray()[1].toObject();
            QCOMPARE(on_cpu["pe"].toString(), QString("nx02_arm012345"));
            QCOMPARE(on_cpu["kernels"].toInt(), 30);
            QVERIFY(std::abs(on_cpu["compute_ms"].toDouble() - 27.751) < 0.001);
            QVERIFY(std::abs(on_gpu["compute_ms"].toDouble() - 7.363) < 0.001);
            QCOMPARE(json_of(cpu)["bottleneck_ms"].toDouble(), on_cpu["time_ms"].toDouble());
        }
    }

    void peWithoutFiguresExitsTwo() {
        // A board whose file gives its CPU no peak: no shipped predictor, no roofline.
        const Run shown = run_cleave({"devices", "show", "jetson-xavier-nx", "--json"});
        QCOMPARE(shown.exit_code, 0);
        QJsonObject device = json_of(shown);
        device["id"] = "my-nx";
        QJsonArray pes = device["processing_elements"].toArray();
        QJsonObject carmel = pes[0].toObject();
        carmel.remove("peak_gflops");
        pes[0] = carmel;
        device["processing_elements"] = pes;
        write(dir_.filePath("my-nx.json"), QJsonDocument(device).toJson());
        const QString cluster = dir_.filePath("my-nx.cluster.json");
        write(cluster, R"({"version": 1, "hosts": [{"host": "nx01", "device": "my-nx.json"},
                                                  {"host": "nx02", "device": "my-nx.json"}]})");
        const Run run = run_cleave({"evaluate-mapping", kResnet18, "--cluster", cluster,
                                    "--points", "10", "--pes", "nx01_gpu,nx02_arm012345"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("nx02_arm012345"), run.err.constData());
        QVERIFY2(run.err.contains("my-nx"), run.err.constData());
        QVERIFY2(run.err.contains("peak FP32 rate"), run.err.constData());
    }

    void givenPredictorServesItsDevicesPes() {
        // A lasso trained on the measured sample (5 CNNs, 1 thread) for xeon-ort-1t.
        const QString predictor = dir_.filePath("xeon-1t.json");
        const Run trained = run_cleave({"train", "--data",
                                        QString(CLEAVE_TEST_DATA_DIR) + "/ort-cpu-xeon-sample.json",
                                        "--models", CLEAVE_EXAMPLE_MODELS_DIR, "--device",
                                        "xeon-ort-1t", "--kind", "lasso", "--out", predictor});
        QVERIFY2(trained.exit_code == 0, trained.err.constData());
        const QString cluster = dir_.filePath("x2.cluster.json");
        write(cluster, R"({"version": 1, "hosts": [{"host": "x1", "device": "xeon-ort-1t"},
                                                  {"host": "x2", "device": "xeon-ort-1t"}]})");
        const QStringList args{
            "evaluate-mapping", kResnet18, "--cluster", cluster, "--points", "10", "--pes",
            "x1_cpu0,x2_cpu0",  "--json"};
        const Run given = run_cleave(args + QStringList{"--predictor", predictor});
        const Run roofline = run_cleave(args); // no shipped lasso: the shipped predictor or none
        QCOMPARE(given.exit_code, 0);
        const double with = json_of(given)["pes"].toArray()[0].toObject()["compute_ms"].toDouble();
        QVERIFY(with > 0);
        if (roofline.exit_code == 0)
            QVERIFY(json_of(roofline)["pes"].toArray()[0].toObject()["compute_ms"].toDouble() !=
                    with);
        // A predictor for a device the cluster does not run.
        const Run other =
            run_cleave({"evaluate-mapping", kResnet18, "--cluster", kCluster, "--points", "10",
                        "--pes", "nx01_gpu,nx02_gpu", "--predictor", predictor});
        QCOMPARE(other.exit_code, 2);
        QVERIFY2(other.err.contains("--predictor"), other.err.constData());
        QVERIFY2(other.err.contains("xeon-ort-1t"), other.err.constData());
    }

    void textOutputNamesBottleneck() {
        const Run run = run_cleave({"evaluate-mapping", kResnet18, "--cluster", kCluster,
                                    "--points", "10", "--pes", "nx01_gpu,nx02_gpu"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY2(run.out.contains("throughput"), run.out.constData());
        QVERIFY2(run.out.contains("nx02_gpu"), run.out.constData());
    }

    void replayAddsStreamLatencyThroughputAndPeakLiveMemory() {
        const QStringList base{
            "evaluate-mapping", kResnet18,  "--cluster", kCluster,
            "--points",         "10,20",    "--pes",     "nx01_gpu,nx02_gpu,nx03_gpu",
            "--replay",         "--inputs", "16"};
        const Run run = run_cleave(base + QStringList{"--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject root = json_of(run);
        const QJsonObject replay = root["replay"].toObject();
        QCOMPARE(replay["inputs"].toInt(), 16);
        QCOMPARE(replay["latency_ms"].toArray().size(), 16);
        // Blocking transfers can only slow the pipeline down, never speed it up.
        const double throughput = replay["throughput_per_s"].toDouble();
        QVERIFY(throughput > 0);
        QVERIFY(throughput <= root["throughput_per_s"].toDouble() * (1 + 1e-9));
        QVERIFY(replay["first_latency_ms"].toDouble() <= replay["mean_latency_ms"].toDouble());
        double compute_ms = 0;
        for (const auto& value : root["pes"].toArray()) {
            const QJsonObject pe = value.toObject();
            compute_ms += pe["compute_ms"].toDouble();
            QVERIFY(pe["peak_live_bytes"].toDouble() >= pe["weight_bytes"].toDouble());
            QVERIFY(pe["peak_live_bytes"].toDouble() < pe["memory_bytes"].toDouble());
        }
        QVERIFY(replay["first_latency_ms"].toDouble() >= compute_ms);
        const QJsonArray pes = replay["pes"].toArray();
        QCOMPARE(pes.size(), 3);
        for (const auto& value : pes) {
            const double utilisation = value.toObject()["utilisation"].toDouble();
            QVERIFY(utilisation > 0 && utilisation <= 1);
        }
        const QJsonArray links = replay["links"].toArray();
        QVERIFY(!links.isEmpty());
        QCOMPARE(links[0].toObject()["hosts"].toArray()[0].toString(), QString("nx01"));

        const Run text = run_cleave(base);
        QCOMPARE(text.exit_code, 0);
        QVERIFY2(text.out.contains("replay of 16 inputs back to back"), text.out.constData());
        QVERIFY2(text.out.contains("peak-live bytes"), text.out.constData());

        const Run none = run_cleave(base + QStringList{"--inputs", "0"});
        QCOMPARE(none.exit_code, 2);
        QVERIFY2(none.err.contains("--inputs"), none.err.constData());
    }
};

QTEST_GUILESS_MAIN(EvaluateMappingCommandTest)
#include "evaluate_mapping_command_test.moc"
