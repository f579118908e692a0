// The graph view, offscreen: ResNet-18 laid out off the UI thread with an item per node, edge and
// kernel, search by name and op, fit, kernel selection kept in step with the kernel dock, a
// rule-set switch that lays the graph out again, and nodes wearing their kernel's latency colour.
#include "../device_without_figures.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/fusion/rule_engine.hpp"
#include "core/modelgen/model_specs.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/graph/graph_items.hpp"
#include "ui/graph/graph_minimap.hpp"
#include "ui/graph/graph_page.hpp"
#include "ui/graph/graph_scene.hpp"
#include "ui/graph/graph_view.hpp"
#include "ui/graph/properties_dock.hpp"
#include "ui/latency/kernel_dock.hpp"
#include "ui/latency/latency_legend.hpp"
#include "ui/latency/latency_ramp.hpp"
#include "ui/shell/main_window.hpp"

#include <QComboBox>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>
#include <cmath>
using cleave::ui::EdgeItem;

using cleave::ui::GraphView;
using cleave::ui::KernelDock;
using cleave::ui::MainWindow;

namespace {

// Opens a model and waits for its graph; false when either never comes.
bool openAndLayOut(MainWindow& window, const QString& path) {
    QSignalSpy shown(&window, &MainWindow::modelShown);
    QSignalSpy laidOut(window.graphView(), &GraphView::layoutFinished);
    window.openFile(path);
    return shown.wait(60000) && (!laidOut.isEmpty() || laidOut.wait(60000));
}

bool openResnet18(MainWindow& window) {
    return openAndLayOut(window, QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
}

// A GPT-2 decoder of `layers` layers (47 nodes each) written into `folder`; its path.
QString writtenDecoder(const QTemporaryDir& folder, int layers) {
    const auto written = cleave::modelgen::write_model(
        cleave::modelgen::decoder_stack(layers, 32, 2, 8, 10), folder.path().toStdString(), 1);
    return folder.filePath(QString::fromStdString(written.file));
}

// Picks a device and waits for its prediction to reach the graph.
bool predictOn(MainWindow& window, const QString& device) {
    auto& document = *window.document();
    document.setDevice(device);
    QElapsedTimer clock;
    clock.start();
    while ((document.isPredicting() || !document.latency() || window.graphView()->isLayingOut()) &&
           clock.elapsed() < 30000)
        QTest::qWait(10);
    return document.latency() && document.latency()->request.device == device.toStdString();
}

int nodeIndex(const MainWindow& window, const char* name) {
    return window.model()->find_node(name);
}

} // namespace

class GraphViewTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void laysOutOffTheUiThread() {
        MainWindow window;
        // Read the moment the model is shown, before the event loop could deliver a layout.
        bool layingOut = false;
        QString status;
        connect(&window, &MainWindow::modelShown, this, [&] {
            layingOut = window.graphView()->isLayingOut();
            status = window.graphView()->statusText();
        });
        QSignalSpy laidOut(window.graphView(), &GraphView::layoutFinished);
        window.openFile(QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
        QVERIFY(laidOut.wait(30000));
        // The model was on screen while its layout was still to come.
        QVERIFY(layingOut);
        QCOMPARE(status, QString("Laying out…"));
        QVERIFY(!window.graphView()->isLayingOut());
        QCOMPARE(window.graphView()->statusText(), QString());
    }

    void drawsAnItemPerNodeEdgeAndKernel() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        const auto* scene = window.graphView()->graphScene();
        QCOMPARE(scene->nodeItems().size(), 69);
        QCOMPARE(scene->kernelItems().size(), 40);
        QCOMPARE(scene->edgeItems().size(),
                 static_cast<qsizetype>(cleave::fusion::node_edges(*window.model()).size()));
        // The graph is the first tab.
        QCOMPARE(window.centralTabs()->currentWidget(), window.graphPage());
    }

    void kernelGroupsLieBehindTheirNodes() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        const auto* scene = window.graphView()->graphScene();
        const auto& kernels = scene->graph()->kernels->kernels;
        for (const auto* group : scene->kernelItems())
            for (const int n : kernels[static_cast<std::size_t>(group->kernel())].nodes) {
                const auto* node = scene->nodeItem(n);
                QVERIFY(group->sceneBoundingRect().contains(node->sceneBoundingRect()));
                QVERIFY(group->zValue() < node->zValue());
            }
    }

    void searchSelectsTheMatchingNode() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        window.graphPage()->searchEdit()->setText("fc GEMM");
        QCOMPARE(window.graphView()->selectedNodes(), QList<int>{nodeIndex(window, "/fc/Gemm")});
        QCOMPARE(window.graphPage()->matchText(), QString("1 of 1"));
    }

    void searchStepsThroughMatches() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        window.graphPage()->searchEdit()->setText("layer1 relu");
        auto* view = window.graphView();
        QCOMPARE(view->matches().size(), 4);
        QCOMPARE(view->selectedNodes().size(), 4);
        QCOMPARE(window.graphPage()->matchText(), QString("1 of 4"));
        view->findNext();
        QCOMPARE(view->currentMatch(), 1);
        QCOMPARE(window.graphPage()->matchText(), QString("2 of 4"));
        view->findPrevious();
        view->findPrevious();
        QCOMPARE(view->currentMatch(), 3); // wraps around
        // The current match is the one the properties dock shows.
        QCOMPARE(window.propertiesDock()->shownNode(), view->matches()[3]);
        window.graphPage()->searchEdit()->setText("layer1 relu nothing");
        QCOMPARE(view->selectedNodes(), QList<int>{});
        QCOMPARE(window.graphPage()->matchText(), QString("no match"));
    }

    void fitShowsTheWholeGraph() {
        MainWindow window;
        window.show();
        QVERIFY(openResnet18(window));
        auto* view = window.graphView();
        view->fitGraph();
        const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
        QVERIFY(visible.contains(view->graphScene()->graphBounds()));
        const qreal fitted = view->zoom();
        view->zoomBy(2);
        QCOMPARE(view->zoom(), fitted * 2);
    }

    void selectingAKernelInTheDockSelectsItsGroup() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        auto* table = window.kernelDock()->view();
        table->selectionModel()->setCurrentIndex(table->model()->index(3, 0),
                                                 QItemSelectionModel::ClearAndSelect |
                                                     QItemSelectionModel::Rows);
        QCOMPARE(window.graphView()->selectedKernels(), QList<int>{3});
        QCOMPARE(window.propertiesDock()->shownKernel(), 3);
    }

    void clickingAGroupSelectsItsKernelRow() {
        MainWindow window;
        window.show();
        QVERIFY(openResnet18(window));
        auto* view = window.graphView();
        const auto* group = view->graphScene()->kernelItem(0); // Conv + BN + Relu
        QVERIFY(group->isFused());
        view->zoomToActualSize();
        view->centerOn(group);
        // Inside the group's margin, above its first node.
        const QRectF box = group->sceneBoundingRect();
        const QPoint at = view->mapFromScene(box.center().x(), box.top() + 5);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(view->selectedKernels(), QList<int>{0});
        const auto current = window.kernelDock()->view()->currentIndex();
        QCOMPARE(current.siblingAtColumn(0).data().toString(), QString("0"));
        QCOMPARE(window.propertiesDock()->shownKernel(), 0);
    }

    void edgesCarryTheirTensorsShape() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        const auto& model = *window.model();
        const int conv = nodeIndex(window, "/conv1/Conv");
        int labelled = 0;
        for (const auto* edge : window.graphView()->graphScene()->edgeItems()) {
            labelled += edge->label().isEmpty() ? 0 : 1;
            if (edge->from() == conv) // conv1 -> bn1: ResNet-18's first feature map
                QCOMPARE(edge->label(), QString("1x64x112x112"));
        }
        QCOMPARE(labelled, static_cast<int>(cleave::fusion::node_edges(model).size()));
    }

    void groupsCollapseAndExpand() {
        MainWindow window;
        window.show();
        QVERIFY(openResnet18(window));
        auto* view = window.graphView();
        auto* scene = view->graphScene();
        int fused = 0;
        for (const auto* group : scene->kernelItems())
            fused += group->isFused() ? 1 : 0;
        // All at once from the page's button; lone nodes have no group to collapse.
        window.graphPage()->collapseButton()->setChecked(true);
        QCOMPARE(scene->collapsedCount(), fused);
        auto* group = scene->kernelItem(0); // Conv + BN + Relu
        QVERIFY(group->isCollapsed());
        QVERIFY(group->zValue() > scene->nodeItem(scene->graph()->kernels->kernels[0].nodes[0])->zValue());
        // A click on a collapsed group picks the kernel, not a node under it.
        view->zoomToActualSize();
        view->centerOn(group);
        const QPoint at = view->mapFromScene(group->sceneBoundingRect().center());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(view->selectedKernels(), QList<int>{0});
        QVERIFY(view->selectedNodes().isEmpty());
        // A double-click expands it alone, a second collapses it again.
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
        QVERIFY(!group->isCollapsed());
        QCOMPARE(scene->collapsedCount(), fused - 1);
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
        QVERIFY(group->isCollapsed());
        // A node found by search opens its group.
        view->selectNode(scene->graph()->kernels->kernels[0].nodes[1]);
        QVERIFY(!group->isCollapsed());
        window.graphPage()->collapseButton()->setChecked(false);
        QCOMPARE(scene->collapsedCount(), 0);
    }

    void clickingANodeShowsItsProperties() {
        MainWindow window;
        window.show();
        QVERIFY(openResnet18(window));
        auto* view = window.graphView();
        const int gemm = nodeIndex(window, "/fc/Gemm");
        const auto* node = view->graphScene()->nodeItem(gemm);
        view->zoomToActualSize();
        view->centerOn(node);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                          view->mapFromScene(node->sceneBoundingRect().center()));
        QCOMPARE(view->selectedNodes(), QList<int>{gemm});
        QCOMPARE(window.propertiesDock()->shownNode(), gemm);
        QVERIFY(window.propertiesDock()->text().contains("/fc/Gemm"));
    }

    void selectingANodeRowSelectsItInTheGraph() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        auto* table = window.nodeView();
        table->selectionModel()->setCurrentIndex(table->model()->index(5, 0),
                                                 QItemSelectionModel::ClearAndSelect |
                                                     QItemSelectionModel::Rows);
        QCOMPARE(window.graphView()->selectedNodes(), QList<int>{5});
        QCOMPARE(window.propertiesDock()->shownNode(), 5);
    }

    void switchingRuleSetsLaysTheGraphOutAgain() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        QSignalSpy laidOut(window.graphView(), &GraphView::layoutFinished);
        QVERIFY(window.kernelDock()->setRuleSet("tflite-gpu"));
        QVERIFY(window.graphView()->isLayingOut());
        QVERIFY(laidOut.wait(30000));
        QCOMPARE(window.graphView()->graphScene()->kernelItems().size(), 24);
    }

    void aNewRuleSetSupersedesTheLayoutRunning() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        QSignalSpy laidOut(window.graphView(), &GraphView::layoutFinished);
        QVERIFY(window.kernelDock()->setRuleSet("tflite-gpu"));
        QVERIFY(window.kernelDock()->setRuleSet("ort-cpu"));
        QVERIFY(laidOut.wait(30000));
        // Only the newest request is shown: the tflite-gpu layout was dropped.
        QCOMPARE(laidOut.count(), 1);
        QCOMPARE(window.graphView()->graphScene()->kernelItems().size(), 40);
    }

    // A graph of more than 2,000 nodes zoomed out is painted from one overview image of the
    // scene, drawn again after the scene changes; zoomed in, its items paint as usual.
    void largeGraphsShowAnOverviewWhenZoomedOut() {
        QTemporaryDir folder;
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(openAndLayOut(window, writtenDecoder(folder, 45)));
        auto* view = window.graphView();
        auto* scene = view->graphScene();
        QCOMPARE(scene->nodeItems().size(), 45 * 47 + 10);
        QVERIFY(scene->large());
        const QImage& overview = scene->overview();
        QVERIFY(!overview.isNull());
        const QRectF area = scene->sceneRect();
        QVERIFY(std::abs(overview.height() / static_cast<double>(overview.width()) -
                         area.height() / area.width()) < 0.05 * area.height() / area.width() + 1);
        const auto key = overview.cacheKey();
        QCOMPARE(scene->overview().cacheKey(), key); // kept while nothing changes

        view->fitGraph();
        const QImage fitted = view->viewport()->grab().toImage();
        const QColor background = view->backgroundBrush().color();
        int drawn = 0;
        for (int y = 0; y < fitted.height(); y += 2)
            for (int x = 0; x < fitted.width(); ++x)
                drawn += fitted.pixelColor(x, y) != background;
        QVERIFY(drawn > 0);

        view->setKernelsCollapsed(true);
        QCoreApplication::processEvents();
        QVERIFY(scene->overview().cacheKey() != key);
        view->setKernelsCollapsed(false);

        // Blocks: one per layer; folding one moves every block below it up by what it saves,
        // the edges between blocks follow, and opening it puts everything back.
        QVERIFY(window.graphPage()->foldBlocksButton()->isVisible());
        const int layer5 = scene->blockOfNode(47 * 5), layer6 = scene->blockOfNode(47 * 6);
        QVERIFY(layer5 >= 0 && layer6 == layer5 + 1);
        auto* folded = scene->blockItems()[layer5];
        const QRectF below = scene->nodeItem(47 * 10)->sceneBoundingRect();
        const QRectF above = scene->nodeItem(47 * 2)->sceneBoundingRect();
        const qreal height = scene->graphBounds().height();
        scene->setBlockCollapsed(layer5, true);
        QVERIFY(folded->isCollapsed());
        QVERIFY(!scene->nodeItem(47 * 5)->isVisible());
        const qreal saving = folded->saving();
        QVERIFY(saving > 100);
        QCOMPARE(scene->nodeItem(47 * 10)->sceneBoundingRect(), below.translated(0, -saving));
        QCOMPARE(scene->nodeItem(47 * 2)->sceneBoundingRect(), above);
        QCOMPARE(scene->graphBounds().height(), height - saving);
        // The residual from layer 4 into layer 6 now passes the folded box.
        for (const auto* edge : scene->edgeItems()) {
            if (edge->from() == 47 * 5 - 1 && edge->to() == 47 * 5) // into the folded block
                QVERIFY(edge->sceneBoundingRect().intersects(folded->sceneBoundingRect()));
            if (scene->blockOfNode(edge->from()) == layer5 &&
                scene->blockOfNode(edge->to()) == layer6) {
                const QRectF to = scene->nodeItem(edge->to())->sceneBoundingRect();
                QVERIFY(edge->sceneBoundingRect().bottom() >= to.top() - 8);
                QVERIFY(edge->sceneBoundingRect().top() <=
                        folded->sceneBoundingRect().bottom() + 8);
            }
        }
        // A double-click on the box opens it.
        view->zoomToActualSize();
        view->centerOn(folded->sceneBoundingRect().center());
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {},
                           view->mapFromScene(folded->sceneBoundingRect().center()));
        QVERIFY(!folded->isCollapsed());
        QCOMPARE(scene->nodeItem(47 * 10)->sceneBoundingRect(), below);
        QVERIFY(scene->nodeItem(47 * 5)->isVisible());
        // Fold every block; picking a node opens its block only.
        window.graphPage()->foldBlocksButton()->setChecked(true);
        QVERIFY(scene->graphBounds().height() < height / 10);
        view->selectNode(47 * 7);
        QVERIFY(!scene->blockItems()[scene->blockOfNode(47 * 7)]->isCollapsed());
        QVERIFY(scene->blockItems()[layer5]->isCollapsed());
        QVERIFY(scene->nodeItem(47 * 7)->isVisible());
    }

    // A 12-layer decoder (574 nodes, no large model) is laid out a block per layer, so Fold
    // Blocks is offered and folds it into its layers; ResNet-18 has no blocks and no button.
    void aTwelveLayerTransformerFoldsIntoItsLayers() {
        QTemporaryDir folder;
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(openAndLayOut(window, writtenDecoder(folder, 12)));
        auto* scene = window.graphView()->graphScene();
        QVERIFY(!scene->large());
        QVERIFY(window.graphPage()->foldBlocksButton()->isVisible());
        int layers = 0;
        for (const auto* block : scene->blockItems())
            layers += block->name().startsWith("transformer/h.");
        QCOMPARE(layers, 12);
        const qreal open = scene->graphBounds().height();
        window.graphPage()->foldBlocksButton()->setChecked(true);
        QVERIFY(scene->graphBounds().height() * 5 < open);

        // bert_base: its layers read constants the export lists once (shapes, the folded mask);
        // folded, those edges are hidden, the data between the layers stays drawn.
        MainWindow bert;
        bert.show();
        QVERIFY(openAndLayOut(bert, QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/bert_base.onnx"));
        auto* bertScene = bert.graphView()->graphScene();
        const auto& bertModel = *bertScene->graph()->model;
        const auto constant = cleave::fusion::load_time_constants(bertModel);
        const auto crossing = [&](const EdgeItem* edge, bool fromConstant) {
            return bertScene->blockOfNode(edge->from()) != bertScene->blockOfNode(edge->to()) &&
                   constant[static_cast<std::size_t>(edge->from())] == fromConstant;
        };
        const auto count = [&](bool fromConstant, bool visible) {
            return std::count_if(bertScene->edgeItems().begin(), bertScene->edgeItems().end(),
                                 [&](const EdgeItem* edge) {
                                     return crossing(edge, fromConstant) &&
                                            edge->isVisible() == visible;
                                 });
        };
        QVERIFY(count(true, true) > 0);
        bert.graphPage()->foldBlocksButton()->setChecked(true);
        QCOMPARE(count(true, true), 0);
        QVERIFY(count(false, true) >= 11); // the hidden state from layer to layer
        bert.graphPage()->foldBlocksButton()->setChecked(false);
        QVERIFY(count(true, true) > 0);

        MainWindow resnet;
        resnet.show();
        QVERIFY(openResnet18(resnet));
        QVERIFY(resnet.graphView()->graphScene()->blockItems().isEmpty());
        QVERIFY(!resnet.graphPage()->foldBlocksButton()->isVisible());
    }

    void minimapShowsTheWholeScene() {
        MainWindow window;
        window.show();
        QVERIFY(openResnet18(window));
        auto* minimap = window.graphView()->minimap();
        QVERIFY(minimap->isVisible());
        QCOMPARE(minimap->scene(), window.graphView()->scene());
        const QRectF shown = minimap->mapToScene(minimap->viewport()->rect()).boundingRect();
        QVERIFY(shown.contains(window.graphView()->graphScene()->graphBounds()));
    }

    void nodesWearTheirKernelsLatencyColour() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        QVERIFY(predictOn(window, "jetson-xavier-nx"));
        auto* view = window.graphView();
        QVERIFY(view->showsLatency());
        const auto& report = *window.document()->latency();
        std::vector<double> ms;
        for (const auto& kernel : report.latency.kernels)
            ms.push_back(kernel.us / 1000);
        const cleave::ui::LatencyRamp ramp(ms);
        const auto& kernels = *window.document()->kernels();
        for (const auto* item : view->graphScene()->nodeItems()) {
            const int kernel = kernels.kernel_of_node[static_cast<std::size_t>(item->node())];
            QCOMPARE(item->fill(), ramp.colour(ms[static_cast<std::size_t>(kernel)]));
        }
        // The slowest kernel's nodes wear the dark end of the ramp, the fastest's the light end.
        const auto slowest = std::max_element(ms.begin(), ms.end()) - ms.begin();
        const int member = kernels.kernels[static_cast<std::size_t>(slowest)].nodes.front();
        QCOMPARE(view->graphScene()->nodeItem(member)->fill(),
                 cleave::ui::LatencyRamp::colourAt(1));
        QVERIFY(view->legend()->isVisibleTo(view));
        QCOMPARE(view->legend()->title(), QString("Kernel latency on jetson-xavier-nx"));
        QCOMPARE(view->legend()->labels().last(), QString("0.756 ms"));

        window.graphPage()->colourBox()->setCurrentIndex(1); // op category
        QVERIFY(!view->showsLatency());
        QVERIFY(!view->legend()->isVisibleTo(view));
        QCOMPARE(view->graphScene()->nodeItem(member)->fill(), cleave::ui::opColour("Conv"));
    }

    void deviceWithoutFiguresLeavesTheOpColours() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        QVERIFY(predictOn(window, "jetson-xavier-nx"));
        QVERIFY(window.graphView()->showsLatency());
        QTemporaryDir dir;
        QVERIFY(predictOn(window, cleave::test::deviceWithoutFigures(dir)));
        auto* view = window.graphView();
        QVERIFY(!view->showsLatency());
        QVERIFY(!view->legend()->isVisibleTo(view));
        for (const auto* item : view->graphScene()->nodeItems()) {
            const auto& node = window.model()->nodes[static_cast<std::size_t>(item->node())];
            QCOMPARE(item->fill(), cleave::ui::opColour(QString::fromStdString(node.op)));
        }
    }
};

QTEST_MAIN(GraphViewTest)
#include "graph_view_test.moc"
