// The studio's first window, offscreen: loading off the UI thread, the node table, filtering,
// sorting, the summary and failures that keep the previous model.
#include "ui/main_window.hpp"
#include "ui/model_summary_dock.hpp"
#include "ui/node_table_model.hpp"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

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
} // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
        QCoreApplication::setOrganizationName("CleaveTest");
    }

    void opensModelOffTheUiThread() {
        MainWindow window;
        QSignalSpy progress(window.loader(), &cleave::ui::ModelLoader::progress);
        QVERIFY(openAndWait(window, example("resnet18")));
        QVERIFY(progress.count() >= 3);
        QCOMPARE(window.nodeView()->model()->rowCount(), 69);
        QCOMPARE(window.windowTitle(), QString("Cleave — resnet18.onnx"));
    }

    void summaryShowsPublishedFigures() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        const QString text = window.summaryDock()->text();
        QVERIFY2(text.contains("11,689,512"), qPrintable(text));
        QVERIFY(text.contains("1.81 G"));
        QVERIFY(text.contains("input float32 1x3x224x224"));
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

    void everyFilterTermMustMatch() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        window.filterEdit()->setText("layer1 relu");
        QCOMPARE(column(window.nodeView(), NodeTableModel::Name),
                 (QStringList{"/layer1/layer1.0/relu/Relu", "/layer1/layer1.0/relu_1/Relu",
                              "/layer1/layer1.1/relu/Relu", "/layer1/layer1.1/relu_1/Relu"}));
        window.filterEdit()->setText("1x512x7x7 conv");
        QCOMPARE(window.nodeView()->model()->rowCount(), 5);
    }

    void sortingByMacsIsNumeric() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        window.nodeView()->sortByColumn(NodeTableModel::Macs, Qt::DescendingOrder);
        const auto* view = window.nodeView();
        QCOMPARE(view->model()->index(0, NodeTableModel::Name).data().toString(),
                 QString("/conv1/Conv"));
        QCOMPARE(view->model()
                     ->index(0, NodeTableModel::Macs)
                     .data(NodeTableModel::SortRole)
                     .toLongLong(),
                 118013952LL);
        qlonglong previous = std::numeric_limits<qlonglong>::max();
        for (int row = 0; row < view->model()->rowCount(); ++row) {
            const auto macs = view->model()
                                  ->index(row, NodeTableModel::Macs)
                                  .data(NodeTableModel::SortRole)
                                  .toLongLong();
            QVERIFY(macs <= previous);
            previous = macs;
        }
    }

    void brokenFileKeepsThePreviousModel() {
        MainWindow window;
        QVERIFY(openAndWait(window, example("resnet18")));
        QTemporaryDir dir;
        const QString broken = dir.filePath("broken.onnx");
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("\x08\x07\x12\xff\xff\xff\x0fnot a model");
        file.close();
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        window.openFile(broken);
        QVERIFY(failed.wait(10000));
        QVERIFY2(failed.first().at(1).toString().startsWith(broken + ": byte "),
                 qPrintable(failed.first().at(1).toString()));
        QCOMPARE(window.modelPath(), example("resnet18"));
        QCOMPARE(window.nodeView()->model()->rowCount(), 69);
    }

    void cancelStopsTheLoad() {
        MainWindow window;
        QSignalSpy cancelled(window.loader(), &cleave::ui::ModelLoader::cancelled);
        QSignalSpy shown(&window, &MainWindow::modelShown);
        window.openFile(example("vgg19"));
        window.loader()->cancel(); // seen by the worker at its first stage
        QVERIFY(cancelled.wait(10000));
        QVERIFY(shown.isEmpty());
        QCOMPARE(window.model(), nullptr);
    }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
