// The kernel dock: ResNet-18 fused by ONNX Runtime's CPU rules into 40 kernels, a switch of rule
// set, a bad rule file refused, and a selected kernel selecting its nodes in the node table.
#include "core/fusion/learned_fusion.hpp"
#include "ui/kernel_dock.hpp"
#include "ui/kernel_table_model.hpp"
#include "ui/main_window.hpp"

#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using cleave::ui::KernelDock;
using cleave::ui::KernelTableModel;
using cleave::ui::MainWindow;

namespace {
bool openResnet18(MainWindow& window) {
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
    return shown.wait(30000);
}
} // namespace

class KernelDockTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void showsTheRuntimesKernels() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        const auto* view = window.kernelDock()->view();
        QCOMPARE(view->model()->rowCount(), 40);
        QCOMPARE(view->model()->index(0, KernelTableModel::Type).data().toString(),
                 QString("FusedConv"));
        QCOMPARE(view->model()->index(0, KernelTableModel::Ops).data().toString(),
                 QString("Conv + BatchNormalization + Relu"));
    }

    void switchingRuleSetsRegroupsTheKernels() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        QVERIFY(window.kernelDock()->setRuleSet("tflite-gpu"));
        QCOMPARE(window.kernelDock()->ruleSet(), QString("tflite-gpu"));
        // Alg. 3.1 merges BN and Relu into each conv and the residual Add into the conv before it.
        QCOMPARE(window.kernelDock()->view()->model()->rowCount(), 24);
    }

    void badRuleFileKeepsTheCurrentSet() {
        MainWindow window;
        QVERIFY(openResnet18(window));
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
        QCOMPARE(window.kernelDock()->ruleSet(), QString("ort-cpu"));
        QCOMPARE(window.kernelDock()->view()->model()->rowCount(), 40);
    }

    void learnedClassifierGroupsTheKernels() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        QTemporaryDir dir;
        const QString path = dir.filePath("fusion-model.json");
        // Untrained weights: the test is that the dock reads a classifier and groups by it.
        cleave::fusion::save_learned_fusion(
            cleave::fusion::initial_learned_fusion({"Conv", "Relu"}, 0, 4, 1), path.toStdString());
        QSignalSpy changed(window.kernelDock(), &KernelDock::kernelsChanged);
        QVERIFY(window.kernelDock()->setRuleSet("learned:" + path));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(window.kernelDock()->ruleSet(), "learned:" + path);
        const int rows = window.kernelDock()->view()->model()->rowCount();
        QVERIFY2(rows >= 1 && rows <= 69, qPrintable(QString::number(rows)));

        QSignalSpy failed(window.kernelDock(), &KernelDock::ruleSetFailed);
        QVERIFY(!window.kernelDock()->setRuleSet("learned:" + dir.filePath("missing.json")));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(window.kernelDock()->ruleSet(), "learned:" + path);
    }

    void filterNarrowsKernels() {
        MainWindow window;
        QVERIFY(openResnet18(window));
        window.kernelDock()->filterEdit()->setText("fusedconv");
        QCOMPARE(window.kernelDock()->view()->model()->rowCount(), 9);
    }

    void selectingAKernelSelectsItsNodes() {
        MainWindow window;
        QVERIFY(openResnet18(window));
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
};

QTEST_MAIN(KernelDockTest)
#include "kernel_dock_test.moc"
