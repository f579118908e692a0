// The studio's first window, offscreen: loading off the UI thread, the node table, filtering,
// sorting, the summary, drag and drop, recent files and failures that keep the previous model.
#include "ui/document/model_load_runner.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/graph/model_summary_dock.hpp"
#include "ui/graph/node_table_model.hpp"
#include "ui/shell/recent_files.hpp"
#include "ui/shell/start_page.hpp"

#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <limits>

using cleave::ui::MainWindow;
using cleave::ui::NodeTableModel;

namespace {

QString example(const char* name) {
    return QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/" + name + ".onnx";
}

bool openAndWait(MainWindow& window, const QString& path) {
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(path);
    return shown.wait(30000);
}

QStringList column(const QTableView* view, int column) {
    QStringList values;
    for (int row = 0; row < view->model()->rowCount(); ++row)
        values << view->model()->index(row, column).data().toString();
    return values;
}

QString writeBrokenModel(const QTemporaryDir& dir) {
    const QString path = dir.filePath("broken.onnx");
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write("\x08\x07\x12\xff\xff\xff\x0fnot a model");
    return path;
}

// The summary's plain text has one table cell a line: the count cells after the one reading key.
QStringList cellsAfter(const QString& summary, const QString& key, int count) {
    const QStringList lines = summary.split('\n');
    const auto at = lines.indexOf(key);
    return at < 0 ? QStringList{} : lines.mid(at + 1, count);
}

// Sends what a desktop sends when files are dragged over the window and let go; returns whether
// the window accepted the drag.
bool dropFiles(MainWindow& window, const QList<QUrl>& urls) {
    QMimeData mime;
    mime.setUrls(urls);
    const QPoint centre = window.rect().center();
    QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent drop(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    return drop.isAccepted();
}

} // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
        QCoreApplication::setOrganizationName("CleaveTest");
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    void init() { QSettings().clear(); } // no recent files or geometry from earlier tests

    void showsStartPageBeforeAModelIsOpen() {
        MainWindow window;
        QVERIFY(window.startPage()->isVisibleTo(&window));
        QCOMPARE(window.startPage()->findChild<QLabel*>("hint")->text(),
                 QString("Open an ONNX model (Ctrl+O) or drop one here"));
        QCOMPARE(window.windowTitle(), QString("Cleave"));
    }

    void opensModelOffTheUiThread() {
        MainWindow window;
        QSignalSpy progress(window.document()->loader(), &cleave::ui::ModelLoadRunner::progress);
        QSignalSpy shown(&window, &MainWindow::modelShown);
        window.openFile(example("resnet18"));
        QVERIFY(shown.isEmpty()); // openFile returned before the load was done
        QVERIFY(shown.wait(30000));
        QVERIFY(progress.count() >= 3);
        QCOMPARE(window.nodeView()->model()->rowCount(), 69);
        QVERIFY(!window.startPage()->isVisibleTo(&window));
    }

    void titleNamesTheFile() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        QCOMPARE(window.windowTitle(), QString("Cleave — resnet18.onnx"));
    }

    void summaryShowsPublishedFigures() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        const QString text = window.summaryDock()->text();
        QCOMPARE(cellsAfter(text, "Parameters", 1), QStringList{"11,689,512"});
        QCOMPARE(cellsAfter(text, "GMACs", 1), QStringList{"1.81"});
        QCOMPARE(cellsAfter(text, "GFLOPs", 1), QStringList{"3.64"});
        QCOMPARE(cellsAfter(text, "Inputs", 1), QStringList{"input float32 1x3x224x224"});
        QCOMPARE(cellsAfter(text, "Conv", 2), (QStringList{"20", "> 99.9 %"}));
    }

    void filterMatchesOp() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        window.filterEdit()->setText("conv");
        const QStringList ops = column(window.nodeView(), NodeTableModel::Op);
        QCOMPARE(ops.size(), 20);
        QVERIFY(
            std::all_of(ops.begin(), ops.end(), [](const QString& op) { return op == "Conv"; }));
    }

    void filterIgnoresCase() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        window.filterEdit()->setText("GEMM");
        QCOMPARE(column(window.nodeView(), NodeTableModel::Name), QStringList{"/fc/Gemm"});
    }

    void everyFilterTermMustMatch() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        window.filterEdit()->setText("  layer1   relu ");
        QCOMPARE(column(window.nodeView(), NodeTableModel::Name),
                 (QStringList{"/layer1/layer1.0/relu/Relu", "/layer1/layer1.0/relu_1/Relu",
                              "/layer1/layer1.1/relu/Relu", "/layer1/layer1.1/relu_1/Relu"}));
    }

    void filterTermMatchesShape() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        window.filterEdit()->setText("1x512x7x7 conv");
        QCOMPARE(column(window.nodeView(), NodeTableModel::Name),
                 (QStringList{"/layer4/layer4.0/conv1/Conv", "/layer4/layer4.0/conv2/Conv",
                              "/layer4/layer4.0/downsample/downsample.0/Conv",
                              "/layer4/layer4.1/conv1/Conv", "/layer4/layer4.1/conv2/Conv"}));
    }

    void sortingByMacsIsNumeric() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        window.nodeView()->sortByColumn(NodeTableModel::Macs, Qt::DescendingOrder);
        const auto* model = window.nodeView()->model();
        QCOMPARE(model->index(0, NodeTableModel::Name).data().toString(), QString("/conv1/Conv"));
        QCOMPARE(model->index(0, NodeTableModel::Macs).data().toString(), QString("118,013,952"));
        qlonglong previous = std::numeric_limits<qlonglong>::max();
        for (int row = 0; row < model->rowCount(); ++row) {
            const auto macs =
                model->index(row, NodeTableModel::Macs).data(NodeTableModel::SortRole).toLongLong();
            QVERIFY(macs <= previous);
            previous = macs;
        }
    }

    void brokenFileKeepsThePreviousModel() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        QTemporaryDir dir;
        const QString broken = writeBrokenModel(dir);
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        window.openFile(broken);
        QVERIFY(failed.wait(10000));
        const QString message = failed.first().at(1).toString();
        QVERIFY2(message.startsWith(broken + ": byte "), qPrintable(message));
        QTRY_VERIFY(window.findChild<QMessageBox*>() != nullptr);
        QVERIFY(window.findChild<QMessageBox*>()->text().endsWith(message));
        QCOMPARE(window.modelPath(), example("resnet18"));
        QCOMPARE(window.nodeView()->model()->rowCount(), 69);
    }

    void brokenFileLeavesRecentFiles() {
        QTemporaryDir dir;
        const QString broken = writeBrokenModel(dir);
        cleave::ui::RecentFiles().add(broken);
        MainWindow window;
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        window.openFile(broken);
        QVERIFY(failed.wait(10000));
        QVERIFY(cleave::ui::RecentFiles().files().isEmpty());
    }

    void cancelStopsTheLoad() {
        MainWindow window;
        QSignalSpy cancelled(window.document()->loader(), &cleave::ui::ModelLoadRunner::cancelled);
        QSignalSpy shown(&window, &MainWindow::modelShown);
        window.openFile(example("vgg19"));
        window.document()->cancelLoad(); // seen by the worker at its next stage at the latest
        QVERIFY(cancelled.wait(10000));
        QVERIFY(shown.isEmpty());
        QCOMPARE(window.model(), nullptr);
    }

    void newerOpenSupersedesARunningLoad() {
        MainWindow window;
        QSignalSpy shown(&window, &MainWindow::modelShown);
        window.openFile(example("vgg19"));
        window.openFile(example("resnet18"));
        QVERIFY(shown.wait(30000));
        QTRY_VERIFY(!window.document()->isLoading());
        QTest::qWait(200); // time for a stale result to arrive, were it ever reported
        QCOMPARE(shown.count(), 1);
        QCOMPARE(window.modelPath(), example("resnet18"));
        QCOMPARE(window.nodeView()->model()->rowCount(), 69);
    }

    void droppedModelOpens() {
        MainWindow window;
        QSignalSpy shown(&window, &MainWindow::modelShown);
        QVERIFY(dropFiles(window, {QUrl::fromLocalFile(example("resnet18"))}));
        QVERIFY(shown.wait(30000));
        QCOMPARE(window.modelPath(), example("resnet18"));
    }

    void dropOfOtherFilesIsRefused() {
        MainWindow window;
        QVERIFY(!dropFiles(window, {QUrl::fromLocalFile(QString(CLEAVE_EXAMPLE_MODELS_DIR))}));
        QVERIFY(!dropFiles(window, {QUrl("https://example.org/resnet18.onnx")}));
        QVERIFY(!window.document()->isLoading());
    }

    void openedFileHeadsRecentFiles() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        QVERIFY(openAndWait(window, example("squeezenet1_1")));
        const auto actions = window.recentMenu()->actions();
        QVERIFY(actions.size() >= 2);
        QCOMPARE(actions[0]->text(), QString("&1 squeezenet1_1.onnx"));
        QCOMPARE(actions[1]->text(), QString("&2 resnet18.onnx"));
    }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
