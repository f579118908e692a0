// The Partition tab's Measured panel: ResNet-18 split over two hosts running xeon-ort-1t, run
// for real with Open MPI on this machine; the measured row beside the prediction, a decoder
// measured generating tokens with its stages, a measurement cancelled mid-run, and a missing
// mpirun refused with a reason.
#include "core/device/cluster.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/llm_writer.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/partition/measured_runs_panel.hpp"
#include "ui/partition/partition_page.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>

using cleave::ui::MeasuredRunsPanel;
using cleave::ui::PartitionDocument;
using cleave::ui::PartitionPage;

class MeasuredRunsPanelTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::shared_ptr<const cleave::device::Cluster> x2() {
        const QString file = dir_.filePath("x2.cluster.json");
        QFile cluster(file);
        if (cluster.open(QIODevice::WriteOnly))
            cluster.write(R"({"version": 1, "hosts": [{"host": "h1", "device": "xeon-ort-1t"},
                                                     {"host": "h2", "device": "xeon-ort-1t"}]})");
        cluster.close();
        return std::make_shared<const cleave::device::Cluster>(
            cleave::device::load_cluster(file.toStdString()));
    }

    void showResnet18(PartitionPage& page) {
        const auto model = std::make_shared<const cleave::graph::Model>(cleave::graph::load_model(
            std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx"));
        const auto kernels = std::make_shared<const cleave::fusion::KernelGraph>(
            cleave::fusion::detect_kernels(*model, cleave::fusion::find_fusion_method("ort-cpu")));
        page.document()->setInputs(std::make_shared<const cleave::ui::PartitionInputs>(
            cleave::ui::prepare_partition({model, kernels, x2(), "ort-cpu"})));
        page.document()->replaceMapping({{20}, {0, 1}}, "two ranks");
        auto& launch = page.measuredRuns()->launch();
        launch.mpirun = CLEAVE_MPIEXEC;
        launch.cleave = CLEAVE_CLI_PATH;
        launch.inputs = 2;
    }

private slots:
    void initTestCase() {
        // Containers and CI run as root, which Open MPI refuses unless told.
        qputenv("OMPI_ALLOW_RUN_AS_ROOT", "1");
        qputenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        qputenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    }

    void measuresTheMappingOnShow() {
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        showResnet18(page);
        auto* panel = page.measuredRuns();
        QSignalSpy finished(panel, &MeasuredRunsPanel::finished);
        QVERIFY(panel->measure());
        QVERIFY(panel->isRunning());
        QCOMPARE(panel->measureButton()->text(), QString("Cancel Measuring"));
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(panel->statusText()));
        QCOMPARE(panel->runs()->rowCount(), 1);
        const auto value = [panel](int column) {
            return panel->runs()->item(0, column)->data(Qt::UserRole);
        };
        QCOMPARE(value(MeasuredRunsPanel::Mapping).toString(), QString("20|h1_cpu0,h2_cpu0"));
        QCOMPARE(value(MeasuredRunsPanel::Ranks).toInt(), 2);
        QCOMPARE(value(MeasuredRunsPanel::Predicted).toDouble(),
                 page.document()->evaluation().throughput_per_s);
        const double measured = value(MeasuredRunsPanel::Measured).toDouble();
        QVERIFY(measured > 0);
        QCOMPARE(value(MeasuredRunsPanel::Ratio).toDouble(),
                 measured / page.document()->evaluation().throughput_per_s);
        QVERIFY(value(MeasuredRunsPanel::MaxAbsDiff).toDouble() <= 1e-4);
        QVERIFY(!panel->isRunning());
        QCOMPARE(panel->measureButton()->text(), QString("Measure on This Machine"));
    }

    // A decoder (random weights) is measured generating the workload's tokens: its time to
    // first token and per output token beside the prediction, and each stage's times.
    void measuresADecoderGenerating() {
        cleave::modelgen::LlmConfig config = *cleave::modelgen::find_llm_config("smollm2-135m");
        config.name = "tiny-decoder";
        config.hidden = 128;
        config.heads = 4;
        config.kv_heads = 2;
        config.head_dim = 32;
        config.intermediate = 256;
        config.layers = 2;
        config.vocab = 512;
        const auto folder = dir_.filePath("tiny-decoder").toStdString();
        const auto written =
            cleave::modelgen::write_llm(config, cleave::modelgen::LlmPrecision::Fp32,
                                        cleave::modelgen::LlmForm::Onnx, folder, 3);
        cleave::graph::LoadOptions load;
        load.dims.decode = 16;
        const auto model = std::make_shared<const cleave::graph::Model>(
            cleave::graph::load_model(folder + "/" + written.model_file, load));
        const auto kernels = std::make_shared<const cleave::fusion::KernelGraph>(
            cleave::fusion::detect_kernels(*model, cleave::fusion::find_fusion_method("ort-cpu")));
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        page.document()->setInputs(std::make_shared<const cleave::ui::PartitionInputs>(
            cleave::ui::prepare_partition({model, kernels, x2(), "ort-cpu"})));
        QVERIFY(page.document()->isDecoder());
        const int half = static_cast<int>(kernels->kernels.size() / 2);
        page.document()->replaceMapping({{half}, {0, 1}}, "two ranks");
        auto workload = page.document()->workload();
        workload.prompt_tokens = 8;
        workload.generated_tokens = 4;
        page.document()->setWorkload(workload);
        QTRY_VERIFY_WITH_TIMEOUT(page.document()->timeToFirstTokenMs().has_value(), 60000);
        auto* panel = page.measuredRuns();
        panel->launch().mpirun = CLEAVE_MPIEXEC;
        panel->launch().cleave = CLEAVE_CLI_PATH;
        QSignalSpy finished(panel, &MeasuredRunsPanel::finished);
        QVERIFY(panel->measure());
        QVERIFY2(panel->statusText().contains("8 tokens"), qPrintable(panel->statusText()));
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(panel->statusText()));
        const auto value = [panel](int column) {
            return panel->runs()->item(0, column)->data(Qt::UserRole);
        };
        QVERIFY(value(MeasuredRunsPanel::FirstToken).toDouble() > 0);
        QVERIFY(value(MeasuredRunsPanel::PerToken).toDouble() > 0);
        QVERIFY(panel->runs()->item(0, MeasuredRunsPanel::PerToken)->text().contains(" / "));
        QVERIFY(value(MeasuredRunsPanel::MaxAbsDiff).toDouble() <= 1e-4);
        QVERIFY2(panel->statusText().contains("first token"), qPrintable(panel->statusText()));
        auto* stages = panel->stages();
        QCOMPARE(stages->rowCount(), 2);
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(stages->item(r, MeasuredRunsPanel::Pe)->text(),
                     QString("h%1_cpu0").arg(r + 1));
            QVERIFY(stages->item(r, MeasuredRunsPanel::PredictedMs)->data(Qt::UserRole).toDouble() >
                    0);
            QVERIFY(stages->item(r, MeasuredRunsPanel::ComputeMs)->data(Qt::UserRole).toDouble() >
                    stages->item(r, MeasuredRunsPanel::EngineMs)->data(Qt::UserRole).toDouble());
        }
        // Saved as an image for a look (CLEAVE_SCREENSHOT_DIR).
        if (const QByteArray dir = qgetenv("CLEAVE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            if (auto* tabs = qobject_cast<QTabWidget*>(panel->parentWidget()->parentWidget()))
                tabs->setCurrentWidget(panel);
            page.resize(1366, 768);
            page.show();
            QTest::qWait(50);
            page.grab().save(QString::fromLocal8Bit(dir) + "/measured-decoder.png");
        }
    }

    void cancelStopsTheJob() {
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        showResnet18(page);
        auto* panel = page.measuredRuns();
        panel->launch().inputs = 100000; // far longer than the test
        QSignalSpy finished(panel, &MeasuredRunsPanel::finished);
        QVERIFY(panel->measure());
        QTest::qWait(2000);
        QVERIFY(panel->isRunning());
        QElapsedTimer clock;
        clock.start();
        panel->measureButton()->click(); // "Cancel Measuring"
        QVERIFY(finished.wait(15000));
        QVERIFY(clock.elapsed() < 15000);
        QCOMPARE(finished.first().at(0).toBool(), false);
        QVERIFY2(panel->statusText().contains("cancelled"), qPrintable(panel->statusText()));
        QCOMPARE(panel->runs()->rowCount(), 0);
        // The cancelled run's package is gone with its folder; nothing is left running.
        const QString work = QDir::temp().filePath(
            QString("cleave-studio-measure-%1").arg(QCoreApplication::applicationPid()));
        QTRY_VERIFY(!QDir(work).exists());
    }

    void missingMpirunIsRefused() {
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        showResnet18(page);
        auto* panel = page.measuredRuns();
        panel->launch().mpirun = dir_.filePath("no-mpirun").toStdString();
        QVERIFY(!panel->measure());
        QVERIFY(!panel->isRunning());
        QVERIFY2(panel->statusText().contains("mpirun"), qPrintable(panel->statusText()));
    }
};

QTEST_MAIN(MeasuredRunsPanelTest)
#include "measured_runs_panel_test.moc"
