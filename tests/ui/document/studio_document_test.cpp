// The window's document: a model set on it is what the window, the node table and the kernel
// dock show, each change counted in its revision and announced once.
#include "core/graph/onnx_import.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/graph/node_table_model.hpp"
#include "ui/latency/kernel_dock.hpp"
#include "ui/shell/main_window.hpp"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>
#include <memory>

using namespace cleave;

class StudioDocumentTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aModelSetIsWhatTheWindowShows() {
        ui::MainWindow window;
        auto* document = window.document();
        QVERIFY(!document->model());
        const auto before = document->revision();
        QSignalSpy changed(document, &ui::StudioDocument::modelChanged);
        const QString path = QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/squeezenet1_1.onnx";
        auto model = std::make_shared<const graph::Model>(graph::load_model(path.toStdString()));
        document->setModel(path, model);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.front().front().toString(), path);
        QCOMPARE(document->revision(), before + 1);
        QCOMPARE(window.model(), model);
        QCOMPARE(window.modelPath(), path);
        const auto* nodes = window.findChild<ui::NodeTableModel*>();
        QVERIFY(nodes);
        QCOMPARE(nodes->model(), model);
        QCOMPARE(nodes->rowCount(), static_cast<int>(model->nodes.size()));
    }
};

QTEST_MAIN(StudioDocumentTest)
#include "studio_document_test.moc"
