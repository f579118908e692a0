// Predicted against measured: ONNX Runtime's 1-thread Xeon run of ResNet-18
// (tests/data/ort-cpu-xeon-sample.json) as a scatter with one point per kernel the runtime timed,
// nothing to show before a dataset is open, and the errors for a model it lacks and a bad file.
#include "core/predict/measured_kernels.hpp"
#include "../studio_waits.hpp"
#include "ui/charts/measured_scatter_chart.hpp"
#include "ui/latency/kernel_dock.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/latency/measured_comparison_dock.hpp"
#include "ui/latency/measured_comparison_model.hpp"

#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineSeries>
#include <QMessageBox>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

using cleave::ui::KernelDock;
using cleave::ui::MainWindow;
using cleave::ui::MeasuredComparisonModel;

using cleave::test::openModel;
using cleave::test::waitForPrediction;

namespace {


const QString kSample = QString(CLEAVE_TEST_DATA_DIR) + "/ort-cpu-xeon-sample.json";

bool openMeasurements(MainWindow& window, const QString& path) {
    QSignalSpy loaded(&window, &MainWindow::measurementsLoaded);
    window.openMeasurements(path);
    return loaded.wait(30000);
}

// The kernels of the sample's resnet18 run that ONNX Runtime timed, laid over the model by core.
int timedKernels(const MainWindow& window) {
    const auto data = cleave::profile::load_measured_dataset(kSample.toStdString());
    for (const auto& run : data.runs)
        if (run.model == "resnet18") {
            const auto measured = cleave::predict::measured_kernels(*window.model(), run);
            return static_cast<int>(std::count_if(measured.us.begin(), measured.us.end(),
                                                  [](const auto& us) { return us.has_value(); }));
        }
    return -1;
}

} // namespace

class MeasuredComparisonDockTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void nothingToCompareBeforeMeasurementsAreOpen() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        QVERIFY(!window.comparisonDock()->toggleViewAction()->isEnabled());
        QVERIFY(window.comparisonDock()->isHidden());
        QVERIFY(!window.comparisonDock()->run());
        QCOMPARE(window.comparisonDock()->chart()->points()->count(), 0);
    }

    void scatterHasAPointPerTimedKernel() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        QVERIFY(openMeasurements(window, kSample));
        auto& dock = *window.comparisonDock();
        QVERIFY(window.comparisonDock()->toggleViewAction()->isEnabled());
        QVERIFY(!dock.isHidden());
        QVERIFY(dock.run());
        QCOMPARE(QString::fromStdString(dock.run()->model), QString("resnet18"));
        QCOMPARE(dock.runBox()->currentText(), QString("1 thread, 1×3×224×224"));
        QVERIFY(waitForPrediction(*window.document()));
        QCOMPARE(window.document()->latency()->request.measured, dock.run());

        const int timed = timedKernels(window);
        QVERIFY2(timed >= 30, qPrintable(QString::number(timed)));
        const auto* points = dock.chart()->points();
        QCOMPARE(points->count(), timed);
        QCOMPARE(dock.comparison()->rowCount(), timed);
        for (int row = 0; row < timed; ++row) {
            const QPointF p = points->at(row);
            QCOMPARE(p.x(), dock.comparison()
                                ->index(row, MeasuredComparisonModel::MeasuredMs)
                                .data()
                                .toDouble());
            QCOMPARE(p.y(), dock.comparison()
                                ->index(row, MeasuredComparisonModel::PredictedMs)
                                .data()
                                .toDouble());
            QVERIFY(p.x() > 0 && p.y() > 0);
        }
        const QString name =
            dock.comparison()->index(0, MeasuredComparisonModel::Kernel).data().toString();
        QVERIFY(!name.isEmpty());
        QVERIFY(dock.comparison()->index(0, 0).data(Qt::ToolTipRole).toString().contains(name));
        // y = x across the whole plot.
        const auto* identity = dock.chart()->identity();
        QCOMPARE(identity->count(), 2);
        QCOMPARE(identity->at(0).x(), identity->at(0).y());
        QCOMPARE(identity->at(1).x(), identity->at(1).y());
        QVERIFY2(dock.summary().startsWith(QString("%1 timed kernels, mean error ").arg(timed)),
                 qPrintable(dock.summary()));
    }

    void scatterFollowsTheDevice() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        QVERIFY(openMeasurements(window, kSample));
        QVERIFY(waitForPrediction(*window.document()));
        window.document()->setDevice("jetson-xavier-nx");
        QVERIFY(waitForPrediction(*window.document()));
        const QPointF before = window.comparisonDock()->chart()->points()->at(0);
        const QString summary = window.comparisonDock()->summary();
        window.document()->setDevice("nvidia-h100");
        QVERIFY(waitForPrediction(*window.document()));
        const QPointF after = window.comparisonDock()->chart()->points()->at(0);
        QCOMPARE(after.x(), before.x());
        QVERIFY(after.y() != before.y());
        QVERIFY(window.comparisonDock()->summary().endsWith(" ms predicted"));
        QVERIFY(window.comparisonDock()->summary() != summary);
    }

    void aCompressedModelFindsTheRunsOfItsName() {
        MainWindow window;
        QSignalSpy shown(&window, &MainWindow::modelShown);
        window.openFile(QString(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx.xz");
        QVERIFY(shown.wait(30000));
        QCOMPARE(window.model()->nodes.size(), std::size_t{69});
        QVERIFY(openMeasurements(window, kSample));
        QVERIFY(window.comparisonDock()->run());
        QCOMPARE(QString::fromStdString(window.comparisonDock()->run()->model),
                 QString("resnet18"));
    }

    void modelWithoutARunSaysSo() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet50"));
        QVERIFY(openMeasurements(window, kSample));
        QVERIFY(!window.comparisonDock()->run());
        QCOMPARE(window.comparisonDock()->chart()->points()->count(), 0);
        QVERIFY2(window.comparisonDock()->summary().contains(
                     "ort-cpu-xeon-sample.json has no run of resnet50"),
                 qPrintable(window.comparisonDock()->summary()));
        QVERIFY(waitForPrediction(*window.document()));
        QVERIFY(!window.document()->latency()->request.measured);
    }

    void badFileIsRefused() {
        MainWindow window;
        QTemporaryDir dir;
        const QString path = dir.filePath("runs.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"runs": [{"model": 3}]})");
        file.close();
        QSignalSpy failed(&window, &MainWindow::measurementsFailed);
        window.openMeasurements(path);
        QVERIFY(failed.wait(30000));
        QVERIFY2(failed.first().at(1).toString().contains(path),
                 qPrintable(failed.first().at(1).toString()));
        QVERIFY(!window.comparisonDock()->toggleViewAction()->isEnabled());
        const auto boxes = window.findChildren<QMessageBox*>();
        QCOMPARE(boxes.size(), 1);
    }
};

QTEST_MAIN(MeasuredComparisonDockTest)
#include "measured_comparison_dock_test.moc"
