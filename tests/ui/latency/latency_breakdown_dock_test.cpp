// The latency breakdown: ResNet-18's predicted time on a device summed by kernel type, one bar per
// type with the slowest on top, and the reason instead of bars for a device without figures.
#include "../device_without_figures.hpp"
#include "../studio_waits.hpp"
#include "ui/charts/latency_breakdown_chart.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/latency/kernel_dock.hpp"
#include "ui/latency/latency_breakdown_dock.hpp"
#include "ui/latency/latency_by_type_model.hpp"
#include "ui/shell/main_window.hpp"

#include <QBarSet>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

using cleave::ui::StudioDocument;
using cleave::ui::LatencyByTypeModel;
using cleave::ui::MainWindow;

using cleave::test::openModel;
using cleave::test::predictOn;

namespace {

// Predicted ms per kernel type, summed from the kernel table.
std::map<QString, double> msByType(const StudioDocument& document) {
    std::map<QString, double> sums;
    const auto& kernels = document.kernels()->kernels;
    for (std::size_t k = 0; k < kernels.size(); ++k)
        sums[QString::fromStdString(kernels[k].type)] +=
            document.latency()->latency.kernels[k].us / 1000;
    return sums;
}

} // namespace

class LatencyBreakdownDockTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void oneBarPerKernelType() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        QVERIFY(predictOn(*window.document(), "jetson-xavier-nx"));
        const auto expected = msByType(*window.document());
        QCOMPARE(expected.size(), std::size_t{8});
        const auto* chart = window.breakdownDock()->chart();
        QVERIFY(chart->isVisibleTo(window.breakdownDock()));
        const QBarSet* bars = chart->bars();
        QVERIFY(bars);
        QCOMPARE(bars->count(), static_cast<int>(expected.size()));
        QCOMPARE(chart->categories().size(), static_cast<int>(expected.size()));
        double previous = 0;
        for (int i = 0; i < bars->count(); ++i) { // bottom up
            const QString type = chart->categories()[i];
            QVERIFY2(expected.count(type), qPrintable(type));
            QVERIFY(qAbs(bars->at(i) - expected.at(type)) < 1e-9);
            QVERIFY(bars->at(i) >= previous); // the slowest type on top
            previous = bars->at(i);
        }
        // As `cleave predict resnet18.onnx --device jetson-xavier-nx` lists them: the convolutions
        // that feed a residual Add (ONNX Runtime fuses their batch norm only) cost the most.
        QCOMPARE(chart->categories(), (QStringList{"Flatten", "GlobalAveragePool", "MaxPool",
                                                   "Gemm", "Relu", "Add", "FusedConv", "Conv"}));
        QCOMPARE(window.breakdownDock()->headline(), window.kernelDock()->latencyText());
    }

    void barsFollowTheDevice() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        QVERIFY(predictOn(*window.document(), "jetson-xavier-nx"));
        const double nx = window.breakdownDock()->chart()->bars()->sum();
        QVERIFY(predictOn(*window.document(), "nvidia-h100"));
        const double h100 = window.breakdownDock()->chart()->bars()->sum();
        QVERIFY(qAbs(h100 - window.document()->latency()->latency.kernels_ms) < 1e-9);
        QVERIFY(h100 < nx);
        QVERIFY(window.breakdownDock()->headline().contains("on nvidia-h100"));
    }

    void deviceWithoutFiguresShowsWhyInsteadOfBars() {
        MainWindow window;
        QVERIFY(openModel(window, "resnet18"));
        QTemporaryDir dir;
        QVERIFY(predictOn(*window.document(), cleave::test::deviceWithoutFigures(dir)));
        QCOMPARE(window.breakdownDock()->byType()->rowCount(), 0);
        QVERIFY(!window.breakdownDock()->chart()->isVisibleTo(window.breakdownDock()));
        QCOMPARE(window.breakdownDock()->headline(),
                 QString::fromStdString(window.document()->latency()->error));
    }
};

QTEST_MAIN(LatencyBreakdownDockTest)
#include "latency_breakdown_dock_test.moc"
