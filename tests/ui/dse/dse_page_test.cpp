// The DSE tab: ResNet-18 (40 ort-cpu kernels) on the eight Jetson Xavier NX of nx8.cluster.json,
// their GPUs and CPUs. A short search fills the front, the hypervolume and the table; a clicked row
// or point becomes the Partition tab's mapping in one undo step; pause holds the search, cancel
// keeps the front so far; settings the search cannot run are refused with the reason.
#include "core/device/cluster.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "../studio_waits.hpp"
#include "core/dse/front_output.hpp"
#include "ui/charts/front_3d_chart.hpp"
#include "ui/charts/hypervolume_chart.hpp"
#include "ui/charts/parallel_coordinates_chart.hpp"
#include "ui/charts/pareto_front_chart.hpp"
#include "ui/document/dse_document.hpp"
#include "ui/dse/dse_page.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/partition/partition_page.hpp"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
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
#include <QScatter3DSeries>
#include <QScatterDataProxy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <fstream>
#include <sstream>

using cleave::ui::DseDocument;
using cleave::ui::DsePage;
using cleave::ui::PartitionDocument;
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

// Population 8, one analytical level: 4 stages over 2, 4, 8 and 16 PEs.
void shortSearch(DsePage& panel, int generations) {
    panel.populationBox()->setValue(8);
    panel.generationsBox()->setValue(generations);
    panel.levelsBox()->setCurrentIndex(panel.levelsBox()->findData(1));
}

bool waitFinished(DsePage& panel) {
    QSignalSpy finished(&panel, &DsePage::finished);
    return !panel.isRunning() || finished.wait(30000);
}

// The row of the table whose mapping is not `mapping`.
int rowOtherThan(const DsePage& panel, const cleave::partition::Mapping& mapping) {
    for (int i = 0; i < static_cast<int>(panel.document()->front().size()); ++i) {
        const auto& m = panel.document()->front()[static_cast<std::size_t>(i)].mapping;
        if (m.points != mapping.points || m.pes != mapping.pes)
            return i;
    }
    return -1;
}

// a dominates b: no worse in every objective, better in one.
bool dominates(const cleave::dse::Solution& a, const cleave::dse::Solution& b) {
    bool better = false;
    for (std::size_t j = 0; j < a.objectives.size(); ++j) {
        if (a.objectives[j] > b.objectives[j])
            return false;
        better = better || a.objectives[j] < b.objectives[j];
    }
    return better;
}

int countMarks(const DsePage& panel, cleave::ui::ScatterCloudItem::Mark mark) {
    int n = 0;
    for (const auto& p : panel.frontChart()->cloud()->points())
        n += p.mark == mark ? 1 : 0;
    return n;
}

int countKind(const DsePage& panel, DseDocument::PointKind kind) {
    int n = 0;
    for (int i = 0; i < static_cast<int>(panel.document()->evaluated().size()); ++i)
        n += panel.document()->kindOf(i) == kind ? 1 : 0;
    return n;
}

void choose(QComboBox* box, const QString& text) {
    const int index = box->findText(text);
    QVERIFY2(index >= 0, qPrintable(text));
    box->setCurrentIndex(index);
}

std::string readFile(const QString& path) {
    std::ifstream in(path.toStdString());
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The Partition tab showing ResNet-18 on nx8 and a DSE panel searching it, built in that order.
struct Resnet18Panel {
    PartitionDocument mapping;
    PartitionPage page{&mapping};
    DseDocument dse{withInputs(page)};
    DsePage panel{&dse};

private:
    static cleave::ui::PartitionDocument* withInputs(PartitionPage& page) {
        page.document()->setInputs(resnet18OnNx8());
        return page.document();
    }
};

// Shown at 1200x800 (charts and hit tests need a laid-out, exposed panel).
struct ShownResnet18Panel : Resnet18Panel {
    ShownResnet18Panel() {
        panel.resize(1200, 800);
        panel.show();
    }
};

} // namespace

class DsePanelTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void searchFillsTheTableAndARowIsOneUndoStep() {
        ShownResnet18Panel shown;
        auto& page = shown.page;
        auto& panel = shown.panel;
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
        QVERIFY2(panel.runner()->error().isEmpty(), qPrintable(panel.runner()->error()));
        QVERIFY(!panel.document()->cancelled());
        QCOMPARE(panel.document()->evaluations(), std::int64_t{8 * 31});
        QCOMPARE(panel.progressBar()->value(), 8 * 31);
        QVERIFY(panel.statusText().startsWith("Done"));

        // The table lists the front, fastest first; the charts show it and every generation.
        QVERIFY(!panel.document()->front().empty());
        QCOMPARE(panel.table()->model()->rowCount(), static_cast<int>(panel.document()->front().size()));
        for (std::size_t i = 1; i < panel.document()->front().size(); ++i)
            QVERIFY(panel.document()->front()[i - 1].throughput_per_s >= panel.document()->front()[i].throughput_per_s);
        QCOMPARE(panel.table()->model()->index(0, 0).data().toString(),
                 QString::number(panel.document()->front()[0].throughput_per_s, 'f', 1));
        auto* hypervolume = panel.hypervolumeChart()->series();
        QCOMPARE(static_cast<std::size_t>(hypervolume->count()),
                 panel.document()->history().size());
        QVERIFY(hypervolume->at(hypervolume->count() - 1).y() > 0);
        int points = 0;
        for (auto* series : panel.frontChart()->series())
            points += static_cast<int>(series->count());
        QCOMPARE(points, static_cast<int>(panel.document()->front().size()));
        // Energy is an objective (the NX PEs have power figures): the default colour.
        QCOMPARE(panel.colourBox()->currentText(), QString("max energy (mJ)"));
        QVERIFY(panel.solutionSummary(0).contains("on nx0"));

        // A click on a row applies its mapping; undo brings the old one back.
        auto* document = page.document();
        const auto before = document->mapping();
        const int undoSteps = document->undoStack()->count();
        const int row = rowOtherThan(panel, before);
        QVERIFY(row >= 0);
        QSignalSpy applied(&panel, &DsePage::solutionApplied);
        auto* table = panel.table();
        const QRect cell = table->visualRect(table->model()->index(row, 0));
        QVERIFY(cell.isValid());
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(applied.count(), 1);
        QCOMPARE(applied.at(0).at(0).toInt(), row);
        const auto& chosen = panel.document()->front()[static_cast<std::size_t>(row)].mapping;
        QCOMPARE(document->mapping().points, chosen.points);
        QCOMPARE(document->mapping().pes, chosen.pes);
        QCOMPARE(document->undoStack()->count(), undoSteps + 1);
        QVERIFY(std::abs(document->evaluation().throughput_per_s -
                         panel.document()->front()[static_cast<std::size_t>(row)].throughput_per_s) < 1e-6 *
                    document->evaluation().throughput_per_s);
        document->undoStack()->undo();
        QCOMPARE(document->mapping().points, before.points);
        QCOMPARE(document->mapping().pes, before.pes);

        // Other kernels or another cluster: the front no longer applies and is cleared.
        document->setInputs(nullptr);
        QVERIFY(panel.document()->front().empty());
        QCOMPARE(panel.table()->model()->rowCount(), 0);
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(!panel.run());
    }

    void pauseHoldsTheSearchAndCancelKeepsTheFront() {
        Resnet18Panel fixture;
        auto& panel = fixture.panel;
        panel.resize(1000, 700);
        panel.show();
        shortSearch(panel, 1000000); // far more than the test waits for
        QVERIFY(panel.run());
        QVERIFY(QTest::qWaitFor([&] { return !panel.document()->front().empty(); }, 20000));

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
        QVERIFY(panel.document()->cancelled());
        QVERIFY(panel.document()->evaluations() < std::int64_t{8} * 1000001);
        QVERIFY(!panel.document()->front().empty());
        QCOMPARE(panel.document()->front().size(), panel.runner()->result().front.size());
        QCOMPARE(panel.table()->model()->rowCount(),
                 static_cast<int>(panel.document()->front().size()));
        QVERIFY2(panel.statusText().startsWith("Cancelled"), qPrintable(panel.statusText()));
        QVERIFY(panel.runButton()->isEnabled());
        QVERIFY(!panel.cancelButton()->isEnabled());
    }

    // New kernels or a new cluster cancel the search under way; its front is not shown.
    void newInputsCancelTheSearch() {
        Resnet18Panel fixture;
        auto& page = fixture.page;
        auto& panel = fixture.panel;
        shortSearch(panel, 1000000);
        QVERIFY(panel.run());
        QVERIFY(QTest::qWaitFor([&] { return !panel.document()->front().empty(); }, 20000));
        QSignalSpy finished(&panel, &DsePage::finished);
        page.document()->setInputs(
            std::make_shared<const cleave::ui::PartitionInputs>(*resnet18OnNx8()));
        QVERIFY(panel.document()->front().empty());
        QVERIFY(finished.wait(20000));
        QVERIFY(panel.runner()->result().cancelled);
        QVERIFY(panel.document()->front().empty());
        QCOMPARE(panel.table()->model()->rowCount(), 0);
        QVERIFY2(panel.statusText().contains("cancelled"), qPrintable(panel.statusText()));
        // A search over the new inputs runs.
        shortSearch(panel, 30);
        QVERIFY(panel.run());
        QVERIFY(waitFinished(panel));
        QVERIFY(!panel.document()->front().empty());
    }

    void settingsTheSearchCannotRunAreRefused() {
        Resnet18Panel fixture;
        auto& panel = fixture.panel;
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
        auto* panel = window.dsePage();
        QVERIFY(!tabs->isTabEnabled(tabs->indexOf(panel)));
        QVERIFY(cleave::test::openModel(window, "resnet18"));
        QSignalSpy prepared(window.document()->mapping(), &cleave::ui::PartitionDocument::prepared);
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
        const auto& solution = panel->document()->front()[static_cast<std::size_t>(index)];
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
        for (const auto& s : panel->document()->front())
            shown = shown || (document->mapping().points == s.mapping.points &&
                              document->mapping().pes == s.mapping.pes);
        QVERIFY(shown);
    }

    // What the search evaluated besides the front is kept, classified against the front and
    // drawn as the two choices say: hidden, shown (dots) or marked (squares, red crosses).
    void dominatedAndInfeasiblePointsAreShownHiddenOrMarked() {
        using Mark = cleave::ui::ScatterCloudItem::Mark;
        ShownResnet18Panel shown;
        auto& page = shown.page;
        auto& panel = shown.panel;
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        shortSearch(panel, 30);
        QVERIFY(panel.run());
        QVERIFY(waitFinished(panel));
        const auto& evaluated = panel.document()->evaluated();
        QVERIFY(evaluated.size() > panel.document()->front().size());
        QVERIFY(evaluated.size() <= cleave::ui::DseEvaluatedPoints::kDefaultCapacity);
        // Every solution of the front was evaluated and is classified as on it.
        QCOMPARE(countKind(panel, DseDocument::PointKind::front), static_cast<int>(panel.document()->front().size()));
        const int dominated = countKind(panel, DseDocument::PointKind::dominated);
        const int undominated = countKind(panel, DseDocument::PointKind::undominated);
        QVERIFY(dominated > 0);
        // No NX overflows its 8 GiB with ResNet-18: the infeasible points are mappings whose PEs
        // would wait on each other, a PE running two segments with another's in between.
        const int waiting = countKind(panel, DseDocument::PointKind::infeasible);
        for (int i = 0; i < static_cast<int>(evaluated.size()); ++i)
            if (panel.document()->kindOf(i) == DseDocument::PointKind::infeasible) {
                auto pes = evaluated[static_cast<std::size_t>(i)].mapping.pes;
                std::sort(pes.begin(), pes.end());
                QVERIFY(std::adjacent_find(pes.begin(), pes.end()) != pes.end());
            }
        for (int i = 0; i < static_cast<int>(evaluated.size()); ++i) {
            bool byFront = false;
            for (const auto& f : panel.document()->front())
                byFront = byFront || dominates(f, evaluated[static_cast<std::size_t>(i)]);
            if (panel.document()->kindOf(i) == DseDocument::PointKind::dominated)
                QVERIFY(byFront);
            if (panel.document()->kindOf(i) == DseDocument::PointKind::undominated)
                QVERIFY(!byFront);
        }

        // The defaults: dominated shown, infeasible hidden.
        auto* cloud = panel.frontChart()->cloud();
        QCOMPARE(static_cast<int>(cloud->points().size()), dominated + undominated);
        QCOMPARE(panel.cloud().size(), cloud->points().size());
        QCOMPARE(countMarks(panel, Mark::dot), dominated + undominated);
        // Hovering a dot of the cloud names it; a click applies it as one undo step.
        {
            auto* view = panel.frontChart();
            // A dominated dot away from the front's markers (they lie on top and take the hover).
            int dot = -1;
            double farthest = 0;
            for (int k = 0; k < static_cast<int>(panel.cloud().size()); ++k) {
                if (panel.document()->kindOf(panel.cloud()[static_cast<std::size_t>(k)]) != DseDocument::PointKind::dominated)
                    continue;
                double nearest = 1e9;
                for (auto* series : view->series())
                    for (const auto& p : series->points())
                        nearest = std::min(nearest, QLineF(view->chart()->mapToPosition(p, series),
                                                           cloud->positionOf(k)).length());
                if (nearest > farthest) {
                    farthest = nearest;
                    dot = k;
                }
            }
            QVERIFY(dot >= 0 && farthest > 12);
            const QPoint at = view->mapFromScene(cloud->mapToScene(cloud->positionOf(dot)));
            QSignalSpy hovered(view, &cleave::ui::ParetoFrontChart::cloudHovered);
            QTest::mouseMove(view->viewport(), at);
            QTRY_VERIFY(!hovered.isEmpty());
            const int index = hovered.back().at(0).toInt();
            QVERIFY(QLineF(cloud->positionOf(index), cloud->positionOf(dot)).length() <= 5);
            const int steps = page.document()->undoStack()->count();
            QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
            const auto& applied = evaluated[static_cast<std::size_t>(panel.cloud()[static_cast<std::size_t>(index)])];
            QCOMPARE(page.document()->mapping().points, applied.mapping.points);
            QCOMPARE(page.document()->mapping().pes, applied.mapping.pes);
            QCOMPARE(page.document()->undoStack()->count(), steps + 1);
        }
        choose(panel.dominatedBox(), "marked");
        QCOMPARE(countMarks(panel, Mark::square), dominated);
        QCOMPARE(countMarks(panel, Mark::dot), undominated);
        choose(panel.dominatedBox(), "hidden");
        QCOMPARE(static_cast<int>(cloud->points().size()), undominated);
        // The front itself is always drawn, by its own series.
        int frontPoints = 0;
        for (auto* series : panel.frontChart()->series())
            frontPoints += static_cast<int>(series->count());
        QCOMPARE(frontPoints, static_cast<int>(panel.document()->front().size()));

        // More infeasible points, marked so in a saved state.
        auto state = panel.document()->saveState();
        int madeInfeasible = 0;
        auto& entries = state["result"]["evaluated"];
        for (std::size_t i = 0; i < entries.size() && madeInfeasible < 5; ++i)
            if (panel.document()->kindOf(static_cast<int>(i)) == DseDocument::PointKind::dominated) {
                entries[i]["feasible"] = false;
                ++madeInfeasible;
            }
        QCOMPARE(madeInfeasible, 5);
        QVERIFY2(panel.document()->restoreState(state).isEmpty(), qPrintable(panel.statusText()));
        QCOMPARE(countKind(panel, DseDocument::PointKind::infeasible), waiting + 5);
        QCOMPARE(panel.infeasibleBox()->currentText(), QString("hidden"));
        QCOMPARE(static_cast<int>(cloud->points().size()), undominated);
        choose(panel.infeasibleBox(), "shown");
        QCOMPARE(static_cast<int>(cloud->points().size()), undominated + waiting + 5);
        QCOMPARE(countMarks(panel, Mark::cross), 0);
        choose(panel.infeasibleBox(), "marked");
        QCOMPARE(countMarks(panel, Mark::cross), waiting + 5);
        choose(panel.dominatedBox(), "shown");
        QCOMPARE(static_cast<int>(cloud->points().size()),
                 dominated - 5 + undominated + waiting + 5);
    }

    // Naive genes scatter resnet18's kernels: no mapping met can run, and the status says why.
    void anEmptyFrontIsExplained() {
        Resnet18Panel fixture;
        auto& panel = fixture.panel;
        shortSearch(panel, 10);
        panel.encodingBox()->setCurrentIndex(panel.encodingBox()->findData("naive"));
        panel.stagesBox()->setCurrentIndex(panel.stagesBox()->findData(1));
        QVERIFY(panel.run());
        QVERIFY(waitFinished(panel));
        QVERIFY(panel.document()->front().empty());
        QVERIFY2(panel.statusText().contains("The search met no mapping that can run"),
                 qPrintable(panel.statusText()));
    }

    void pointsCanBeColouredByGeneration() {
        Resnet18Panel fixture;
        auto& panel = fixture.panel;
        shortSearch(panel, 30);
        QVERIFY(panel.run());
        QVERIFY(waitFinished(panel));
        choose(panel.colourBox(), "generation");
        const auto& evaluated = panel.document()->evaluated();
        int first = INT_MAX, last = 0;
        for (const auto& s : evaluated) {
            first = std::min(first, s.generation);
            last = std::max(last, s.generation);
        }
        QCOMPARE(first, 0); // the initial population
        QVERIFY(last > 10);
        auto* chart = panel.frontChart();
        QVERIFY(chart->colourFor(first) != chart->colourFor(last));
        // Each dot has the colour of its generation; the legend names the unit.
        const auto& points = chart->cloud()->points();
        QCOMPARE(points.size(), panel.cloud().size());
        for (std::size_t k = 0; k < points.size(); ++k)
            QCOMPARE(points[k].colour,
                     chart->colourFor(evaluated[static_cast<std::size_t>(panel.cloud()[k])].generation));
        bool named = false;
        for (auto* series : chart->series())
            named = named || series->name().endsWith("(generation)");
        QVERIFY(named);
        // Front solutions carry the generation they first reached a front in.
        for (const auto& s : panel.document()->front())
            QVERIFY(s.generation >= 0 && s.generation <= last);
    }

    void theFrontIsExportedAsCsvAndJson() {
        Resnet18Panel fixture;
        auto& page = fixture.page;
        auto& panel = fixture.panel;
        QVERIFY(!panel.exportFrontButton()->isEnabled());
        shortSearch(panel, 30);
        QVERIFY(panel.run());
        QVERIFY(waitFinished(panel));
        QVERIFY(panel.exportFrontButton()->isEnabled());
        QTemporaryDir dir;
        const auto& front = panel.document()->front();
        const auto& cluster = *resnet18OnNx8()->request.cluster;

        QVERIFY(panel.exportFront(dir.filePath("front.csv")));
        std::istringstream csv(readFile(dir.filePath("front.csv")));
        std::string line;
        std::getline(csv, line);
        QCOMPARE(QString::fromStdString(line),
                 QString("throughput_per_s,bottleneck_ms,max_memory_bytes,max_energy_mj,stage,level,"
                         "generation,feasible,points,pes"));
        std::size_t rows = 0;
        while (std::getline(csv, line)) {
            const auto& s = front[rows++];
            QCOMPARE(std::stod(line.substr(0, line.find(','))), s.throughput_per_s);
            QVERIFY(QString::fromStdString(line).endsWith(
                QString::fromStdString(cluster.pes[static_cast<std::size_t>(s.mapping.pes.back())].key) + "\""));
        }
        QCOMPARE(rows, front.size());

        QVERIFY(panel.exportFront(dir.filePath("front.json")));
        const auto json = nlohmann::json::parse(readFile(dir.filePath("front.json")));
        const auto names = json.at("objectives").get<std::vector<std::string>>();
        QCOMPARE(names.size(), std::size_t(3));
        QCOMPARE(json.at("front").size(), front.size());
        QCOMPARE(json.at("hypervolume").size(), panel.document()->history().size());
        QCOMPARE(json.at("kernels").get<int>(), 40);
        for (std::size_t i = 0; i < front.size(); ++i) {
            // What cleave dse --json's reader reads.
            const auto s = cleave::dse::solution_from_json(json["front"][i], names, cluster,
                                                           "front.json", "/front");
            QCOMPARE(s.mapping.points, front[i].mapping.points);
            QCOMPARE(s.mapping.pes, front[i].mapping.pes);
            QCOMPARE(s.objectives, front[i].objectives);
            QCOMPARE(s.generation, front[i].generation);
        }
        // A folder that is not there: refused, with the reason.
        QVERIFY(!panel.exportFront(dir.filePath("no/such/front.csv")));
        QVERIFY(panel.errorText().contains("front.csv"));

        // Export Package: the selected solution is applied, then the window is asked to export.
        QVERIFY(!panel.exportPackageButton()->isEnabled());
        const int row = rowOtherThan(panel, page.document()->mapping());
        QVERIFY(row >= 0);
        panel.table()->selectRow(row);
        QVERIFY(panel.exportPackageButton()->isEnabled());
        QSignalSpy requested(&panel, &DsePage::exportPackageRequested);
        panel.exportPackageButton()->click();
        QCOMPARE(requested.count(), 1);
        QCOMPARE(page.document()->mapping().points, front[static_cast<std::size_t>(row)].mapping.points);
        QCOMPARE(page.document()->mapping().pes, front[static_cast<std::size_t>(row)].mapping.pes);
    }

    // Latency makes four objectives: parallel coordinates, one line per solution on show.
    void parallelCoordinatesShowEveryObjective() {
        ShownResnet18Panel shown;
        auto& page = shown.page;
        auto& panel = shown.panel;
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        shortSearch(panel, 30);
        auto* latency = panel.findChild<QCheckBox*>();
        QVERIFY(latency);
        latency->setChecked(true);
        QVERIFY(panel.run());
        QCOMPARE(panel.views()->currentWidget(), panel.parallelChart());
        QVERIFY(waitFinished(panel));
        auto* chart = panel.parallelChart();
        QCOMPARE(chart->axisCount(), 4);
        QCOMPARE(chart->lines().size(), panel.document()->front().size() + panel.cloud().size());
        QVERIFY(!panel.cloud().empty());
        choose(panel.dominatedBox(), "hidden");
        QCOMPARE(chart->lines().size(),
                 panel.document()->front().size() + static_cast<std::size_t>(countKind(panel, DseDocument::PointKind::undominated)));
        // Each axis runs from its least value (bottom) to its greatest (top).
        int least = 0, most = 0;
        const auto& lines = chart->lines();
        for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
            if (lines[static_cast<std::size_t>(i)].values[1] < lines[static_cast<std::size_t>(least)].values[1])
                least = i;
            if (lines[static_cast<std::size_t>(i)].values[1] > lines[static_cast<std::size_t>(most)].values[1])
                most = i;
        }
        QVERIFY(chart->positionOf(least, 1).y() > chart->positionOf(most, 1).y() + 50);
        // Hovering a front line highlights it; a click applies its solution.
        const int row = rowOtherThan(panel, page.document()->mapping());
        QVERIFY(row >= 0);
        const QPointF middle = (chart->positionOf(row, 1) + chart->positionOf(row, 2)) / 2;
        QTest::mouseMove(chart, middle.toPoint());
        QTRY_VERIFY(chart->highlighted() >= 0);
        const int hovered = chart->highlighted();
        QVERIFY(hovered < static_cast<int>(panel.document()->front().size())); // a front line wins
        QSignalSpy applied(&panel, &DsePage::solutionApplied);
        QTest::mouseClick(chart, Qt::LeftButton, {}, middle.toPoint());
        QCOMPARE(applied.count(), 1);
        QCOMPARE(page.document()->mapping().points,
                 panel.document()->front()[static_cast<std::size_t>(hovered)].mapping.points);
        QCOMPARE(page.document()->mapping().pes,
                 panel.document()->front()[static_cast<std::size_t>(hovered)].mapping.pes);
    }

    // The 3-D view's series hold the front and the points on show without being drawn.
    void theThreeDSeriesHoldThePoints() {
        Resnet18Panel fixture;
        auto& panel = fixture.panel;
        shortSearch(panel, 30);
        QVERIFY(panel.run());
        QVERIFY(waitFinished(panel));
        auto* chart = panel.front3dChart();
        QVERIFY(!chart->hasGraph()); // never shown
        QCOMPARE(chart->frontSeries()->dataProxy()->itemCount(), static_cast<int>(panel.document()->front().size()));
        QCOMPARE(chart->otherSeries()->dataProxy()->itemCount(), static_cast<int>(panel.cloud().size()));
        QCOMPARE(panel.zAxisBox()->currentText(), QString("max energy (mJ)"));
        const auto& s = panel.document()->front()[0];
        const auto item = chart->frontSeries()->dataProxy()->itemAt(0)->position();
        QCOMPARE(item.x(), static_cast<float>(s.throughput_per_s));
        QCOMPARE(item.z(), static_cast<float>(s.objectives[2]));
        choose(panel.dominatedBox(), "hidden");
        QCOMPARE(chart->otherSeries()->dataProxy()->itemCount(), static_cast<int>(panel.cloud().size()));
    }

    // saveState as a project file would keep it (text), restored into a fresh panel: the front,
    // the evaluated points, the history and the choices come back and apply without a search.
    void stateRoundTripsWithoutASearch() {
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        page.document()->setInputs(resnet18OnNx8());
        nlohmann::json saved;
        std::vector<cleave::dse::Solution> front, evaluated;
        std::size_t history = 0;
        {
            DseDocument panelDse(page.document());
            DsePage panel(&panelDse);
            shortSearch(panel, 30);
            panel.seedBox()->setValue(7);
            QVERIFY(panel.run());
            QVERIFY(waitFinished(panel));
            choose(panel.colourBox(), "generation");
            choose(panel.dominatedBox(), "marked");
            choose(panel.infeasibleBox(), "shown");
            panel.views()->setCurrentIndex(1);
            saved = nlohmann::json::parse(panel.document()->saveState().dump());
            front = panel.document()->front();
            evaluated = panel.document()->evaluated();
            history = panel.document()->history().size();
        }
        DseDocument restoredDse(page.document());
        DsePage restored(&restoredDse);
        QVERIFY(restored.document()->front().empty());
        QVERIFY2(restored.document()->restoreState(saved).isEmpty(), qPrintable(restored.statusText()));
        QCOMPARE(restored.document()->settings().seed, 7u);
        QCOMPARE(restored.document()->settings().population, 8);
        QCOMPARE(restored.document()->settings().levels, 1);
        QCOMPARE(restored.colourBox()->currentText(), QString("generation"));
        QCOMPARE(restored.dominatedBox()->currentText(), QString("marked"));
        QCOMPARE(restored.infeasibleBox()->currentText(), QString("shown"));
        QCOMPARE(restored.views()->currentIndex(), 1);
        QCOMPARE(restored.document()->front().size(), front.size());
        for (std::size_t i = 0; i < front.size(); ++i) {
            QCOMPARE(restored.document()->front()[i].mapping.points, front[i].mapping.points);
            QCOMPARE(restored.document()->front()[i].mapping.pes, front[i].mapping.pes);
            QCOMPARE(restored.document()->front()[i].objectives, front[i].objectives);
            QCOMPARE(restored.document()->front()[i].generation, front[i].generation);
        }
        QCOMPARE(restored.document()->evaluated().size(), evaluated.size());
        QCOMPARE(restored.document()->evaluated().back().objectives, evaluated.back().objectives);
        QCOMPARE(restored.document()->history().size(), history);
        QCOMPARE(restored.hypervolumeChart()->series()->count(), static_cast<int>(history));
        QCOMPARE(restored.table()->model()->rowCount(), static_cast<int>(front.size()));
        QVERIFY(restored.exportFrontButton()->isEnabled());
        // Saving again gives the same state.
        QCOMPARE(nlohmann::json::parse(restored.document()->saveState().dump()), saved);
        // Its solutions apply.
        const int row = rowOtherThan(restored, page.document()->mapping());
        QVERIFY(row >= 0);
        QVERIFY(restored.applySolution(row));
        QCOMPARE(page.document()->mapping().pes, front[static_cast<std::size_t>(row)].mapping.pes);

        // Before the model and cluster are there the front waits for them.
        PartitionDocument laterMapping;
        PartitionPage later{&laterMapping};
        DseDocument waitingDse(later.document());
        DsePage waiting(&waitingDse);
        QVERIFY(waiting.document()->restoreState(saved).isEmpty());
        QVERIFY(waiting.document()->front().empty());
        QCOMPARE(waiting.seedBox()->value(), 7);
        QCOMPARE(nlohmann::json::parse(waiting.document()->saveState().dump())["result"], saved["result"]);
        later.document()->setInputs(resnet18OnNx8());
        QCOMPARE(waiting.document()->front().size(), front.size());
        QVERIFY(waiting.applySolution(0));

        // A front of other kernels is refused, with the reason.
        auto other = saved;
        other["result"]["kernels"] = 41;
        DseDocument refusingDse(page.document());
        DsePage refusing(&refusingDse);
        QVERIFY(!refusing.document()->restoreState(other).isEmpty());
        QVERIFY2(refusing.statusText().contains("41 kernels"), qPrintable(refusing.statusText()));
        QVERIFY(refusing.document()->front().empty());
    }
};

QTEST_MAIN(DsePanelTest)
#include "dse_page_test.moc"
