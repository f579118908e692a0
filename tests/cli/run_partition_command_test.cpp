// `cleave run-partition` under Open MPI on this machine, each rank's sub-model in ONNX Runtime:
// resnet18 split in 2, run as 2 ranks (oversubscribed), gives the whole model's output; so do a
// model of every generated transformer family and BERT with its int64 ids; generated decoders
// (fp32 and int4) generate tokens across 2 and 3 ranks as the whole model does; the OpenCV engine
// stays selectable. A rank count that does not match the package, a missing package, a rank
// killed mid-run and a rank's engine process killed mid-run end the job with an error naming
// what happened.
#include "cli_run.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <csignal>

namespace {

using cleave::test::CliRun;
using cleave::test::run_cleave;

const QString kModel = QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx";

QProcessEnvironment mpi_environment() {
    auto env = QProcessEnvironment::systemEnvironment();
    // Containers and CI run as root, which Open MPI refuses unless told.
    env.insert("OMPI_ALLOW_RUN_AS_ROOT", "1");
    env.insert("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    env.insert("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    return env;
}

// `temporary`: the ranks' TMPDIR, where not empty.
void start_mpirun(QProcess& process, int ranks, const QStringList& arguments,
                  const QString& temporary = {}) {
    auto env = mpi_environment();
    if (!temporary.isEmpty())
        env.insert("TMPDIR", temporary);
    process.setProcessEnvironment(env);
    process.start(CLEAVE_MPIEXEC, QStringList{"-np", QString::number(ranks), "--oversubscribe",
                                              CLEAVE_CLI_PATH, "run-partition"} +
                                      arguments);
}

// The processes whose parent is `parent`, from /proc/<pid>/stat ("pid (comm) state ppid ...").
QStringList children_of(qint64 parent) {
    QStringList children;
    for (const QString& entry : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool numeric = false;
        entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile stat("/proc/" + entry + "/stat");
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        const auto fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1].toLongLong() == parent)
            children << entry;
    }
    return children;
}

CliRun mpirun(int ranks, const QStringList& arguments, const QString& temporary = {}) {
    QProcess process;
    start_mpirun(process, ranks, arguments, temporary);
    process.waitForFinished(240000);
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

} // namespace

class RunPartitionCommandTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString package_;
    QString xeon2_; // two hosts running xeon-ort-1t, PEs h1_cpu0 and h2_cpu0

private slots:
    void initTestCase() {
        // The cleave processes that start mpirun themselves (dse --measure) inherit this.
        const auto env = mpi_environment();
        for (const auto* name : {"OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM",
                                 "OMPI_MCA_btl_vader_single_copy_mechanism"})
            qputenv(name, env.value(name).toUtf8());
        xeon2_ = dir_.filePath("x2.cluster.json");
        QFile file(xeon2_);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"version": 1, "hosts": [{"host": "h1", "device": "xeon-ort-1t"},
                                              {"host": "h2", "device": "xeon-ort-1t"}]})");
        file.close();
        package_ = dir_.filePath("resnet18-2");
        const CliRun split = run_cleave(
            {"split", kModel, "--parts", "2", "--pes", "h1_cpu0,h2_cpu0", "--out", package_});
        QCOMPARE(split.exit_code, 0);
    }

    void twoRanksGiveTheWholeModelsOutput() {
        const CliRun run = mpirun(2, {package_, "--model", kModel, "--inputs", "4", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(summary["format"].toString(), QString("cleave-run-summary"));
        QCOMPARE(summary["ranks"].toInt(), 2);
        QCOMPARE(summary["inputs"].toInt(), 4);
        QVERIFY(summary["max_abs_diff"].toDouble() <= 1e-4);
        QVERIFY(summary["throughput_ips"].toDouble() > 0);
        const QJsonArray ranks = summary["per_rank"].toArray();
        QCOMPARE(ranks.size(), 2);
        QCOMPARE(ranks[1].toObject()["key"].toString(), QString("h2_cpu0"));
        for (const auto& r : ranks) {
            QVERIFY(r.toObject()["compute_ms"].toDouble() > 0);
            QVERIFY(r.toObject()["engine_ms"].toDouble() > 0);
            QCOMPARE(r.toObject()["threads"].toInt(), 1); // h1_cpu0 names one core
            QVERIFY(r.toObject()["peak_rss_kib"].toDouble() > 0);
        }
        // Rank 1 waits for rank 0's buffers; rank 0 reads the graph input itself.
        QVERIFY(ranks[1].toObject()["receive_wait_ms"].toDouble() > 0);
        QFile written(package_ + "/run-summary.json");
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(written.readAll()).object()["ranks"].toInt(), 2);
    }

    void aCompressedWholeModelIsCheckedAsThePlainOne() {
        const CliRun run =
            mpirun(2, {package_, "--model",
                       QString(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx.xz", "--inputs",
                       "2", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(summary["inputs"].toInt(), 2);
        QVERIFY(summary["max_abs_diff"].toDouble() <= 1e-4);
    }

    void predictionSitsBesideTheMeasurement() {
        // The package's keys h1_cpu0, h2_cpu0 are the PEs of xeon2_.
        const CliRun run = mpirun(
            2, {package_, "--model", kModel, "--inputs", "2", "--cluster", xeon2_, "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject predicted =
            QJsonDocument::fromJson(run.out).object()["predicted"].toObject();
        QVERIFY(predicted["throughput_ips"].toDouble() > 0);
        QVERIFY(predicted["measured_over_predicted"].toDouble() > 0);
        const QJsonArray ranks = predicted["per_rank"].toArray();
        QCOMPARE(ranks.size(), 2);
        QCOMPARE(ranks[0].toObject()["key"].toString(), QString("h1_cpu0"));
        QVERIFY(ranks[1].toObject()["time_ms"].toDouble() > 0);
        // A cluster without the package's keys: exit 2 naming them.
        const CliRun other =
            mpirun(2, {package_, "--model", kModel, "--inputs", "1", "--cluster",
                       QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/nx8.cluster.json"});
        QVERIFY(other.exit_code != 0);
        QVERIFY2(other.err.contains("h1_cpu0"), other.err.constData());
    }

    // The DSE's level 2 measured: every mapping it meets runs with Open MPI once, and the level-2
    // front carries the measured throughputs.
    void dseMeasuresLevelTwo() {
        const QStringList search{"dse", kModel, "--cluster", xeon2_, "--population", "8",
                                 "--generations", "9", "--stages", "1", "--measure", "mpi",
                                 "--measure-inputs", "2", "--mpirun", CLEAVE_MPIEXEC, "--json",
                                 "--quiet"};
        const CliRun run = run_cleave(search);
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root["settings"].toObject()["level2"].toString(), QString("measured (mpi)"));
        const QJsonArray measurements = root["measurements"].toArray();
        QVERIFY(!measurements.isEmpty());
        QSet<double> measured;
        for (const auto& value : measurements) {
            const QJsonObject m = value.toObject();
            QVERIFY2(!m.contains("error"), qPrintable(m["error"].toString()));
            QVERIFY(m["measured_throughput_per_s"].toDouble() > 0);
            QVERIFY(m["predicted_throughput_per_s"].toDouble() > 0);
            QVERIFY(m["max_abs_diff"].toDouble() <= 1e-4);
            QCOMPARE(m["ranks"].toInt(), m["pes"].toArray().size());
            measured.insert(m["measured_throughput_per_s"].toDouble());
        }
        const QJsonArray front = root["front"].toArray();
        QVERIFY(!front.isEmpty());
        // The last phase is level 2: its front's figures are the measured ones (given back
        // through the normalised objectives, so equal up to rounding).
        for (const auto& value : front) {
            const double throughput = value.toObject()["throughput_per_s"].toDouble();
            QVERIFY2(std::any_of(measured.begin(), measured.end(),
                                 [&](double m) { return std::abs(m - throughput) <= 1e-9 * m; }),
                     qPrintable(QString::number(throughput, 'g', 17)));
        }

        // No launcher, or measuring without level 2: exit 2 naming --measure.
        QStringList missing = search;
        missing[missing.indexOf("--mpirun") + 1] = dir_.filePath("no-mpirun");
        const CliRun none = run_cleave(missing);
        QCOMPARE(none.exit_code, 2);
        QVERIFY2(none.err.contains("--measure") && none.err.contains("no-mpirun"),
                 none.err.constData());
        const CliRun one_level = run_cleave(search + QStringList{"--levels", "1"});
        QCOMPARE(one_level.exit_code, 2);
        QVERIFY2(one_level.err.contains("--levels 2"), one_level.err.constData());
    }

    // ViT, BERT, GPT-2, Swin, ConvNeXt and MaxViT blocks as the generator writes them, each split
    // in 2: the pipeline's output is the whole model's, ONNX Runtime on both sides.
    void everyTransformerFamilySplitsAndRuns() {
        const QString folder = dir_.filePath("transformers");
        const CliRun made = run_cleave({"generate-models", "--space", "transformer", "--count",
                                        "12", "--seed", "5", "--out", folder});
        QCOMPARE(made.exit_code, 0);
        QSet<QString> families;
        for (const QString& file : QDir(folder).entryList({"*.onnx"}, QDir::Files, QDir::Name)) {
            const QString family = file.section('_', 0, 0);
            if (families.contains(family))
                continue;
            families.insert(family);
            const QString model = folder + "/" + file, package = folder + "/" + family + "-2";
            const CliRun split = run_cleave(
                {"split", model, "--parts", "2", "--pes", "h1_cpu0,h2_cpu0", "--out", package});
            QVERIFY2(split.exit_code == 0, split.err.constData());
            const CliRun run = mpirun(2, {package, "--model", model, "--inputs", "1", "--json"});
            QVERIFY2(run.exit_code == 0, (file + ": " + run.err).toUtf8().constData());
            const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
            QVERIFY(summary["runtime"].toString().contains("ONNX Runtime"));
            QVERIFY2(summary["max_abs_diff"].toDouble() <= 1e-4, qPrintable(file));
        }
        QCOMPARE(families, (QSet<QString>{"bert", "convnext", "gpt", "maxvit", "swin", "vit"}));
    }

    // BERT's ids and mask are int64: they travel and feed ONNX Runtime as they are.
    void integerInputsTravel() {
        const QString model = QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/bert_base.onnx";
        const QString package = dir_.filePath("bert-2");
        const CliRun split = run_cleave(
            {"split", model, "--parts", "2", "--pes", "h1_cpu0,h2_cpu0", "--out", package});
        QVERIFY2(split.exit_code == 0, split.err.constData());
        const CliRun run = mpirun(2, {package, "--model", model, "--inputs", "1", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(QJsonDocument::fromJson(run.out).object()["max_abs_diff"].toDouble() <= 1e-4);
    }

    // Generated decoders with random weights, in fp32 and with 4-bit MatMulNBits weights, split
    // in 2 and in 3: the ranks generate tokens for 2 sequences in flight, each rank keeping its
    // layers' caches, and every step's logits equal the whole model's fed the same tokens. The
    // split's sub-models keep the file's symbolic dims, so one package runs the prefill and every
    // decode step; a stream of single steps runs too, checked and unchecked.
    void decodersGenerateAcrossRanks() {
        const QString folder = dir_.filePath("decoders");
        const CliRun made = run_cleave({"generate-models", "--space", "decoder", "--count", "10",
                                        "--seed", "7", "--random-weights", "--out", folder});
        QCOMPARE(made.exit_code, 0);
        for (const QString& name : {QString("qwen_d512_l2_h8kv2_fp32_genai_0007"),
                                    QString("llama_d768_l2_h6kv1_int4_genai_0006")}) {
            const QString model = folder + "/" + name + "/" + name + ".onnx";
            QVERIFY2(QFile::exists(model), qPrintable(model));
            for (const int ranks : {2, 3}) {
                const QString package = folder + "/" + name + "-" + QString::number(ranks);
                const CliRun split = run_cleave(
                    {"split", model, "--decode", "64", "--parts", QString::number(ranks), "--pes",
                     ranks == 2 ? "h1_cpu0,h2_cpu0" : "h1_cpu0,h2_cpu0,h3_cpu0", "--out", package});
                QVERIFY2(split.exit_code == 0, split.err.constData());
                const CliRun run = mpirun(ranks, {package, "--model", model, "--prompt-tokens", "8",
                                                  "--generate", "4", "--sequences", "2", "--json"});
                QVERIFY2(run.exit_code == 0, (name + ": " + run.err).toUtf8().constData());
                const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
                QVERIFY2(summary["max_abs_diff"].isDouble() &&
                             summary["max_abs_diff"].toDouble() <= 1e-4,
                         run.out.constData());
                const QJsonObject decode = summary["decode"].toObject();
                QCOMPARE(decode["token_mismatches"].toInt(-1), 0);
                QCOMPARE(decode["per_sequence"].toArray().size(), 2);
                for (const auto& sequence : decode["per_sequence"].toArray())
                    QCOMPARE(sequence.toObject()["tokens"].toArray().size(), 4);
                QVERIFY(decode["ttft_ms"].toDouble() > 0 && decode["tpot_ms"].toDouble() > 0);
                QCOMPARE(summary["inputs"].toInt(), 8); // tokens made
            }
            const QString package = folder + "/" + name + "-2";
            const QStringList step{"--decode", "64"};
            const CliRun run =
                mpirun(2, QStringList{package, "--model", model, "--inputs", "2", "--json"} + step);
            QVERIFY2(run.exit_code == 0, (name + ": " + run.err).toUtf8().constData());
            QVERIFY(QJsonDocument::fromJson(run.out).object()["max_abs_diff"].toDouble() <= 1e-4);
            // Without the check, final outputs too large to send eagerly (a decoder's caches)
            // must not wait for a receiver.
            const CliRun unchecked = mpirun(
                2,
                QStringList{package, "--model", model, "--inputs", "2", "--no-reference"} + step);
            QVERIFY2(unchecked.exit_code == 0, unchecked.err.constData());
        }
        // A decode run needs the engine that keeps caches.
        const QString model = folder + "/qwen_d512_l2_h8kv2_fp32_genai_0007/"
                                       "qwen_d512_l2_h8kv2_fp32_genai_0007.onnx";
        const CliRun opencv =
            mpirun(2, {folder + "/qwen_d512_l2_h8kv2_fp32_genai_0007-2", "--model", model,
                       "--prompt-tokens", "8", "--generate", "2", "--runner", "opencv"});
        QCOMPARE(opencv.exit_code, 2);
        QVERIFY2(opencv.err.contains("--runner"), opencv.err.constData());
        const CliRun no_prompt =
            run_cleave({"run-partition", folder, "--model", model, "--generate", "2"});
        QCOMPARE(no_prompt.exit_code, 2);
        QVERIFY2(no_prompt.err.contains("--prompt-tokens"), no_prompt.err.constData());
    }

    // Without the check rank 0 loads no whole model, and the summary says so.
    void noReferenceRunsWithoutTheWholeModel() {
        const CliRun run =
            mpirun(2, {package_, "--model", kModel, "--inputs", "2", "--no-reference", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        QVERIFY(summary["max_abs_diff"].isNull());
        QCOMPARE(summary["inputs"].toInt(), 2);
        const CliRun table =
            mpirun(2, {package_, "--model", kModel, "--inputs", "1", "--no-reference"});
        QVERIFY2(table.out.contains("outputs not checked"), table.out.constData());
    }

    void openCvEngineStaysSelectable() {
        const CliRun run = mpirun(
            2, {package_, "--model", kModel, "--inputs", "1", "--runner", "opencv", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        QVERIFY(summary["runtime"].toString().contains("OpenCV"));
        QVERIFY(summary["max_abs_diff"].toDouble() <= 1e-4);
        const CliRun unknown =
            run_cleave({"run-partition", package_, "--model", kModel, "--runner", "tensorrt"});
        QCOMPARE(unknown.exit_code, 2);
        QVERIFY2(unknown.err.contains("--runner") && unknown.err.contains("ort or opencv"),
                 unknown.err.constData());
    }

    // Every rank aborts, or is stopped by mpirun, and none leaves its folder of engine logs.
    void wrongRankCountIsRefused() {
        QTemporaryDir temporary;
        const CliRun run =
            mpirun(3, {package_, "--model", kModel, "--inputs", "1"}, temporary.path());
        QVERIFY(run.exit_code != 0);
        QVERIFY2(run.err.contains("has 2 ranks but mpirun started 3"), run.err.constData());
        const auto left = QDir(temporary.path()).entryList({"cleave-rank-*"}, QDir::AllEntries);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(", ")));
    }

    void missingPackageExitsTwo() {
        const CliRun run =
            run_cleave({"run-partition", dir_.filePath("nothing"), "--model", kModel});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("mapping.json"), run.err.constData());
    }

    void killedRankEndsTheRun() {
        QProcess process;
        start_mpirun(process, 2, {package_, "--model", kModel, "--inputs", "100000"});
        QVERIFY(process.waitForStarted());
        // Wait for both ranks to be running, then kill one of them.
        QStringList ranks;
        for (int i = 0; i < 100 && ranks.size() < 2; ++i) {
            QTest::qWait(100);
            ranks = children_of(process.processId());
        }
        QCOMPARE(ranks.size(), 2);
        QTest::qWait(1500); // past start-up, into the pipeline
        QElapsedTimer timer;
        timer.start();
        ::kill(static_cast<pid_t>(ranks.last().toLongLong()), SIGKILL);
        QVERIFY(process.waitForFinished(30000));
        QVERIFY(timer.elapsed() < 30000);
        QVERIFY(process.exitCode() != 0);
        QVERIFY(process.readAllStandardError().contains("rank"));
    }

    // The ONNX Runtime process of rank 1 dies mid-run: the job ends at once, naming the rank and
    // that its engine ended.
    void deadEngineEndsTheRun() {
        QTemporaryDir temporary;
        QProcess process;
        start_mpirun(process, 2, {package_, "--model", kModel, "--inputs", "100000"},
                     temporary.path());
        QVERIFY(process.waitForStarted());
        QStringList ranks, engines;
        for (int i = 0; i < 200 && engines.size() < 1; ++i) {
            QTest::qWait(100);
            ranks = children_of(process.processId());
            engines.clear();
            if (ranks.size() == 2)
                engines = children_of(ranks.last().toLongLong()); // rank 1's (no reference)
        }
        QCOMPARE(engines.size(), 1);
        QTest::qWait(1500); // past start-up, into the pipeline
        QElapsedTimer timer;
        timer.start();
        ::kill(static_cast<pid_t>(engines.front().toLongLong()), SIGKILL);
        QVERIFY(process.waitForFinished(30000));
        QVERIFY(timer.elapsed() < 30000);
        QVERIFY(process.exitCode() != 0);
        const QByteArray err = process.readAllStandardError();
        // "could not run" (or "load", on a slow machine) and "the process ended" (or "stopped
        // reading"), as the kill meets it.
        QVERIFY2(err.contains("cleave: rank 1: ort_rank.mjs could not ") &&
                     err.contains("the process"),
                 err.constData());
        // Neither rank leaves its folder of engine logs behind.
        const auto left = QDir(temporary.path()).entryList({"cleave-rank-*"}, QDir::AllEntries);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(", ")));
    }
};

QTEST_GUILESS_MAIN(RunPartitionCommandTest)
#include "run_partition_command_test.moc"
