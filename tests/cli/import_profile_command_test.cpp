// `cleave import-profile`: an ONNX Runtime trace (tests/data/ort-profile-small.json) and the
// optimised model of its session become a run in a measured dataset; a re-import replaces it
// and bad input exits 2 naming the file and the place.
#include "../core/profile/ort_small_model.hpp"
#include "cli_run.hpp"
#include "core/profile/measured_dataset.hpp"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

const QString kTrace = CLEAVE_TEST_DATA_DIR "/ort-profile-small.json";

struct Models {
    QTemporaryDir dir;
    QString model = dir.filePath("ort_small.onnx");
    QString optimized = dir.filePath("ort_small.opt.onnx");
    QString out = dir.filePath("ort.json");

    Models() {
        cleave::test::write_ort_small_model(model.toStdString());
        cleave::test::write_ort_small_optimized_model(optimized.toStdString());
    }
    Run import(const QString& trace, const QStringList& more = {}) const {
        return run_cleave(QStringList{"import-profile", trace, "--model", model, "--optimized",
                                      optimized, "--out", out} +
                          more);
    }
};

void write(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

} // namespace

class ImportProfileCommandTest : public QObject {
    Q_OBJECT

private slots:
    void traceBecomesARunOfTheDataset() {
        const Models m;
        const Run run = m.import(kTrace, {"--threads", "1", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(summary["runs_in_trace"].toInt(), 3);
        QCOMPARE(summary["runs"].toInt(), 2);
        QCOMPARE(summary["covers_from"].toString(), QString("optimized model"));
        QCOMPARE(summary["covered_nodes"].toInt(), 12);
        QCOMPARE(summary["run_time_nodes"].toInt(), 12);

        const auto data = cleave::profile::load_measured_dataset(m.out.toStdString());
        QCOMPARE(data.runtime, std::string("ONNX Runtime (CPUExecutionProvider)"));
        QCOMPARE(data.runs.size(), std::size_t{1});
        const auto& measured = data.runs[0];
        QCOMPARE(measured.model, std::string("ort_small"));
        QCOMPARE(measured.threads, 1);
        QCOMPARE(measured.input_shape, (std::vector<std::int64_t>{1, 3, 8, 8}));
        QCOMPARE(measured.e2e_ms, (std::vector<double>{0.119, 0.124}));
        QCOMPARE(measured.kernels.front().covers, (std::vector<std::string>{"conv", "bn", "relu"}));
        QCOMPARE(measured.kernels.front().us.value_or(0), 42.5);
    }

    void sameConfigurationReplacesItsRun() {
        const Models m;
        QCOMPARE(m.import(kTrace, {"--threads", "1"}).exit_code, 0);
        QCOMPARE(m.import(kTrace, {"--threads", "2"}).exit_code, 0);
        const Run again = m.import(kTrace, {"--threads", "1", "--warmup", "0"});
        QVERIFY2(again.exit_code == 0, again.err.constData());
        QVERIFY(again.out.contains("3 of 3 runs in the trace kept"));
        const auto data = cleave::profile::load_measured_dataset(m.out.toStdString());
        QCOMPARE(data.runs.size(), std::size_t{2});
        QCOMPARE(data.runs[0].e2e_ms.size(), std::size_t{3});
        QCOMPARE(data.runs[1].threads, 2);
    }

    void corruptTraceExitsTwoNamingFileAndLine() {
        const Models m;
        QFile fixture(kTrace);
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        const QByteArray text = fixture.readAll();
        const QString bad = m.dir.filePath("cut.json");
        write(bad, text.left(text.indexOf("conv_kernel_time")));
        const Run run = m.import(bad);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.startsWith(("cleave: " + bad + ": line 6, column ").toUtf8()),
                 run.err.constData());
        QVERIFY(run.err.contains("not valid JSON"));
        QVERIFY(!QFile::exists(m.out));
    }

    void traceWithoutKernelEventsExitsTwo() {
        const Models m;
        const QString bad = m.dir.filePath("empty.json");
        write(
            bad,
            R"([{"cat" : "Session","pid" :1,"tid" :1,"dur" :10,"ts" :1,"ph" : "X","name" :"model_run","args" : {}}])");
        const Run run = m.import(bad);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("no per-kernel events"), run.err.constData());
    }

    void datasetOfAnotherRuntimeIsLeftAlone() {
        const Models m;
        const QByteArray opencv =
            R"({"runtime": "OpenCV 4.6.0 DNN, OpenCV backend, CPU target", "cpu": "x", "runs": []})";
        write(m.out, opencv);
        const Run run = m.import(kTrace);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("holds runs of runtime 'OpenCV 4.6.0 DNN"), run.err.constData());
        QFile file(m.out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), opencv);
    }
};

QTEST_GUILESS_MAIN(ImportProfileCommandTest)
#include "import_profile_command_test.moc"
