// `cleave export-autodice` and `cleave split` end to end on resnet18: the package's files from a
// mapping.json and from split points, split without a cluster, and bad mappings, keys and
// platform lines (exit 2, precise message, an earlier export left as it was).
#include "cli_run.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;
using cleave::test::written;

const QString kResnet18 = QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx";
const QString kCluster = QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/nx8.cluster.json";
const QString kPlatform = QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/nx8.platform.txt";
const QString kCutMapping =
    QString(CLEAVE_TEST_DATA_DIR) + "/autodice/resnet18-conv-relu-cut/mapping.json";

QJsonObject json_of(const Run& run) {
    return QJsonDocument::fromJson(run.out).object();
}

QByteArray read(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QStringList entries(const QString& folder) {
    return QDir(folder).entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden,
                                  QDir::Name);
}

} // namespace

class ExportAutodiceCommandTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void splitPointsGiveTheWholePackage() {
        const QString out = dir_.filePath("points");
        const Run run =
            run_cleave({"export-autodice", kResnet18, "--cluster", kCluster, "--points", "10,20",
                        "--pes", "nx02_gpu,nx01_arm012345,nx01_gpu", "--out", out, "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QCOMPARE(entries(out), (QStringList{"hostfile", "mapping.json", "nx01_arm012345.onnx",
                                            "nx01_gpu.onnx", "nx02_gpu.onnx", "platform.txt",
                                            "rankfile", "receiver.json", "sender.json"}));
        // Ranks follow mapping.json, whose keys are in cluster PE order.
        QCOMPARE(read(out + "/rankfile"), QByteArray("rank 0=nx01    slots=0,1,2,3,4,5\n"
                                                     "rank 1=nx01    slots=5\n"
                                                     "rank 2=nx02    slots=5\n"));
        QCOMPARE(read(out + "/hostfile"), QByteArray("nx01\nnx02\n"));
        QCOMPARE(read(out + "/platform.txt"), read(kPlatform));
        const QJsonObject root = json_of(run);
        const QJsonArray ranks = root["ranks"].toArray();
        QCOMPARE(ranks.size(), 3);
        QCOMPARE(ranks[2].toObject()["key"].toString(), QString("nx02_gpu"));
        QCOMPARE(ranks[2].toObject()["inputs"].toArray()[0].toString(), QString("input"));
        qint64 bytes = 0;
        for (const auto& f : root["files"].toArray())
            bytes += f.toObject()["bytes"].toInteger();
        QCOMPARE(root["bytes"].toInteger(), bytes);
        QCOMPARE(QFileInfo(out + "/nx02_gpu.onnx").size(),
                 ranks[2].toObject()["sub_model"].toObject()["bytes"].toInteger());
    }

    void mappingFileGivesTheSamePackage() {
        const QString first = dir_.filePath("first");
        const Run spe =
            run_cleave({"export-autodice", kResnet18, "--cluster", kCluster, "--points", "15",
                        "--pes", "nx04_gpu,nx03_gpu", "--out", first, "--no-submodels"});
        QVERIFY2(spe.exit_code == 0, spe.err.constData());
        QVERIFY(!QFile::exists(first + "/nx04_gpu.onnx"));
        const QString second = dir_.filePath("second");
        const Run file =
            run_cleave({"export-autodice", kResnet18, "--cluster", kPlatform, "--mapping",
                        first + "/mapping.json", "--out", second, "--no-submodels"});
        QVERIFY2(file.exit_code == 0, file.err.constData());
        for (const char* name : {"mapping.json", "rankfile", "sender.json", "receiver.json"})
            QCOMPARE(read(second + "/" + name), read(first + "/" + name));
    }

    void splitWithoutClusterWritesSubModelsAndCommTables() {
        const QString out = dir_.filePath("split");
        const Run run = run_cleave({"split", kResnet18, "--parts", "4", "--pes",
                                    "a_gpu,b_gpu,c_cpu0-11,d_arm0123", "--out", out, "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QCOMPARE(entries(out),
                 (QStringList{"a_gpu.onnx", "b_gpu.onnx", "c_cpu0-11.onnx", "d_arm0123.onnx",
                              "mapping.json", "receiver.json", "sender.json"}));
        const QJsonObject receiver = QJsonDocument::fromJson(read(out + "/receiver.json")).object();
        QCOMPARE(receiver["a_gpu"].toObject().size(), 0);
        QVERIFY(!receiver["d_arm0123"].toObject().isEmpty());
        int nodes = 0;
        for (const auto& rank : json_of(run)["ranks"].toArray())
            nodes += rank.toObject()["nodes"].toInt();
        QCOMPARE(nodes, 69); // every node of resnet18, once
    }

    void badKeyFormIsRefused() {
        const Run run = run_cleave({"split", kResnet18, "--points", "10", "--pes",
                                    "nx01_gpu,nx_02_npu", "--out", dir_.filePath("bad-key")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--pes") &&
                     run.err.contains("'nx_02_npu' is not an AutoDiCE PE key"),
                 run.err.constData());
        QVERIFY(!QFile::exists(dir_.filePath("bad-key")));
    }

    // AutoDiCE runs a mapping that cuts between a Conv and its Relu (each PE's runtime fuses its
    // sub-model alone): exported with one warning per cut kernel, and costed with the parts.
    void mappingThatCutsKernelsExportsWithAWarningEach() {
        const QString out = dir_.filePath("cut");
        Run run = run_cleave({"export-autodice", kResnet18, "--cluster", kCluster, "--mapping",
                              kCutMapping, "--out", out, "--no-submodels", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QCOMPARE(run.err.count("cleave: warning: "), 2);
        QCOMPARE(json_of(run)["cut_kernels"].toArray().size(), 2);
        QVERIFY2(run.err.contains("mapping.json: the mapping cuts kernel "
                                  "/layer1/layer1.0/conv1/Conv (FusedConv, 3 nodes): "
                                  "/layer1/layer1.0/conv1/Conv, "
                                  "/layer1/layer1.0/bn1/BatchNormalization on nx01_gpu; "
                                  "/layer1/layer1.0/relu/Relu on nx02_gpu; each PE fuses and "
                                  "runs its part as a kernel of its own"),
                 run.err.constData());
        for (const char* table : {"sender.json", "receiver.json"})
            QCOMPARE(QJsonDocument::fromJson(read(out + "/" + table)),
                     QJsonDocument::fromJson(read(QFileInfo(kCutMapping).dir().filePath(table))));
        const Run whole = run_cleave({"evaluate-mapping", kResnet18, "--cluster", kCluster,
                                      "--points", "10", "--pes", "nx01_gpu,nx02_gpu", "--json"});
        const Run cut = run_cleave({"evaluate-mapping", kResnet18, "--cluster", kCluster,
                                    "--mapping", kCutMapping, "--json", "--quiet"});
        QVERIFY2(cut.exit_code == 0, cut.err.constData());
        QVERIFY2(cut.err.isEmpty(), cut.err.constData());
        QCOMPARE(json_of(cut)["kernels"].toInt(), json_of(whole)["kernels"].toInt() + 2);
        QCOMPARE(json_of(cut)["cut_kernels"].toArray().size(), 2);
        QVERIFY(json_of(whole)["cut_kernels"].toArray().isEmpty());
    }

    void mappingErrorsLeaveTheEarlierExport() {
        const QString out = dir_.filePath("kept");
        const Run good =
            run_cleave({"export-autodice", kResnet18, "--cluster", kCluster, "--points", "10",
                        "--pes", "nx01_gpu,nx02_gpu", "--out", out, "--no-submodels"});
        QVERIFY2(good.exit_code == 0, good.err.constData());
        const QByteArray mapping = read(out + "/mapping.json");
        const QStringList before = entries(out);

        QJsonObject root = QJsonDocument::fromJson(mapping).object();
        QJsonArray second = root["nx02_gpu"].toArray();
        const QString moved = second.last().toString();
        second.removeLast();
        root["nx02_gpu"] = second;
        const QString missing = written(dir_, "missing.json", QJsonDocument(root).toJson());
        Run run = run_cleave({"export-autodice", kResnet18, "--cluster", kCluster, "--mapping",
                              missing, "--out", out});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("missing.json") &&
                     run.err.contains("mapped to no PE (1): /fc/Gemm"),
                 run.err.constData());

        QJsonArray first = root["nx01_gpu"].toArray();
        second.append(moved);
        second.append(first[0]);
        root["nx02_gpu"] = second;
        const QString repeated = written(dir_, "repeated.json", QJsonDocument(root).toJson());
        run = run_cleave({"export-autodice", kResnet18, "--cluster", kCluster, "--mapping",
                          repeated, "--out", out});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("repeated.json") &&
                     run.err.contains(first[0].toString().toUtf8()),
                 run.err.constData());

        run = run_cleave({"export-autodice", kResnet18, "--cluster", kCluster, "--points", "10",
                          "--pes", "nx01_gpu,nx09_gpu", "--out", out});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--pes") && run.err.contains("nx09_gpu"), run.err.constData());

        const QString platform = written(dir_, "platform.txt",
                                         "nx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)\n"
                                         "nx02, arm, slots=five\n");
        run = run_cleave({"export-autodice", kResnet18, "--cluster", platform, "--points", "10",
                          "--pes", "nx01_gpu,nx02_gpu", "--out", out});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("platform.txt") && run.err.contains("line 2"),
                 run.err.constData());

        QCOMPARE(read(out + "/mapping.json"), mapping);
        QCOMPARE(entries(out), before);
        QCOMPARE(entries(dir_.path()).filter(".kept").size(), 0);
    }

    void subModelsWaitingOnEachOtherAreRefused() {
        const Run run =
            run_cleave({"export-autodice", kResnet18, "--cluster", kCluster, "--points", "10,20",
                        "--pes", "nx01_gpu,nx02_gpu,nx01_gpu", "--out", dir_.filePath("cycle")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("wait on each other"), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(ExportAutodiceCommandTest)
#include "export_autodice_command_test.moc"
