// The Partition tab: ResNet-18 (40 ort-cpu kernels) on the eight Jetson Xavier NX boards of
// nx8.cluster.json. A cluster opened in the window, a bad cluster file reported with its place,
// split handles dragged with the mouse and moved with the keyboard, undo and redo of every edit,
// a host over its memory capacity drawn red, and mapping.json saved and opened again.
#include "../../core/modelgen/built_model.hpp"
#include "../studio_waits.hpp"
#include "core/autodice/mapping_file.hpp"
#include "core/device/cluster.hpp"
#include "core/device/device_library.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/partition/balanced_mapping.hpp"
#include "ui/shell/project_controller.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/partition/link_traffic_model.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/partition/partition_page.hpp"
#include "ui/partition/partition_view.hpp"
#include "ui/partition/pe_figures_view.hpp"
#include "ui/shell/main_window.hpp"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>

using cleave::ui::PartitionDocument;
using cleave::ui::PartitionPage;

namespace {

const QString kNx8 = QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/nx8.cluster.json";
const QString kCutMapping =
    QString(CLEAVE_TEST_DATA_DIR) + "/autodice/resnet18-conv-relu-cut/mapping.json";

cleave::ui::ModelPtr resnet18() {
    static const auto model = std::make_shared<const cleave::graph::Model>(
        cleave::graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx"));
    return model;
}

cleave::ui::KernelGraphPtr kernelsOf(const cleave::ui::ModelPtr& model) {
    return std::make_shared<const cleave::fusion::KernelGraph>(
        cleave::fusion::detect_kernels(*model, cleave::fusion::find_fusion_method("ort-cpu")));
}

// A page showing ResNet-18 on `cluster`, its latencies predicted on this thread.
void showOn(PartitionPage& page, cleave::ui::ClusterPtr cluster) {
    const auto model = resnet18();
    page.document()->setInputs(std::make_shared<const cleave::ui::PartitionInputs>(
        cleave::ui::prepare_partition({model, kernelsOf(model), std::move(cluster), "ort-cpu"})));
    page.resize(1200, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
}

// A studio document showing ResNet-18 on `cluster`, its latencies predicted, with `page` over its
// mapping: where mappings are opened.
void showIn(cleave::ui::StudioDocument& document, PartitionPage& page,
            cleave::ui::ClusterPtr cluster) {
    QSignalSpy prepared(document.mapping(), &PartitionDocument::prepared);
    document.setModel("resnet18.onnx", resnet18());
    document.setCluster(std::move(cluster));
    QVERIFY(prepared.wait(30000));
    page.resize(1200, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
}

cleave::ui::ClusterPtr nx8() {
    return std::make_shared<const cleave::device::Cluster>(
        cleave::device::load_cluster(kNx8.toStdString()));
}

// nx8 on boards whose device file gives the Carmel CPU no peak rate: CPUs without latencies
// beside GPUs with them, for the page's handling of PEs that cannot take kernels.
cleave::ui::ClusterPtr nx8WithoutCpuFigures() {
    auto hosts = cleave::device::load_cluster(kNx8.toStdString()).hosts;
    for (auto& host : hosts) {
        host.device.id = "nx-without-cpu-figures";
        host.device_ref = "nx-without-cpu-figures.json";
        host.device.processing_elements[0].peak_gflops = {};
    }
    return std::make_shared<const cleave::device::Cluster>(
        cleave::device::make_cluster(kNx8.toStdString(), hosts));
}

int gpuOf(const cleave::device::Cluster& cluster, const std::string& host) {
    return static_cast<int>(cluster.find_pe(host + "_gpu") - cluster.pes.data());
}

std::vector<int> gpus(const cleave::device::Cluster& cluster) {
    std::vector<int> pes;
    for (const auto& host : cluster.hosts)
        pes.push_back(gpuOf(cluster, host.host));
    return pes;
}

// Starts from the balanced split over every board's GPU, in host order, with no history.
void splitOverAllGpus(PartitionPage& page) {
    auto* document = page.document();
    const auto& inputs = *document->inputs();
    document->replaceMapping(cleave::partition::balanced_mapping(inputs.kernel_ms, gpus(*inputs.request.cluster)),
                             "test");
    document->undoStack()->clear();
}

double throughputOf(const cleave::ui::PartitionInputs& inputs,
                    const cleave::partition::Mapping& mapping) {
    return inputs.costs->evaluate(mapping).throughput_per_s;
}

} // namespace

class PartitionViewTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void openedClusterGetsTheBestBalancedMapping() {
        cleave::ui::MainWindow window;
        QVERIFY(cleave::test::openModel(window, "resnet18"));
        QSignalSpy prepared(window.document()->mapping(), &cleave::ui::PartitionDocument::prepared);
        QVERIFY(window.openCluster(kNx8));
        QCOMPARE(window.centralTabs()->currentWidget(), window.partitionPage());
        QVERIFY(prepared.wait(30000));
        auto* document = window.partitionPage()->document();
        QCOMPARE(document->kernelCount(), 40);
        const auto& inputs = *document->inputs();
        const auto& cluster = *inputs.request.cluster;
        // Only GPUs: each board's fastest PE, though the Carmel CPUs have latencies too.
        const auto all = gpus(cluster);
        for (const int pe : document->mapping().pes)
            QVERIFY(std::find(all.begin(), all.end(), pe) != all.end());
        for (int pe = 0; pe < static_cast<int>(cluster.pes.size()); ++pe)
            QVERIFY(document->isUsable(pe));
        // At least as fast as the whole model on one board, or split over all eight.
        const double throughput = document->evaluation().throughput_per_s;
        QVERIFY(throughput >= throughputOf(inputs, {{}, {all.front()}}));
        QVERIFY(throughput >= throughputOf(inputs, cleave::partition::balanced_mapping(inputs.kernel_ms, all)));
        // Every PE can take kernels: nothing to warn of.
        QVERIFY2(window.partitionPage()->noticeText().isEmpty(),
                 qPrintable(window.partitionPage()->noticeText()));
        QVERIFY2(window.partitionPage()->summaryText().contains("inferences/s"),
                 qPrintable(window.partitionPage()->summaryText()));

        // Edit > Undo and Redo (Ctrl+Z, Ctrl+Shift+Z) take back the Partition tab's edits.
        const auto before = document->mapping();
        QVERIFY(document->addSplit(20));
        QAction* undo = nullptr;
        QAction* redo = nullptr;
        for (auto* action : window.findChildren<QAction*>()) {
            if (action->shortcut() == QKeySequence(QKeySequence::Undo))
                undo = action;
            if (action->shortcut() == QKeySequence(QKeySequence::Redo))
                redo = action;
        }
        QVERIFY(undo && redo);
        QVERIFY(undo->isEnabled());
        undo->trigger();
        QCOMPARE(document->mapping().points, before.points);
        QCOMPARE(document->mapping().pes, before.pes);
        redo->trigger();
        QCOMPARE(document->mapping().points.size(), before.points.size() + 1);
    }

    // A mapping.json that cuts two Conv kernels from their Relus: the document fuses each PE's
    // nodes apart, shows the mapping once those kernels are predicted, and says which it cut.
    void mappingThatCutsKernelsIsShownWithThePartsFusedApart() {
        cleave::ui::MainWindow window;
        QVERIFY(cleave::test::openModel(window, "resnet18"));
        QSignalSpy prepared(window.document()->mapping(), &cleave::ui::PartitionDocument::prepared);
        QVERIFY(window.openCluster(kNx8));
        QVERIFY(prepared.wait(30000));
        auto* page = window.partitionPage();
        auto* document = page->document();
        QCOMPARE(document->kernelCount(), 40);
        QVERIFY(window.openMapping(kCutMapping));
        QVERIFY2(page->noticeText().contains("fused apart"), qPrintable(page->noticeText()));
        QVERIFY(prepared.wait(30000));
        QCOMPARE(document->kernelCount(), 42);
        QCOMPARE(window.document()->kernels()->kernels.size(), std::size_t(42));
        QCOMPARE(document->mapping().pes.size(), std::size_t(3));
        const auto& cluster = *document->inputs()->request.cluster;
        QCOMPARE(cluster.pes[static_cast<std::size_t>(document->mapping().pes[0])].key,
                 std::string("nx01_gpu"));
        QVERIFY2(page->noticeText().contains("mapping.json cuts through kernels") &&
                     page->noticeText().contains("/layer2/layer2.0/relu/Relu on nx03_gpu"),
                 qPrintable(page->noticeText()));
        // A project keeps the mapping by nodes: reopened, the parts are fused apart again.
        QTemporaryDir dir;
        const QString project = dir.filePath("cut.cleave");
        window.project()->setCloseDecider(
            [] { return cleave::ui::ProjectController::CloseDecision::discard; });
        QVERIFY(window.project()->saveAs(project));
        {
            cleave::ui::MainWindow reopened;
            QSignalSpy opened(reopened.project(), &cleave::ui::ProjectController::projectOpened);
            reopened.openFile(project);
            QVERIFY(opened.wait(60000));
            auto* again = reopened.partitionPage()->document();
            QCOMPARE(again->kernelCount(), 42);
            QCOMPARE(again->mapping().points, document->mapping().points);
            QCOMPARE(again->mapping().pes, document->mapping().pes);
        }
        // A new fusion method fuses the model whole again.
        QCOMPARE(window.document()->setRuleSet("ort-cpu"), QString());
        QVERIFY(window.document()->fusionParts().empty());
        QCOMPARE(window.document()->kernels()->kernels.size(), std::size_t(40));
    }

    void balanceEvensOutComputeOverTheMappingsPes() {
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        showOn(page, nx8());
        splitOverAllGpus(page);
        auto* document = page.document();
        const auto& cluster = *document->inputs()->request.cluster;
        QCOMPARE(document->mapping().pes, gpus(cluster));
        double total = 0;
        for (const double ms :
             document->inputs()->kernel_ms[static_cast<std::size_t>(gpuOf(cluster, "nx01"))])
            total += ms;
        double slowest = 0;
        for (const auto& pe : document->evaluation().pes)
            slowest = std::max(slowest, pe.compute_ms);
        QVERIFY(slowest < total / 4);
        // Moved off balance, Balance brings the same splits back, as one undo step.
        const auto balanced = document->mapping();
        QVERIFY(document->moveSplit(0, balanced.points[0] + 1));
        page.balance();
        QCOMPARE(document->mapping().points, balanced.points);
        QCOMPARE(document->undoStack()->count(), 2);
    }

    void badClusterFileIsReportedWithItsPlace() {
        cleave::ui::MainWindow window;
        QTemporaryDir dir;
        const QString path = dir.filePath("lab.cluster.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"version": 1, "hosts": [{"host": "a", "device": "jetson-xavier"}]})");
        file.close();
        QSignalSpy failed(&window, &cleave::ui::MainWindow::clusterFailed);
        QVERIFY(!window.openCluster(path));
        QCOMPARE(failed.count(), 1);
        const QString message = failed.first().at(1).toString();
        QVERIFY2(message.startsWith(path + ": /hosts/0/device"), qPrintable(message));
        QVERIFY(!window.document()->mapping()->request().cluster);
    }

    void draggingAHandleMovesTheSplitAndTheFigures() {
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        showOn(page, nx8());
        splitOverAllGpus(page);
        auto* document = page.document();
        auto* view = page.view();
        const int before = document->mapping().points[0];
        const int first = document->mapping().pes[0];
        const double computeBefore =
            document->evaluation().pes[static_cast<std::size_t>(first)].compute_ms;
        const QString summaryBefore = page.summaryText();
        const int target = before + 2;
        QVERIFY(target < document->mapping().points[1]);

        QTest::mousePress(view, Qt::LeftButton, {}, view->handlePosition(0));
        QCOMPARE(view->selectedSplit(), 0);
        QTest::mouseMove(view, view->boundaryPosition(before + 1));
        QCOMPARE(document->mapping().points[0], before + 1); // live, while dragging
        QTest::mouseMove(view, view->boundaryPosition(target));
        QTest::mouseRelease(view, Qt::LeftButton, {}, view->boundaryPosition(target));

        QCOMPARE(document->mapping().points[0], target);
        QVERIFY(document->evaluation().pes[static_cast<std::size_t>(first)].compute_ms >
                computeBefore);
        QVERIFY(page.summaryText() != summaryBefore);
        QCOMPARE(document->undoStack()->count(), 1); // the whole drag is one step
        document->undoStack()->undo();
        QCOMPARE(document->mapping().points[0], before);
        QCOMPARE(document->evaluation().pes[static_cast<std::size_t>(first)].compute_ms,
                 computeBefore);
    }

    void keyboardMovesTheSelectedHandle() {
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        showOn(page, nx8());
        splitOverAllGpus(page);
        auto* document = page.document();
        auto* view = page.view();
        view->setFocus();
        view->selectSplit(3);
        const int point = document->mapping().points[3];
        QTest::keyClick(view, Qt::Key_Left);
        QCOMPARE(document->mapping().points[3], point - 1);
        QTest::keyClick(view, Qt::Key_Right);
        QTest::keyClick(view, Qt::Key_Right);
        QCOMPARE(document->mapping().points[3], point + 1);
        // Shift moves ten kernels, but never past the neighbouring split.
        QTest::keyClick(view, Qt::Key_Right, Qt::ShiftModifier);
        QCOMPARE(document->mapping().points[3],
                 std::min(point + 11, document->mapping().points[4] - 1));
        QTest::keyClick(view, Qt::Key_Left, Qt::ShiftModifier);
        QTest::keyClick(view, Qt::Key_Left, Qt::ShiftModifier);
        QCOMPARE(document->mapping().points[3],
                 std::max(document->mapping().points[2] + 1,
                          std::min(point + 11, document->mapping().points[4] - 1) - 20));
        QTest::keyClick(view, Qt::Key_Delete);
        QCOMPARE(document->segmentCount(), 7);
    }

    // The wheel zooms the kernel axis around the cursor, Shift+wheel pans, Ctrl+0 shows every
    // kernel again; zoomed in, a kernel is wider.
    void wheelZoomsTheKernelAxisAroundTheCursor() {
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        showOn(page, nx8());
        splitOverAllGpus(page);
        auto* document = page.document();
        auto* view = page.view();
        const int count = document->kernelCount();
        QCOMPARE(view->firstShown(), 0.0);
        QCOMPARE(view->lastShown(), static_cast<double>(count));
        QVERIFY(!view->hasOverview());
        const int point = document->mapping().points[2];
        const QPoint at = view->boundaryPosition(point);
        const int kernelWidth = view->boundaryPosition(point + 4).x() - at.x();
        const auto wheel = [&](QPoint delta, Qt::KeyboardModifiers modifiers) {
            QWheelEvent event(at, view->mapToGlobal(at), {}, delta, Qt::NoButton, modifiers,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(view, &event);
        };
        wheel({0, 3 * 120}, Qt::NoModifier); // 1.25^3: about half the kernels
        QVERIFY(view->lastShown() - view->firstShown() < count / 1.9);
        QVERIFY(std::abs(view->boundaryPosition(point).x() - at.x()) <= 1);
        QVERIFY(view->boundaryPosition(point + 4).x() - view->boundaryPosition(point).x() >
                1.9 * kernelWidth);
        const double first = view->firstShown();
        wheel({0, -120}, Qt::ShiftModifier);
        QVERIFY(view->firstShown() > first);
        view->setFocus();
        QTest::keyClick(view, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(view->firstShown(), 0.0);
        QCOMPARE(view->lastShown(), static_cast<double>(count));
    }

    // Over 1,000 kernels the view has an overview lane: a click there centres the window on
    // show, and a split dragged in the window moves by single kernels.
    void largeModelsGetAnOverviewLane() {
        const auto model = std::make_shared<const cleave::graph::Model>(
            cleave::test::built_model(cleave::modelgen::decoder_stack(50, 32, 2, 8, 10)));
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        page.document()->setInputs(std::make_shared<const cleave::ui::PartitionInputs>(
            cleave::ui::prepare_partition({model, kernelsOf(model), nx8(), "ort-cpu"})));
        page.resize(1200, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        splitOverAllGpus(page);
        auto* document = page.document();
        auto* view = page.view();
        const int count = document->kernelCount();
        QVERIFY(count > 1000);
        QVERIFY(view->hasOverview());
        view->showKernels(0, 100);
        QTest::mouseClick(view, Qt::LeftButton, {}, view->overviewPosition(count / 2.0));
        QVERIFY(std::abs((view->firstShown() + view->lastShown()) / 2 - count / 2.0) <
                count / 200.0 + 2);
        QCOMPARE(view->lastShown() - view->firstShown(), 100.0);

        const int home = document->mapping().points[3];
        view->showKernels(home - 50, home + 50);
        QTest::mousePress(view, Qt::LeftButton, {}, view->handlePosition(3));
        QTest::mouseMove(view, view->boundaryPosition(home + 1));
        QCOMPARE(document->mapping().points[3], home + 1);
        QTest::mouseRelease(view, Qt::LeftButton, {}, view->boundaryPosition(home + 1));
        QVERIFY(!page.grab().isNull());
    }

    void splitsOfATransformerFallBetweenItsBlocks() {
        // A 12-layer decoder on nx8: the opening mapping, and Balance over four boards' GPUs,
        // split where only the residual stream crosses, never inside attention or the MLP.
        const auto model = std::make_shared<const cleave::graph::Model>(
            cleave::test::built_model(cleave::modelgen::decoder_stack(12, 64, 4, 32)));
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        page.document()->setInputs(std::make_shared<const cleave::ui::PartitionInputs>(
            cleave::ui::prepare_partition({model, kernelsOf(model), nx8(), "ort-cpu"})));
        auto* document = page.document();
        const auto& inputs = *document->inputs();
        const auto& crossing = inputs.costs->crossing_tensors();
        const int fewest = *std::min_element(crossing.begin() + 1, crossing.end() - 1);
        const auto between_blocks = [&] {
            for (const int point : document->mapping().points)
                if (crossing[static_cast<std::size_t>(point)] != fewest)
                    return false;
            return true;
        };
        QVERIFY(document->mapping().points.size() >= 2);
        QVERIFY(between_blocks());
        // The strip is banded by the model's layers, in order, each a run of kernels.
        int layer = 0, end = 0;
        for (const auto& block : inputs.blocks) {
            QVERIFY(block.begin == end && block.end > block.begin);
            end = block.end;
            if (block.name.rfind("transformer/h.", 0) == 0)
                QCOMPARE(block.name, "transformer/h." + std::to_string(layer++));
        }
        QCOMPARE(layer, 12);
        QCOMPARE(end, inputs.kernelCount());
        // Balanced anywhere over four GPUs, the splits land inside blocks; Balance moves them
        // between blocks for at most kBlockSplitSlack of the slowest segment's compute.
        auto four = gpus(*inputs.request.cluster);
        four.resize(4);
        document->replaceMapping(cleave::partition::balanced_mapping(inputs.kernel_ms, four),
                                 "test");
        QVERIFY(!between_blocks());
        const auto compute = [&] {
            double slowest = 0;
            for (const auto& pe : document->evaluation().pes)
                slowest = std::max(slowest, pe.compute_ms);
            return slowest;
        };
        const double anywhere = compute();
        page.balance();
        QVERIFY(between_blocks());
        QCOMPARE(document->mapping().pes, four);
        QVERIFY(compute() <= anywhere * (1 + cleave::partition::kBlockSplitSlack) + 1e-9);
    }

    void undoAndRedoRestoreEveryEdit() {
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        showOn(page, nx8WithoutCpuFigures());
        splitOverAllGpus(page);
        auto* document = page.document();
        const auto original = document->mapping();
        const double throughput = document->evaluation().throughput_per_s;
        const auto& cluster = *document->inputs()->request.cluster;

        QVERIFY(document->moveSplit(0, original.points[0] + 1));
        QVERIFY(document->removeSplit(6));
        QCOMPARE(document->segmentCount(), 7);
        QVERIFY(document->assignSegment(0, gpuOf(cluster, "nx08"))); // idle since the removal
        QVERIFY(!document->assignSegment(0, 0));                     // a CPU without latencies
        QVERIFY(document->addSplit(1));                              // takes the first idle GPU
        const auto edited = document->mapping();
        const double editedThroughput = document->evaluation().throughput_per_s;
        QCOMPARE(document->undoStack()->count(), 4);

        for (int i = 0; i < 4; ++i)
            document->undoStack()->undo();
        QCOMPARE(document->mapping().points, original.points);
        QCOMPARE(document->mapping().pes, original.pes);
        QCOMPARE(document->evaluation().throughput_per_s, throughput);
        for (int i = 0; i < 4; ++i)
            document->undoStack()->redo();
        QCOMPARE(document->mapping().points, edited.points);
        QCOMPARE(document->mapping().pes, edited.pes);
        QCOMPARE(document->evaluation().throughput_per_s, editedThroughput);
    }

    void segmentDraggedToAnotherLaneRunsThere() {
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        showOn(page, nx8());
        splitOverAllGpus(page);
        auto* document = page.document();
        auto* view = page.view();
        const auto& cluster = *document->inputs()->request.cluster;
        const int from = document->mapping().pes[1];
        const int to = gpuOf(cluster, "nx08");
        const int kernel = (document->segmentBegin(1) + document->segmentEnd(1)) / 2;
        QTest::mousePress(view, Qt::LeftButton, {}, view->lanePosition(from, kernel));
        QTest::mouseMove(view, view->lanePosition(from + 2, kernel));
        QTest::mouseMove(view, view->lanePosition(to, kernel));
        QTest::mouseRelease(view, Qt::LeftButton, {}, view->lanePosition(to, kernel));
        QCOMPARE(document->mapping().pes[1], to);
        QCOMPARE(document->undoStack()->count(), 1);
    }

    void segmentDroppedOnAPeWithoutLatenciesStays() {
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        showOn(page, nx8WithoutCpuFigures());
        splitOverAllGpus(page);
        auto* document = page.document();
        auto* view = page.view();
        view->setShowAllLanes(true); // the CPUs' lanes, greyed
        const int from = document->mapping().pes[1];
        const int cpu = from - 1; // the same board's CPU
        QVERIFY(!document->isUsable(cpu));
        const int kernel = document->segmentBegin(1);
        QTest::mousePress(view, Qt::LeftButton, {}, view->lanePosition(from, kernel));
        QTest::mouseMove(view, view->lanePosition(cpu, kernel));
        QTest::mouseRelease(view, Qt::LeftButton, {}, view->lanePosition(cpu, kernel));
        QCOMPARE(document->mapping().pes[1], from);
        QCOMPARE(document->undoStack()->count(), 0);
    }

    void hostOverItsMemoryIsRed() {
        // Two Xavier NX boards, one with 1 MiB of memory: any segment on it is too big.
        auto spec = cleave::device::find_device("jetson-xavier-nx");
        auto tiny = spec;
        tiny.memory->capacity_gib = 1.0 / 1024;
        const auto cluster =
            std::make_shared<const cleave::device::Cluster>(cleave::device::make_cluster(
                "tiny.cluster.json",
                {{"tiny", "tiny.json", tiny, ""}, {"nx02", "jetson-xavier-nx", spec, ""}}));
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        showOn(page, cluster);
        auto* document = page.document();
        document->replaceMapping(cleave::partition::balanced_mapping(document->inputs()->kernel_ms, gpus(*cluster)),
                                 "test");
        document->undoStack()->clear();
        auto* figures = page.figures();
        const int small = gpuOf(*cluster, "tiny");
        const int large = gpuOf(*cluster, "nx02");
        QCOMPARE(document->mapping().pes, (std::vector<int>{small, large}));
        QVERIFY(figures->memoryOverCapacity(small));
        QCOMPARE(figures->memoryColor(small), cleave::ui::PeFiguresView::overCapacityColor());
        QVERIFY(!figures->memoryOverCapacity(large));
        QCOMPARE(figures->memoryColor(large), page.view()->peColor(large));

        QVERIFY(document->assignSegment(0, large)); // everything on the 8 GiB board
        QVERIFY(!figures->memoryOverCapacity(large));
        QCOMPARE(figures->rows(), (std::vector<int>{large}));
        document->undoStack()->undo();
        QVERIFY(figures->memoryOverCapacity(small));
        // The traffic between the two boards is in the link table.
        QCOMPARE(page.links()->rowCount(), 1);
        QVERIFY(page.links()->links().front().bytes > 0);
    }

    void clusterWithoutLatenciesSaysWhy() {
        // A board whose spec gives no peak FP32 rate: no predictor, no roofline.
        auto pi = cleave::device::find_device("raspberry-pi-4");
        pi.id = "my-pi";
        pi.processing_elements[0].peak_gflops = {};
        const auto cluster = std::make_shared<const cleave::device::Cluster>(
            cleave::device::make_cluster("pi.cluster.json", {{"rpi01", "raspberry-pi-4", pi, ""}}));
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        showOn(page, cluster);
        QVERIFY(!page.document()->hasMapping());
        QCOMPARE(page.summaryText(), QString("No PE of this cluster has predicted latencies"));
        QVERIFY2(page.noticeText().startsWith("rpi01_arm0123 cannot take kernels: "),
                 qPrintable(page.noticeText()));
        QVERIFY(!page.saveMapping("unused.json").isEmpty());
    }

    void savedMappingOpensAgain() {
        cleave::ui::StudioDocument studio;
        PartitionPage page{studio.mapping()};
        showIn(studio, page, nx8());
        splitOverAllGpus(page);
        auto* document = page.document();
        QTemporaryDir dir;
        const QString path = dir.filePath("mapping.json");
        QVERIFY(document->moveSplit(2, document->mapping().points[2] + 1));
        const auto saved = document->mapping();
        QCOMPARE(page.saveMapping(path), QString());
        QVERIFY(document->moveSplit(2, document->mapping().points[2] - 2));
        QVERIFY(document->assignSegment(0, document->mapping().pes[7]));
        QCOMPARE(studio.openMappingFile(path), QString());
        QCOMPARE(document->mapping().points, saved.points);
        QCOMPARE(document->mapping().pes, saved.pes);
        QVERIFY(page.noticeText().indexOf("split-point") < 0);
        document->undoStack()->undo(); // opening is one step too
        QVERIFY(document->mapping().pes != saved.pes);
    }

    void exportWritesTheMappingsPackage() {
        PartitionDocument mapping;
        PartitionPage page{&mapping};
        QVERIFY(!page.exportTask("unused")); // nothing to export yet
        showOn(page, nx8());
        splitOverAllGpus(page);
        QTemporaryDir dir;
        const QString folder = dir.filePath("package");
        const auto task = page.exportTask(folder);
        QVERIFY(task);
        // The task keeps what it writes: edits after it was made do not change the package.
        const auto segments = page.document()->mapping().pes.size();
        QVERIFY(page.document()->removeSplit(0));
        QCOMPARE(task(), QString());
        for (const char* name : {"mapping.json", "platform.txt", "rankfile", "hostfile",
                                 "sender.json", "receiver.json"})
            QVERIFY2(QFile::exists(folder + "/" + name), name);
        QFile rankfile(folder + "/rankfile");
        QVERIFY(rankfile.open(QIODevice::ReadOnly));
        QCOMPARE(static_cast<std::size_t>(rankfile.readAll().count("rank ")), segments);
        QCOMPARE(QDir(folder).entryList({"*.onnx"}).size(), static_cast<int>(segments));
        // A folder that is not an earlier export is never replaced.
        const QString other = dir.filePath("other");
        QVERIFY(QDir().mkpath(other));
        QVERIFY(QFile(other + "/notes.txt").open(QIODevice::WriteOnly));
        const QString error = page.exportTask(other)();
        QVERIFY2(!error.isEmpty(), "exported over a folder of other files");
        QVERIFY(QFile::exists(other + "/notes.txt"));
    }

    void scatteredMappingIsShownAndSaidSo() {
        cleave::ui::StudioDocument studio;
        PartitionPage page{studio.mapping()};
        showIn(studio, page, nx8WithoutCpuFigures());
        splitOverAllGpus(page);
        auto* document = page.document();
        const auto& inputs = *document->inputs();
        const auto& cluster = *inputs.request.cluster;
        cleave::partition::KernelAssignment assignment;
        for (int k = 0; k < inputs.kernelCount(); ++k)
            assignment.pe_of_kernel.push_back(gpuOf(cluster, k >= 10 && k < 20 ? "nx02" : "nx01"));
        QTemporaryDir dir;
        const QString path = dir.filePath("scattered.json");
        std::ofstream(path.toStdString()) << cleave::autodice::mapping_file_json(
            *inputs.request.model, *inputs.request.kernels, assignment, cluster);
        QCOMPARE(studio.openMappingFile(path), QString());
        QCOMPARE(document->mapping().points, (std::vector<int>{10, 20}));
        QVERIFY2(
            page.noticeText().contains("scattered.json is not split-point shaped: nx01_gpu runs 2"),
            qPrintable(page.noticeText()));

        // A PE without latencies cannot be evaluated: refused, naming it.
        for (auto& pe : assignment.pe_of_kernel)
            pe = 0;
        const QString cpu = dir.filePath("cpu.json");
        std::ofstream(cpu.toStdString()) << cleave::autodice::mapping_file_json(
            *inputs.request.model, *inputs.request.kernels, assignment, cluster);
        const QString error = studio.openMappingFile(cpu);
        QVERIFY2(error.startsWith(cpu + ": nx01_arm012345 runs kernels, but it has no predicted"),
                 qPrintable(error));
        QCOMPARE(document->mapping().points, (std::vector<int>{10, 20}));
    }
};

QTEST_MAIN(PartitionViewTest)
#include "partition_view_test.moc"
