// `cleave dse` end to end on resnet18 and the eight Jetson Xavier NX, CPUs and GPUs (small
// population and few generations): the front and its hypervolumes as JSON, --out, repeatability
// by seed, an empty front explained, and bad settings refused with exit 2 naming the flag.
#include "cli_run.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

const QString kResnet18 = QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx";
const QString kCluster = QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/nx8.cluster.json";

// 16 x 121 evaluations: over 16 PEs in 4 stages of 2 levels, stage 1's replay gets 2 x 16 of
// them, the least a phase may have (80 generations, enough for 8 PEs, leave it less).
QStringList small_run(const QStringList& extra = {}) {
    return QStringList{"dse",          kResnet18, "--cluster",     kCluster,
                       "--population", "16",      "--generations", "120"} +
           extra;
}

} // namespace

class DseCommandTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void frontAndHypervolumesAsJson() {
        const QString out = dir_.filePath("front.json");
        const Run run = run_cleave(small_run({"--json", "--out", out}));
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root["objectives"].toArray().size(), 3);
        // Every PE: 8 GPUs, then (slower) 8 Carmel CPUs on their derived peak; none left out.
        const QJsonArray pes = root["pes"].toArray();
        QCOMPARE(pes.size(), 16);
        QCOMPARE(pes[0].toString(), QString("nx01_gpu"));
        QCOMPARE(pes[8].toString(), QString("nx01_arm012345"));
        QVERIFY(root["notes"].toArray().isEmpty());
        // ceil(log2 16) = 4 stages of 2 levels.
        const QJsonArray plan = root["plan"].toArray();
        QCOMPARE(plan.size(), 8);
        qint64 planned = 0;
        int generations = 0;
        for (const auto& phase : plan) {
            planned += phase.toObject()["evaluations"].toInteger();
            generations += phase.toObject()["generations"].toInt() + 1;
        }
        QCOMPARE(root["evaluations"].toInteger(), planned);
        QVERIFY(planned <= 16 * 121);
        QCOMPARE(root["hypervolume"].toArray().size(), generations);
        const QJsonArray front = root["front"].toArray();
        QVERIFY(!front.isEmpty());
        const int kernels = root["kernels"].toInt();
        bool cpu_used = false;
        for (const auto& value : front) {
            const QJsonObject s = value.toObject();
            const QJsonArray points = s["points"].toArray();
            QCOMPARE(s["pes"].toArray().size(), points.size() + 1);
            int last = 0;
            for (const auto& p : points) {
                QVERIFY(p.toInt() > last && p.toInt() < kernels);
                last = p.toInt();
            }
            for (const auto& pe : s["pes"].toArray()) {
                QVERIFY(pes.contains(pe));
                cpu_used = cpu_used || pe.toString().contains("_arm");
            }
            QVERIFY(std::abs(s["throughput_per_s"].toDouble() * s["bottleneck_ms"].toDouble() -
                             1000) < 1e-6);
            QVERIFY(s["max_memory_bytes"].toDouble() > 0);
            QVERIFY(s["max_energy_mj"].toDouble() > 0);
            QVERIFY(s["stage"].toInt() >= 1 && s["stage"].toInt() <= 4);
        }
        QVERIFY(cpu_used); // the CPUs take part in the front, not only in the list
        QFile written(out);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(written.readAll()).object()["front"].toArray(), front);
        QVERIFY(run.err.contains("stage 4 (16 PEs) level 2"));
    }

    void interruptWritesTheFrontSoFar() {
        // A search of millions of evaluations, interrupted once under way.
        const QString out = dir_.filePath("interrupted.json");
        QProcess process;
        process.start(CLEAVE_CLI_PATH,
                      QStringList{"dse", kResnet18, "--cluster", kCluster, "--population", "16",
                                  "--generations", "1000000", "--levels", "1", "--out", out});
        QVERIFY(process.waitForStarted());
        // Wait for the search's own progress (after loading and predicting), then Ctrl-C.
        for (int i = 0; i < 300 && !process.readAllStandardError().contains("generation"); ++i)
            process.waitForReadyRead(100);
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 130); // 128 + SIGINT, as a shell reports it
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        QVERIFY(root["cancelled"].toBool());
        QVERIFY(!root["front"].toArray().isEmpty());
        QVERIFY(root["evaluations"].toInteger() < 16LL * 1000000);
    }

    // The conventions of every long command, here on dse: off a terminal (QProcess is a pipe)
    // progress comes as plain lines, no carriage return; --quiet, before or after the command,
    // leaves stdout's result and nothing on stderr.
    void progressOffATerminalIsPlainLines() {
        const Run run = run_cleave(small_run({"--stages", "1", "--levels", "1"}));
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(run.err.contains("generation"));
        QVERIFY(!run.err.contains('\r'));
        QVERIFY(!run.out.contains('\r'));
        const Run models = run_cleave({"generate-models", "--count", "2", "--out", dir_.filePath("gen")});
        QVERIFY2(models.exit_code == 0, models.err.constData());
        QVERIFY(!models.err.contains('\r'));
    }

    // generate-models writes decoder stacks (and refuses what cannot be one), and the default
    // search of one replays its mappings segment by segment at level 2.
    void decoderStacksAreSearched() {
        const QString folder = dir_.filePath("decoders");
        const Run written = run_cleave({"generate-models", "--decoder-layers", "3,4", "--width",
                                        "32", "--out", folder, "--json", "--quiet"});
        QVERIFY2(written.exit_code == 0, written.err.constData());
        const auto models = QJsonDocument::fromJson(written.out).object()["models"].toArray();
        QCOMPARE(models.size(), 2);
        QCOMPARE(models[1].toObject()["name"].toString(), QString("decoder_l4_d32"));
        QCOMPARE(models[1].toObject()["category"].toString(), QString("decoder"));
        for (const QStringList& bad :
             {QStringList{"--decoder-layers", "0"},
              QStringList{"--decoder-layers", "2", "--width", "24"},
              QStringList{"--decoder-layers", "2", "--count", "2"}, QStringList{}}) {
            const Run refused = run_cleave(QStringList{"generate-models", "--out", folder} + bad);
            QCOMPARE(refused.exit_code, 2);
        }
        const Run run =
            run_cleave({"dse", folder + "/decoder_l4_d32.onnx", "--cluster", kCluster,
                        "--population", "16", "--generations", "200", "--json", "--quiet"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const auto document = QJsonDocument::fromJson(run.out).object();
        QVERIFY(!document["front"].toArray().isEmpty());
        bool replayed = false;
        for (const auto& phase : document["plan"].toArray())
            replayed = replayed || phase.toObject()["level"].toInt() == 2;
        QVERIFY(replayed);
    }

    void quietLeavesOnlyTheResult() {
        for (const QStringList& args :
             {QStringList{"--quiet"} + small_run({"--stages", "1", "--levels", "1", "--json"}),
              small_run({"--stages", "1", "--levels", "1", "--json", "-q"})}) {
            const Run run = run_cleave(args);
            QVERIFY2(run.exit_code == 0, run.err.constData());
            QVERIFY2(run.err.isEmpty(), run.err.constData());
            QVERIFY(!QJsonDocument::fromJson(run.out).object()["front"].toArray().isEmpty());
        }
    }

    void sameSeedSameFront() {
        const QStringList args =
            small_run({"--stages", "1", "--levels", "1", "--seed", "9", "--json", "--quiet"});
        const Run a = run_cleave(args);
        const Run b = run_cleave(args);
        QVERIFY2(a.exit_code == 0, a.err.constData());
        QVERIFY(!QJsonDocument::fromJson(a.out).object()["front"].toArray().isEmpty());
        QCOMPARE(QJsonDocument::fromJson(a.out).object()["front"],
                 QJsonDocument::fromJson(b.out).object()["front"]);
        QCOMPARE(QJsonDocument::fromJson(a.out).object()["plan"].toArray().size(), 1);
        QVERIFY(a.err.isEmpty() || !a.err.contains("generation"));
    }

    // Naive genes scatter resnet18's kernels over the PEs: every mapping met has PEs waiting on
    // each other, so the front is empty and a note says why.
    void anEmptyFrontIsExplained() {
        const Run run = run_cleave(
            small_run({"--stages", "1", "--levels", "1", "--encoding", "naive", "--json"}));
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QVERIFY(root["front"].toArray().isEmpty());
        QVERIFY(run.err.contains("no mapping that can run"));
        QVERIFY(run.err.contains("--encoding spe"));
        const QJsonArray notes = root["notes"].toArray();
        QVERIFY(notes.last().toString().contains("waiting on each other"));
    }

    void badSettingsExitTwoNamingTheFlag() {
        const std::vector<std::pair<QStringList, QString>> cases{
            {{"--population", "6"}, "--population"}, {{"--population", "18"}, "--population"},
            {{"--encoding", "gray"}, "--encoding"},  {{"--stages", "3"}, "--stages"},
            {{"--levels", "3"}, "--levels"},         {{"--budget", "40"}, "--budget"},
            {{"--max-pes", "1"}, "--cluster"},
        };
        for (const auto& [extra, flag] : cases) {
            const Run run = run_cleave(small_run(extra));
            QVERIFY2(run.exit_code == 2, qPrintable(extra.join(' ') + ": " + run.err));
            QVERIFY2(run.err.contains(flag.toUtf8()), run.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(DseCommandTest)
#include "dse_command_test.moc"
