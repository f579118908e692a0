// The graph view, offscreen: ResNet-18 laid out off the UI thread with an item per node, edge and
// kernel, search by name and op, fit, kernel selection kept in step with the kernel dock, and a
// rule-set switch that lays the graph out again.
#include "core/fusion/kernel_graph.hpp"
#include "ui/graph_items.hpp"
#include "ui/graph_minimap.hpp"
#include "ui/graph_page.hpp"
#include "ui/graph_scene.hpp"
#include "ui/graph_view.hpp"
#include "ui/kernel_dock.hpp"
#include "ui/main_window.hpp"
#include "ui/properties_dock.hpp"

#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

using cleave::ui::GraphView;
using cleave::ui::KernelDock;
using cleave::ui::MainWindow;

namespace {

// Opens resnet18 and waits for its graph; false when either never comes.
bool openResnet18(MainWindow& window) {
    QSignalSpy shown(&window, &MainWindow::modelShown);
    QSignalSpy laidOut(window.graphView(), &GraphView::layoutFinished);
    window.openFile(QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
    return shown.wait(30000) && (!laidOut.isEmpty() || laidOut.wait(30000));
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
};

QTEST_MAIN(GraphViewTest)
#include "graph_view_test.moc"
