// The DSE tab: ResNet-18 (40 ort-cpu kernels) on the eight Jetson Xavier NX GPUs of
// nx8.cluster.json. A short search fills the front, the hypervolume and the table; a clicked row
// or point becomes the Partition tab's mapping in one undo step; pause holds the search, cancel
// keeps the front so far; settings the search cannot run are refused with the reason.
#include "core/device/cluster.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "studio_waits.hpp"
#include "ui/charts/hypervolume_chart.hpp"
#include "ui/charts/pareto_front_chart.hpp"
#include "ui/dse_panel.hpp"
#include "ui/main_window.hpp"
#include "ui/partition_document.hpp"
#include "ui/partition_page.hpp"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>

using cleave::ui::DsePanel;
using cleave::ui::PartitionPage;

namespace {

const QString kNx8 = QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/nx8.cluster.json";

// ResNet-18 on nx8, its latencies predicted on this thread.
cleave::ui::PartitionInputsPtr resnet18OnNx8() {
    static const auto inputs = [] {
        auto model = std::make_shared<const cleave::graph::Model>(cleave::graph::load_model(
            std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx"));
        auto kernels = std::make_shared<const cleave::fusion::KernelGraph>(
            cleave::fusion::detect_kernels(*model, cleave::fusion::find_fusion_method("ort-cpu")));
        auto cluster = std::make_shared<const cleave::device::Cluster>(
            cleave::device::load_cluster(kNx8.toStdString()));
        return std::make_shared<const cleave::ui::PartitionInputs>(
            cleave::ui::prepare_partition({model, kernels, cluster, "ort-cpu"}));
    }();
    return inputs;
}

// Population 8, one analytical level: 3 stages over 2, 4 and 8 GPUs.
void shortSearch(DsePanel& panel, int generations) {
    panel.populationBox()->setValue(8);
    panel.generationsBox()->setValue(generations);
    panel.levelsBox()->setCurrentIndex(panel.levelsBox()->findData(1));
}

bool waitFinished(DsePanel& panel) {
    QSignalSpy finished(&panel, &DsePanel::finished);
    return !panel.isRunning() || finished.wait(30000);
}

// The row of the table whose mapping is not `mapping`.
int rowOtherThan(const DsePanel& panel, const cleave::partition::Mapping& mapping) {
    for (int i = 0; i < static_cast<int>(panel.front().size()); ++i) {
        const auto& m = panel.front()[static_cast<std::size_t>(i)].mapping;
        if (m.points != mapping.points || m.pes != mapping.pes)
            return i;
    }
    return -1;
}

} // namespace

class DsePanelTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void searchFillsTheTableAndARowIsOneUndoStep() {
        PartitionPage page;
        page.document()->setInputs(resnet18OnNx8());
        DsePanel panel(page.document());
        panel.resize(1200, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.runButton()->isEnabled());
        // The defaults are the search's.
        QCOMPARE(panel.populationBox()->value(), cleave::dse::SearchSettings{}.population);
        QCOMPARE(panel.generationsBox()->value(), cleave::dse::SearchSettings{}.generations);

        shortSearch(panel, 30);
        QVERIFY2(panel.errorText().isEmpty(), qPrintable(panel.errorText()));
        QVERIFY(panel.run());
        QVERIFY(panel.isRunning());
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(waitFinished(panel));
        QVERIFY(!panel.isRunning());
        const auto& result = panel.runner()->result();
        QVERIFY2(panel.runner()->error().isEmpty(), qPrintable(panel.runner()->error()));
        QVERIFY(!result.cancelled);
        QCOMPARE(result.evaluations, std::int64_t{8 * 31});
        QCOMPARE(panel.progressBar()->value(), 8 * 31);
        QVERIFY(panel.statusText().startsWith("Done"));

        // The table lists the front, fastest first; the charts show it and every generation.
        QVERIFY(!panel.front().empty());
        QCOMPARE(panel.table()->model()->rowCount(), static_cast<int>(panel.front().size()));
        for (std::size_t i = 1; i < panel.front().size(); ++i)
            QVERIFY(panel.front()[i - 1].throughput_per_s >= panel.front()[i].throughput_per_s);
        QCOMPARE(panel.table()->model()->index(0, 0).data().toString(),
                 QString::number(panel.front()[0].throughput_per_s, 'f', 1));
        auto* hypervolume = panel.hypervolumeChart()->series();
        QCOMPARE(static_cast<std::size_t>(hypervolume->count()), result.history.size());
        QVERIFY(hypervolume->at(hypervolume->count() - 1).y() > 0);
        int points = 0;
        for (auto* series : panel.frontChart()->series())
            points += static_cast<int>(series->count());
        QCOMPARE(points, static_cast<int>(panel.front().size()));
        // Energy is an objective (the NX GPUs have power figures): the default colour.
        QCOMPARE(panel.colourBox()->currentText(), QString("max energy (mJ)"));
        QVERIFY(panel.solutionSummary(0).contains("on nx0"));

        // A click on a row applies its mapping; undo brings the old one back.
        auto* document = page.document();
        const auto before = document->mapping();
        const int undoSteps = document->undoStack()->count();
        const int row = rowOtherThan(panel, before);
        QVERIFY(row >= 0);
        QSignalSpy applied(&panel, &DsePanel::solutionApplied);
        auto* table = panel.table();
        const QRect cell = table->visualRect(table->model()->index(row, 0));
        QVERIFY(cell.isValid());
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(applied.count(), 1);
        QCOMPARE(applied.at(0).at(0).toInt(), row);
        const auto& chosen = panel.front()[static_cast<std::size_t>(row)].mapping;
        QCOMPARE(document->mapping().points, chosen.points);
        QCOMPARE(document->mapping().pes, chosen.pes);
        QCOMPARE(document->undoStack()->count(), undoSteps + 1);
        QVERIFY(std::abs(document->evaluation().throughput_per_s -
                         panel.front()[static_cast<std::size_t>(row)].throughput_per_s) < 1e-6 *
                    document->evaluation().throughput_per_s);
        document->undoStack()->undo();
        QCOMPARE(document->mapping().points, before.points);
        QCOMPARE(document->mapping().pes, before.pes);

        // Other kernels or another cluster: the front no longer applies and is cleared.
        document->setInputs(nullptr);
        QVERIFY(panel.front().empty());
        QCOMPARE(panel.table()->model()->rowCount(), 0);
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(!panel.run());
    }

    void pauseHoldsTheSearchAndCancelKeepsTheFront() {
        PartitionPage page;
        page.document()->setInputs(resnet18OnNx8());
        DsePanel panel(page.document());
        panel.resize(1000, 700);
        panel.show();
        shortSearch(panel, 1000000); // far more than the test waits for
        QVERIFY(panel.run());
        QVERIFY(QTest::qWaitFor([&] { return !panel.front().empty(); }, 20000));

        // The search runs off the UI thread: a 10 ms timer keeps ticking while it goes on.
        {
            QElapsedTimer clock;
            clock.start();
            qint64 last = 0, longest = 0;
            int ticks = 0;
            QTimer timer;
            QObject::connect(&timer, &QTimer::timeout, [&] {
                longest = std::max(longest, clock.elapsed() - last);
                last = clock.elapsed();
                ++ticks;
            });
            const int before = panel.progressBar()->value();
            timer.start(10);
            QTest::qWait(500);
            timer.stop();
            qInfo("UI event loop during the search: %d ticks of 10 ms in 500 ms, longest gap %lld ms",
                  ticks, static_cast<long long>(longest));
            QVERIFY(panel.isRunning());
            QVERIFY(panel.progressBar()->value() > before); // steps arrived meanwhile
            QVERIFY2(longest < 400, qPrintable(QString::number(longest)));
        }

        panel.pauseButton()->click();
        QVERIFY(panel.runner()->isPaused());
        QCOMPARE(panel.pauseButton()->text(), QString("Resume"));
        QTest::qWait(150); // the generation under way ends and is reported
        const int held = panel.progressBar()->value();
        QTest::qWait(300);
        QCOMPARE(panel.progressBar()->value(), held);
        QVERIFY(panel.isRunning());

        panel.pauseButton()->click();
        QVERIFY(!panel.runner()->isPaused());
        QVERIFY(QTest::qWaitFor([&] { return panel.progressBar()->value() > held; }, 10000));

        panel.cancelButton()->click();
        QVERIFY(waitFinished(panel));
        const auto& result = panel.runner()->result();
        QVERIFY(result.cancelled);
        QVERIFY(result.evaluations < std::int64_t{8} * 1000001);
        QVERIFY(!panel.front().empty());
        QCOMPARE(panel.front().size(), result.front.size());
        QCOMPARE(panel.table()->model()->rowCount(), static_cast<int>(result.front.size()));
        QVERIFY2(panel.statusText().startsWith("Cancelled"), qPrintable(panel.statusText()));
        QVERIFY(panel.runButton()->isEnabled());
        QVERIFY(!panel.cancelButton()->isEnabled());
    }

    // New kernels or a new cluster cancel the search under way; its front is not shown.
    void newInputsCancelTheSearch() {
        PartitionPage page;
        page.document()->setInputs(resnet18OnNx8());
        DsePanel panel(page.document());
        shortSearch(panel, 1000000);
        QVERIFY(panel.run());
        QVERIFY(QTest::qWaitFor([&] { return !panel.front().empty(); }, 20000));
        QSignalSpy finished(&panel, &DsePanel::finished);
        page.document()->setInputs(
            std::make_shared<const cleave::ui::PartitionInputs>(*resnet18OnNx8()));
        QVERIFY(panel.front().empty());
        QVERIFY(finished.wait(20000));
        QVERIFY(panel.runner()->result().cancelled);
        QVERIFY(panel.front().empty());
        QCOMPARE(panel.table()->model()->rowCount(), 0);
        QVERIFY2(panel.statusText().contains("cancelled"), qPrintable(panel.statusText()));
        // A search over the new inputs runs.
        shortSearch(panel, 30);
        QVERIFY(panel.run());
        QVERIFY(waitFinished(panel));
        QVERIFY(!panel.front().empty());
    }

    void settingsTheSearchCannotRunAreRefused() {
        PartitionPage page;
        page.document()->setInputs(resnet18OnNx8());
        DsePanel panel(page.document());
        panel.populationBox()->setValue(10);
        QVERIFY2(panel.errorText().contains("Population") &&
                     panel.errorText().contains("multiple of 4"),
                 qPrintable(panel.errorText()));
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(!panel.run());
        QVERIFY(!panel.isRunning());
        panel.populationBox()->setValue(12);
        QVERIFY(panel.errorText().isEmpty());
        QVERIFY(panel.runButton()->isEnabled());
        // Too few generations for every stage and level to get one.
        panel.populationBox()->setValue(8);
        panel.generationsBox()->setValue(3);
        QVERIFY2(panel.errorText().startsWith("Generations"), qPrintable(panel.errorText()));
        QVERIFY(!panel.runButton()->isEnabled());
    }

    // In the window: the tab waits for a model and a cluster; a clicked point of the front is
    // shown in the Partition tab.
    void aClickedPointIsShownInThePartitionTab() {
        cleave::ui::MainWindow window;
        auto* tabs = window.centralTabs();
        auto* panel = window.dsePanel();
        QVERIFY(!tabs->isTabEnabled(tabs->indexOf(panel)));
        QVERIFY(cleave::test::openModel(window, "resnet18"));
        QSignalSpy prepared(window.partitionPage(), &PartitionPage::prepared);
        QVERIFY(window.openCluster(kNx8));
        QVERIFY(prepared.wait(30000));
        QVERIFY(tabs->isTabEnabled(tabs->indexOf(panel)));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        tabs->setCurrentWidget(panel);

        shortSearch(*panel, 30);
        QVERIFY(panel->run());
        QVERIFY(waitFinished(*panel));
        auto* document = window.partitionPage()->document();
        const int index = rowOtherThan(*panel, document->mapping());
        QVERIFY(index >= 0);
        const auto& solution = panel->front()[static_cast<std::size_t>(index)];
        // Where that solution's marker is drawn: x throughput, y memory.
        auto* view = panel->frontChart();
        auto* chart = view->chart();
        auto* series = view->seriesOf(index);
        QVERIFY(series);
        const QPointF value(solution.throughput_per_s, solution.objectives[1] / (1024.0 * 1024.0));
        QVERIFY(series->points().contains(value));
        const QPoint at = view->mapFromScene(chart->mapToScene(chart->mapToPosition(value, series)));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(tabs->currentWidget(), window.partitionPage());
        // Another point may lie on top; whichever was clicked is the mapping on show.
        bool shown = false;
        for (const auto& s : panel->front())
            shown = shown || (document->mapping().points == s.mapping.points &&
                              document->mapping().pes == s.mapping.pes);
        QVERIFY(shown);
    }
};

QTEST_MAIN(DsePanelTest)
#include "dse_panel_test.moc"
