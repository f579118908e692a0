// `cleave dse --exact` end to end on generated decoders: the exact plans beside the runtimes'
// rules (none better than the exact ones by the program's own figures, every one fitting), the
// NSGA-II search held to the layers within 1% of them, the library's devices ranked as one more
// host, and the workload and clusters it refuses (exit 2).
#include "cli_run.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

QJsonObject json_of(const Run& run) {
    return QJsonDocument::fromJson(run.out).object();
}

QString write_cluster(const QTemporaryDir& dir, const QString& name, const QStringList& devices) {
    QJsonArray hosts;
    for (int i = 0; i < devices.size(); ++i)
        hosts.append(QJsonObject{{"host", QString("h%1").arg(i + 1)}, {"device", devices[i]}});
    const QString path = dir.filePath(name);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(QJsonDocument(QJsonObject{{"version", 1}, {"hosts", hosts}}).toJson());
    return path;
}

} // namespace

class DseExactCommandTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString smol_;

private slots:
    void initTestCase() {
        const Run written = run_cleave(
            {"generate-models", "--llm", "smollm2-135m", "--out", dir_.filePath("smol")});
        QVERIFY2(written.exit_code == 0, written.err.constData());
        smol_ = dir_.filePath("smol/smollm2-135m.onnx");
    }

    void exactPlansBesideTheRules() {
        const QString cluster =
            write_cluster(dir_, "three.cluster.json",
                          {"jetson-orin-nano", "jetson-orin-nx-16gb", "raspberry-pi-5"});
        const Run run = run_cleave({"dse", smol_, "--cluster", cluster, "--exact", "--context",
                                    "2048", "--prompt-tokens", "128", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject root = json_of(run);
        QCOMPARE(root["layers"].toInt(), 30);
        QCOMPARE(root["workload"].toObject()["context"].toInt(), 2048);
        const QJsonArray plans = root["plans"].toArray();
        QStringList rules;
        for (const auto& p : plans)
            rules << p.toObject()["rule"].toString();
        QCOMPARE(rules, (QStringList{"exact-time-per-token", "exact-bottleneck", "equal", "memory",
                                     "llama.cpp"}));
        const auto program = [&](int i, const char* key) {
            return plans[i].toObject()["program"].toObject()[key].toDouble();
        };
        for (int i = 0; i < plans.size(); ++i) {
            const QJsonObject p = plans[i].toObject();
            QVERIFY(p["fits"].toBool());
            QVERIFY(p["time_to_first_token_ms"].toDouble() > 0);
            QVERIFY(p["tokens_per_s"].toDouble() > 0);
            // The room left is the tightest pool's.
            double room = 1e300;
            for (const auto& pool : p["memory"].toObject()["pools"].toArray()) {
                const QJsonObject o = pool.toObject();
                room = std::min(room, o["usable_bytes"].toDouble() -
                                          o["memory"].toObject()["total_bytes"].toDouble());
            }
            QCOMPARE(p["memory_headroom_bytes"].toDouble(), room);
            QVERIFY(room >= 0);
            QVERIFY(p.contains("energy_per_token_mj"));
            int layers = 0;
            for (const auto& s : p["stages"].toArray())
                layers += s.toObject()["layers"].toInt();
            QCOMPARE(layers, 30);
            // No rule beats the exact plans on their own objectives.
            QVERIFY(program(0, "time_per_output_token_ms") <=
                    program(i, "time_per_output_token_ms") + 1e-9);
            QVERIFY(program(1, "bottleneck_ms") <= program(i, "bottleneck_ms") + 1e-9);
        }
        // The text form names each plan and its memory per pool.
        const Run text =
            run_cleave({"dse", smol_, "--cluster", cluster, "--exact", "--context", "2048"});
        QVERIFY2(text.exit_code == 0, text.err.constData());
        QVERIFY(text.out.contains("exact: least time per token"));
        QVERIFY(text.out.contains("by device memory (llama.cpp)"));
        QVERIFY(text.out.contains("memory per pool"));
    }

    void searchHeldToLayersBesideTheExactPlans() {
        const QString cluster = write_cluster(
            dir_, "four.cluster.json",
            {"jetson-orin-nano", "jetson-orin-nx-16gb", "raspberry-pi-5", "jetson-orin-nano"});
        const Run run =
            run_cleave({"dse", smol_, "--cluster", cluster, "--context", "2048", "--sequences", "2",
                        "--population", "40", "--generations", "800", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject root = json_of(run);
        const QJsonArray plans = root["plans"].toArray();
        QCOMPARE(plans[0].toObject()["rule"].toString(), QString("nsga2-time-per-token"));
        QCOMPARE(plans[1].toObject()["rule"].toString(), QString("nsga2-bottleneck"));
        QCOMPARE(plans[2].toObject()["rule"].toString(), QString("exact-time-per-token"));
        const QJsonObject search = root["search"].toObject();
        QCOMPARE(search["objectives"].toArray(), (QJsonArray{"bottleneck_ms", "latency_ms"}));
        QVERIFY(search["evaluations"].toInt() > 10000);
        const QJsonObject gap = search["gap_to_exact"].toObject();
        QVERIFY2(std::abs(gap["time_per_output_token"].toDouble(1)) <= 0.01,
                 QByteArray::number(gap["time_per_output_token"].toDouble()).constData());
        QVERIFY2(std::abs(gap["bottleneck"].toDouble(1)) <= 0.01,
                 QByteArray::number(gap["bottleneck"].toDouble()).constData());
        const QJsonArray front = search["front"].toArray();
        QVERIFY(!front.isEmpty());
        for (const auto& p : front) {
            const QJsonObject o = p.toObject();
            QVERIFY(o["fits"].toBool());
            QStringList hosts;
            for (const auto& stage : o["stages"].toArray()) {
                const QString host = stage.toObject()["pe"].toString().section('_', 0, 0);
                QVERIFY2(!hosts.contains(host), qPrintable(host));
                hosts << host;
            }
        }
    }

    void planAsLlamaCppCommandLines() {
        const QString cluster =
            write_cluster(dir_, "lines.cluster.json",
                          {"jetson-orin-nano", "jetson-orin-nx-16gb", "raspberry-pi-5"});
        const QString file = dir_.filePath("llama-cpp.txt");
        const Run run = run_cleave({"dse", smol_, "--cluster", cluster, "--exact", "--context",
                                    "1024", "--llama-cpp", file, "--plan", "equal", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject root = json_of(run);
        const QJsonObject lines = root["llama_cpp"].toObject();
        QCOMPARE(lines["plan"].toString(), QString("equal"));
        QJsonObject equal;
        for (const auto& p : root["plans"].toArray())
            if (p.toObject()["rule"].toString() == "equal")
                equal = p.toObject();
        // One rpc-server per stage, llama-server reaching them in the plan's order with each
        // stage's layers as its share (the last one also the output layer's).
        const QJsonArray stages = equal["stages"].toArray();
        QStringList rpc, split;
        for (int s = 0; s < stages.size(); ++s) {
            rpc << "h" + stages[s].toObject()["pe"].toString().section('_', 0, 0).mid(1) + ":50052";
            split << QString::number(stages[s].toObject()["layers"].toInt() +
                                     (s + 1 == stages.size() ? 1 : 0));
        }
        const QString main = lines["main"].toObject()["command"].toString();
        QVERIFY2(main.contains("--rpc " + rpc.join(',') + " "), qPrintable(main));
        QVERIFY2(main.contains("-ts " + split.join(',') + " "), qPrintable(main));
        QVERIFY(main.startsWith("llama-server -m smollm2-135m.gguf "));
        QFile written(file);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray text = written.readAll();
        QCOMPARE(text.count("\nrpc-server -H 0.0.0.0 -p 50052"), stages.size());
        QVERIFY(text.contains(main.toUtf8()));
        // A plan not computed is refused.
        const Run bad = run_cleave({"dse", smol_, "--cluster", cluster, "--exact", "--context",
                                    "1024", "--llama-cpp", file, "--plan", "vram"});
        QCOMPARE(bad.exit_code, 2);
        QVERIFY2(bad.err.contains("--plan: one of exact-time-per-token, exact-bottleneck, equal, "
                                  "memory, llama.cpp, found 'vram'"),
                 bad.err.constData());
    }

    void devicesRankedAsOneMoreHost() {
        const QString cluster =
            write_cluster(dir_, "two.cluster.json", {"raspberry-pi-5", "raspberry-pi-5"});
        const Run run = run_cleave({"dse", smol_, "--cluster", cluster, "--exact",
                                    "--suggest-device", "--context", "1024", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonArray list = json_of(run)["suggestions"].toArray();
        QVERIFY(list.size() >= 20);
        double before = 1e300;
        bool gpu_desktop = false;
        for (const auto& value : list) {
            const QJsonObject s = value.toObject();
            if (s.contains("left_out"))
                continue;
            QVERIFY(s["tokens_per_s"].toDouble() <= before);
            before = s["tokens_per_s"].toDouble();
            gpu_desktop |= s["device"].toString() == "rtx-4090-desktop";
        }
        QVERIFY(gpu_desktop);
        QVERIFY(list[0].toObject()["gain"].toDouble() > 1.0);
    }

    void refusedWorkloadsAndClusters() {
        const QString cluster =
            write_cluster(dir_, "nanos.cluster.json", {"jetson-nano", "jetson-nano"});
        // Beyond the model's context.
        Run run =
            run_cleave({"dse", smol_, "--cluster", cluster, "--exact", "--context", "100000"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--context: at most 8192 tokens"), run.err.constData());
        // A what-if or objectives without a workload; objectives the search does not know; a
        // decoder's search by kernels.
        run = run_cleave({"dse", smol_, "--cluster", cluster, "--objectives", "latency"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--objectives: a decoder's workload"), run.err.constData());
        run = run_cleave({"dse", smol_, "--cluster", cluster, "--context", "1024", "--objectives",
                          "latency,speed"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("not 'speed'"), run.err.constData());
        run = run_cleave(
            {"dse", smol_, "--cluster", cluster, "--context", "1024", "--encoding", "naive"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--encoding: spe"), run.err.constData());
        // A precision the cost model cannot express, and a what-if without --exact.
        run = run_cleave({"dse", smol_, "--cluster", cluster, "--exact", "--context", "1024",
                          "--precision", "3"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--precision: a weight precision the cost model expresses: "
                                  "fp32, fp16, int8 or int4, found '3'"),
                 run.err.constData());
        run = run_cleave({"dse", smol_, "--cluster", cluster, "--precision", "int4"});
        QCOMPARE(run.exit_code, 2);
        // A model no plan on the cluster holds: what it needs, and the longest context.
        const Run big = run_cleave({"generate-models", "--llm", "llama-3.1-8b", "--precision",
                                    "fp16", "--out", dir_.filePath("big")});
        QVERIFY2(big.exit_code == 0, big.err.constData());
        run = run_cleave({"dse", dir_.filePath("big/llama-3.1-8b.onnx"), "--cluster", cluster,
                          "--exact", "--context", "8192"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("nanos.cluster.json: --context: a cluster that holds "
                                  "the model at a context of 8192 tokens: it needs at least"),
                 run.err.constData());
        QVERIFY2(run.err.contains("not even the weights fit"), run.err.constData());
        // Its weights at 4 bits, a what-if labelled as one, fit.
        run = run_cleave({"dse", dir_.filePath("big/llama-3.1-8b.onnx"), "--cluster", cluster,
                          "--exact", "--context", "8192", "--precision", "int4", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject precision = json_of(run)["precision"].toObject();
        QCOMPARE(precision["stored"].toString(), QString("fp16"));
        QCOMPARE(precision["costed"].toString(), QString("int4"));
        QVERIFY(precision["what_if"].toBool());
        for (const auto& p : json_of(run)["plans"].toArray())
            QVERIFY(p.toObject()["fits"].toBool());
    }
};

QTEST_GUILESS_MAIN(DseExactCommandTest)
#include "dse_exact_command_test.moc"
