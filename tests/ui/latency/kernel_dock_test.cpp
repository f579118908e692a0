// The kernel dock: ResNet-18 fused by ONNX Runtime's CPU rules into 40 kernels, a switch of rule
// set, a bad rule file refused, a selected kernel selecting its nodes in the node table, and each
// kernel's predicted latency on the chosen device, summed to the total the dock shows.
#include "core/fusion/learned_fusion.hpp"
#include "core/device/device_library.hpp"
#include "core/device/user_library.hpp"
#include "core/predict/predictor_library.hpp"
#include "../device_without_figures.hpp"
#include "../studio_waits.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/latency/kernel_dock.hpp"
#include "ui/latency/kernel_table_model.hpp"
#include "ui/tables/latency_format.hpp"
#include "ui/shell/main_window.hpp"

#include <QComboBox>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <limits>

using cleave::ui::KernelDock;
using cleave::ui::StudioDocument;
using cleave::ui::KernelTableModel;
using cleave::ui::MainWindow;

using cleave::test::openModel;
using cleave::test::predictOn;

namespace {

QList<QVariant> latencyColumn(const KernelDock& dock, int role) {
    QList<QVariant> cells;
    const auto* table = dock.kernels();
    for (int row = 0; row < table->rowCount(); ++row)
        cells << table->index(row, KernelTableModel::Latency).data(role);
    return cells;
}
} // namespace

class KernelDockTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void showsTheRuntimesKernels() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        const auto* view = window.kernelDock()->view();
        QCOMPARE(view->model()->rowCount(), 40);
        QCOMPARE(view->model()->index(0, KernelTableModel::Type).data().toString(),
                 QString("FusedConv"));
        QCOMPARE(view->model()->index(0, KernelTableModel::Ops).data().toString(),
                 QString("Conv + BatchNormalization + Relu"));
    }

    void switchingRuleSetsRegroupsTheKernels() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        QVERIFY(window.kernelDock()->setRuleSet("tflite-gpu"));
        QCOMPARE(window.document()->ruleSet(), QString("tflite-gpu"));
        // Alg. 3.1 merges BN and Relu into each conv and the residual Add into the conv before it.
        QCOMPARE(window.kernelDock()->view()->model()->rowCount(), 24);
    }

    void badRuleFileKeepsTheCurrentSet() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        QTemporaryDir dir;
        QFile file(dir.filePath("rules.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            R"({"format": "cleave-fusion-rules", "version": 1, "name": "x", "rules": [{"to": "Relu"}]})");
        file.close();
        QSignalSpy failed(window.kernelDock(), &KernelDock::ruleSetFailed);
        QVERIFY(!window.kernelDock()->setRuleSet(file.fileName()));
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.first().first().toString().startsWith(file.fileName() + ": /rules/0"),
                 qPrintable(failed.first().first().toString()));
        QCOMPARE(window.document()->ruleSet(), QString("ort-cpu"));
        QCOMPARE(window.kernelDock()->view()->model()->rowCount(), 40);
    }

    void learnedClassifierGroupsTheKernels() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        QTemporaryDir dir;
        const QString path = dir.filePath("fusion-model.json");
        // Untrained weights: the test is that the dock reads a classifier and groups by it.
        cleave::fusion::save_learned_fusion(
            cleave::fusion::initial_learned_fusion({"Conv", "Relu"}, 0, 4, 1), path.toStdString());
        QSignalSpy changed(window.document(), &StudioDocument::kernelsChanged);
        QVERIFY(window.kernelDock()->setRuleSet("learned:" + path));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(window.document()->ruleSet(), "learned:" + path);
        const int rows = window.kernelDock()->view()->model()->rowCount();
        QVERIFY2(rows >= 1 && rows <= 69, qPrintable(QString::number(rows)));

        QSignalSpy failed(window.kernelDock(), &KernelDock::ruleSetFailed);
        QVERIFY(!window.kernelDock()->setRuleSet("learned:" + dir.filePath("missing.json")));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(window.document()->ruleSet(), "learned:" + path);
    }

    void filterNarrowsKernels() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        window.kernelDock()->filterEdit()->setText("fusedconv");
        QCOMPARE(window.kernelDock()->view()->model()->rowCount(), 9);
    }

    void selectingAKernelSelectsItsNodes() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        auto* view = window.kernelDock()->view();
        view->selectionModel()->setCurrentIndex(view->model()->index(0, 0),
                                                QItemSelectionModel::ClearAndSelect |
                                                    QItemSelectionModel::Rows);
        const auto rows = window.nodeView()->selectionModel()->selectedRows();
        QStringList names;
        for (const auto& row : rows)
            names << row.siblingAtColumn(1).data().toString();
        names.sort();
        QCOMPARE(names, (QStringList{"/bn1/BatchNormalization", "/conv1/Conv", "/relu/Relu"}));
    }

    void defaultDeviceIsTheFirstWithAPredictor() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        auto& dock = *window.kernelDock();
        auto& document = *window.document();
        QVERIFY(document.device().isEmpty() || document.isPredicting());
        QElapsedTimer clock;
        clock.start();
        while ((document.isPredicting() || !document.latency()) && clock.elapsed() < 30000)
            QTest::qWait(10);
        QVERIFY(document.latency());
        QVERIFY2(document.latency()->hasFigures(), document.latency()->error.c_str());
        QCOMPARE(dock.deviceBox()->currentText(), document.device());
        const auto shipped = cleave::predict::shipped_predictor("xeon-ort-1t");
        if (shipped && document.device() == "xeon-ort-1t") // its predictor loads (gbdt: a plugin)
            QVERIFY(dock.latencyText().endsWith(
                QString::fromStdString(", " + shipped->filename().string())));
        else // the first library device with datasheet figures
            QCOMPARE(document.device(), QString("jetson-xavier-nx"));
    }

    void latencyColumnAddsUpToTheTotal() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        auto& dock = *window.kernelDock();
        auto& document = *window.document();
        QVERIFY(predictOn(document, "jetson-xavier-nx"));
        const auto& latency = document.latency()->latency;
        QVERIFY2(document.latency()->hasFigures(), document.latency()->error.c_str());
        double sum = 0;
        for (const auto& cell : latencyColumn(dock, KernelTableModel::SortRole)) {
            QVERIFY(cell.isValid());
            QVERIFY(cell.toDouble() > 0);
            sum += cell.toDouble();
        }
        QCOMPARE(latencyColumn(dock, Qt::DisplayRole).size(), 40);
        QVERIFY(qAbs(sum - latency.kernels_ms) < 1e-9 * latency.kernels_ms);
        QVERIFY(qAbs(latency.kernels_ms + latency.overhead_ms - latency.total_ms) < 1e-9);
        // The Jetson has datasheet figures and no trained predictor: a roofline, without overhead.
        QCOMPARE(latency.overhead_ms, 0.0);
        QCOMPARE(dock.latencyText(), QString("%1 ms on jetson-xavier-nx, roofline (uncalibrated)")
                                         .arg(QString::fromStdString(cleave::ui::format_ms(sum))));
    }

    void latencyColumnSortsAsNumbers() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        auto& dock = *window.kernelDock();
        auto& document = *window.document();
        QVERIFY(predictOn(document, "jetson-xavier-nx"));
        dock.view()->sortByColumn(KernelTableModel::Latency, Qt::DescendingOrder);
        const auto* sorted = dock.view()->model();
        double previous = std::numeric_limits<double>::max();
        for (int row = 0; row < sorted->rowCount(); ++row) {
            const double ms = sorted->index(row, KernelTableModel::Latency)
                                  .data(KernelTableModel::SortRole)
                                  .toDouble();
            QVERIFY(ms <= previous);
            previous = ms;
        }
        // The costliest kernels on the Jetson's roofline are layer4's 3x3 convolutions (512
        // channels at 7x7), as `cleave predict` says: 0.756 ms each.
        QCOMPARE(sorted->index(0, KernelTableModel::Latency).data().toString(), QString("0.756"));
        QVERIFY(sorted->index(0, KernelTableModel::Name).data().toString().startsWith("/layer4/"));
    }

    void switchingDeviceChangesTheLatency() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        auto& dock = *window.kernelDock();
        auto& document = *window.document();
        QVERIFY(predictOn(document, "jetson-xavier-nx"));
        const auto nx = latencyColumn(dock, KernelTableModel::SortRole);
        const double nx_total = document.latency()->latency.total_ms;
        QSignalSpy changed(&document, &StudioDocument::latencyChanged);
        QVERIFY(predictOn(document, "nvidia-h100"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(dock.deviceBox()->currentText(), QString("nvidia-h100"));
        const auto h100 = latencyColumn(dock, KernelTableModel::SortRole);
        QCOMPARE(h100.size(), nx.size());
        QVERIFY(h100 != nx);
        QVERIFY(document.latency()->latency.total_ms < nx_total);
        QVERIFY(dock.latencyText().contains(" ms on nvidia-h100, "));
    }

    void aCalibratedDeviceIsOfferedWithItsOwnPredictor() {
        // A device in the user library (cleave calibrate or devices import), with its predictor.
        QTemporaryDir home;
        const QByteArray previous = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", home.path().toUtf8());
        auto device = *cleave::device::library_device("xeon-ort-1t");
        device.id = "my-laptop-ort-1t";
        device.name = "My laptop, ONNX Runtime, 1 thread";
        auto predictor = cleave::predict::load_predictor(
            cleave::predict::shipped_predictor("xeon-ort-1t")->string());
        predictor.device = device.id;
        cleave::device::install_user_device(device, cleave::predict::predictor_json(predictor));

        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        auto& dock = *window.kernelDock();
        auto& document = *window.document();
        const int at = dock.deviceBox()->findText("my-laptop-ort-1t");
        QVERIFY(at >= 0);
        QCOMPARE(dock.deviceBox()->itemData(at, Qt::ToolTipRole).toString(),
                 QString("My laptop, ONNX Runtime, 1 thread"));
        QVERIFY(predictOn(document, "my-laptop-ort-1t"));
        QVERIFY(document.latency()->hasFigures());
        QVERIFY2(dock.latencyText().endsWith(", my-laptop-ort-1t.json.xz"),
                 qPrintable(dock.latencyText()));
        qputenv("XDG_DATA_HOME", previous);
    }

    void deviceWithoutFiguresShowsWhy() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        auto& dock = *window.kernelDock();
        auto& document = *window.document();
        QTemporaryDir dir;
        QVERIFY(predictOn(document, cleave::test::deviceWithoutFigures(dir)));
        const auto& report = *document.latency();
        QVERIFY(!report.hasFigures());
        QVERIFY(report.latency.kernels.empty());
        QVERIFY2(QString::fromStdString(report.error).contains(cleave::test::kDeviceWithoutFigures),
                 report.error.c_str());
        QCOMPARE(dock.latencyText(), QString::fromStdString(report.error));
        for (const auto& cell : latencyColumn(dock, Qt::DisplayRole))
            QVERIFY(!cell.isValid());
    }

    void switchingRuleSetsPredictsTheNewKernels() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        auto& dock = *window.kernelDock();
        auto& document = *window.document();
        QVERIFY(predictOn(document, "jetson-xavier-nx"));
        QSignalSpy changed(&document, &StudioDocument::latencyChanged);
        QVERIFY(dock.setRuleSet("tflite-gpu"));
        QVERIFY(changed.wait(30000));
        QCOMPARE(document.latency()->request.kernels, document.kernels());
        QCOMPARE(document.latency()->latency.kernels.size(), std::size_t{24});
        for (const auto& cell : latencyColumn(dock, KernelTableModel::SortRole))
            QVERIFY(cell.toDouble() > 0);
    }
};

QTEST_MAIN(KernelDockTest)
#include "kernel_dock_test.moc"
