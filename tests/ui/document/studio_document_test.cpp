// The window's document: a model set on it is what the window, the node table and the kernel
// dock show; its method, device and cluster likewise; each change a project keeps counted in its
// revision and announced once, and the project's modified state read from that revision.
#include "../studio_waits.hpp"
#include "core/device/cluster.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/project/project.hpp"
#include "tests/core/graph/tiny_decoder.hpp"
#include "ui/document/cluster_document.hpp"
#include "ui/document/grouping_document.hpp"
#include "ui/shell/project_controller.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/document/dse_document.hpp"
#include "ui/graph/node_table_model.hpp"
#include "ui/latency/kernel_dock.hpp"
#include "ui/latency/kernel_table_model.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/partition/partition_page.hpp"
#include "ui/shell/main_window.hpp"

#include <QComboBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <fstream>
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

    void methodDeviceAndClusterAreTheDocuments() {
        ui::MainWindow window;
        QVERIFY(cleave::test::openModel(window, "resnet18"));
        auto* document = window.document();
        const auto* table = window.kernelDock()->kernels();
        QVERIFY(document->kernels());
        QCOMPARE(table->rowCount(), static_cast<int>(document->kernels()->kernels.size()));
        QCOMPARE(table->rowCount(), 40);

        // The default device, known with the first prediction, is no edit.
        const auto opened = document->revision();
        QVERIFY(cleave::test::waitForPrediction(*document));
        QVERIFY(!document->device().isEmpty());
        QCOMPARE(document->revision(), opened);

        // A method that cannot be read changes nothing and says why.
        QSignalSpy regrouped(document, &ui::StudioDocument::kernelsChanged);
        const QString error = document->setRuleSet("/nonexistent/rules.json");
        QVERIFY2(error.contains("/nonexistent/rules.json"), qPrintable(error));
        QCOMPARE(document->ruleSet(), QString("ort-cpu"));
        QCOMPARE(document->revision(), opened);
        QCOMPARE(regrouped.count(), 0);
        // Another method regroups the kernels the table shows, once, as one change.
        QCOMPARE(document->setRuleSet("tflite-gpu"), QString());
        QCOMPARE(regrouped.count(), 1);
        QCOMPARE(document->revision(), opened + 1);
        QCOMPARE(table->rowCount(), 24);

        // The device on show again is no change; another one is, and is predicted.
        QSignalSpy moved(document, &ui::StudioDocument::deviceChanged);
        document->setDevice(document->device());
        QCOMPARE(moved.count(), 0);
        QCOMPARE(document->revision(), opened + 1);
        QVERIFY(cleave::test::predictOn(*document, "jetson-xavier-nx"));
        QCOMPARE(moved.count(), 1);
        QCOMPARE(document->revision(), opened + 2);
        QCOMPARE(window.kernelDock()->deviceBox()->currentText(), QString("jetson-xavier-nx"));

        // The cluster the Partition tab splits over.
        auto cluster = std::make_shared<const device::Cluster>(device::load_cluster(
            QString(CLEAVE_EXAMPLE_CLUSTERS_DIR "/nx8.cluster.json").toStdString()));
        document->setCluster(cluster);
        QCOMPARE(document->revision(), opened + 3);
        QCOMPARE(window.document()->mapping()->request().cluster, cluster);
        document->setCluster(cluster);
        QCOMPARE(document->revision(), opened + 3);
        // It is what the Cluster tab's editor shows, with no history; an edit there is the
        // document's cluster from then on, and undoing it too.
        auto* editor = document->clusterEditor();
        QCOMPARE(editor->hostCount(), 8);
        QCOMPARE(editor->undoStack()->count(), 0);
        QCOMPARE(editor->addHost("raspberry-pi-4"), QString());
        QCOMPARE(document->revision(), opened + 4);
        QCOMPARE(document->cluster()->hosts.size(), std::size_t{9});
        QCOMPARE(window.document()->mapping()->request().cluster, document->cluster());
        editor->undoStack()->undo();
        QCOMPARE(document->cluster()->hosts.size(), std::size_t{8});
        QCOMPARE(document->revision(), opened + 5);
    }

    void theDefaultDeviceFollowsTheCluster() {
        ui::MainWindow window;
        QVERIFY(cleave::test::openModel(window, "resnet18"));
        auto* document = window.document();
        const auto load = [](const char* name) {
            return std::make_shared<const device::Cluster>(device::load_cluster(
                (QString(CLEAVE_EXAMPLE_CLUSTERS_DIR "/") + name).toStdString()));
        };
        // No device chosen: the cluster's first host's, which is no edit.
        document->setCluster(load("nx8.cluster.json"));
        const auto revision = document->revision();
        QVERIFY(cleave::test::waitForPrediction(*document));
        QCOMPARE(document->device(), QString("jetson-xavier-nx"));
        QCOMPARE(document->latency()->request.device, std::string("jetson-xavier-nx"));
        QCOMPARE(window.kernelDock()->deviceBox()->currentText(), QString("jetson-xavier-nx"));
        QCOMPARE(document->revision(), revision);
        document->setCluster(load("xeon4.cluster.json"));
        QVERIFY(cleave::test::waitForPrediction(*document));
        QCOMPARE(document->device(), QString("xeon-ort-16t"));
        // A device chosen stays when the cluster changes.
        QVERIFY(cleave::test::predictOn(*document, "nvidia-h100"));
        document->setCluster(load("nx8.cluster.json"));
        QVERIFY(cleave::test::waitForPrediction(*document));
        QCOMPARE(document->device(), QString("nvidia-h100"));
        QCOMPARE(document->latency()->request.device, std::string("nvidia-h100"));
    }

    void theProjectIsModifiedWhenTheRevisionMoves() {
        ui::MainWindow window;
        auto* project = window.project();
        // A model opened in an untitled window is no edit.
        QVERIFY(cleave::test::openModel(window, "resnet18"));
        QVERIFY(cleave::test::waitForPrediction(*window.document()));
        QVERIFY(!project->isModified());
        window.document()->setDevice("jetson-xavier-nx");
        QVERIFY(project->isModified());
        QTRY_VERIFY(window.windowTitle().endsWith(" *"));
        project->markClean();
        QVERIFY(!project->isModified());
        QTRY_VERIFY(!window.windowTitle().endsWith(" *"));
        // What the DSE tab reports it shows is no edit; a grouping setting the user changed is.
        auto* dse = window.document()->dse();
        auto view = dse->view();
        view["tab"] = 2;
        dse->setView(view, false);
        QVERIFY(!project->isModified());
        auto* grouping = window.document()->grouping();
        grouping->setSettings(grouping->request(), true);
        QVERIFY(project->isModified());
        project->markClean();
        window.document()->noteChange();
        QVERIFY(project->isModified());
    }

    // A model opened through the document loads in the background; the input shapes it was
    // read with are the document's, and a project made of it keeps them.
    void aModelOpenedKeepsTheShapesItWasReadWith() {
        ui::StudioDocument document;
        const QString path = QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/squeezenet1_1.onnx";
        QSignalSpy started(&document, &ui::StudioDocument::loadStarted);
        QSignalSpy changed(&document, &ui::StudioDocument::modelChanged);
        document.openModel(path, {{"input", {2, 3, 224, 224}}});
        QCOMPARE(started.count(), 1);
        QVERIFY(document.isLoading());
        QVERIFY(changed.wait(30000));
        QVERIFY(!document.isLoading());
        QCOMPARE(document.modelPath(), path);
        QCOMPARE(document.inputShapes().at("input"), (graph::Shape{2, 3, 224, 224}));
        const auto project = document.snapshot();
        QCOMPARE(project.input_shapes, std::vector<std::string>{"input=2x3x224x224"});
        QVERIFY(document.kernels());
    }

    // A decoder is read with its dim bindings; the document and a project made of it keep them,
    // and the project opens it with them again.
    void aDecoderOpenedKeepsItsDimBindings() {
        QTemporaryDir dir;
        const QString path = dir.filePath("decoder.onnx");
        std::ofstream(path.toStdString(), std::ios::binary)
            << cleave::test::TinyDecoder::build().SerializeAsString();
        ui::StudioDocument document;
        graph::DimBindings dims;
        dims.prefill = 512;
        dims.batch = 1;
        QSignalSpy changed(&document, &ui::StudioDocument::modelChanged);
        document.openModel(path, {}, dims);
        QCOMPARE(document.requestedDims(), dims);
        QVERIFY(changed.wait(30000));
        QCOMPARE(document.dimBindings(), dims);
        QCOMPARE(document.model()->macs, std::int64_t(8716288)); // 640 x 512 + 32 x 512 x 512
        const auto project = document.snapshot();
        QCOMPARE(project.dims, dims);

        ui::StudioDocument reopened;
        QSignalSpy applied(&reopened, &ui::StudioDocument::applied);
        reopened.apply(project, dir.filePath("decoder.cleave"));
        QVERIFY(applied.wait(30000));
        QVERIFY(reopened.model());
        QCOMPARE(reopened.dimBindings(), dims);
        QCOMPARE(reopened.model()->macs, std::int64_t(8716288));
    }

    void aModelThatCannotBeReadIsSaidOnceAndTheOneOnShowStays() {
        ui::StudioDocument document;
        const QString good = QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/squeezenet1_1.onnx";
        QSignalSpy changed(&document, &ui::StudioDocument::modelChanged);
        document.openModel(good);
        QVERIFY(changed.wait(30000));
        QSignalSpy failed(&document, &ui::StudioDocument::loadFailed);
        document.openModel("/nonexistent/model.onnx");
        QVERIFY(failed.wait(30000));
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.front().at(1).toString().contains("/nonexistent/model.onnx"),
                 qPrintable(failed.front().at(1).toString()));
        QCOMPARE(document.modelPath(), good);
    }

    // One pick, shown by every view: the same pick again says nothing, and new kernels clear it.
    void theSelectionIsTheDocuments() {
        ui::StudioDocument document;
        const QString path = QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/squeezenet1_1.onnx";
        document.setModel(path,
                          std::make_shared<const graph::Model>(graph::load_model(path.toStdString())));
        QSignalSpy selected(&document, &ui::StudioDocument::selectionChanged);
        document.selectNode(3);
        document.selectNode(3);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(document.selection().node, 3);
        document.selectKernel(2);
        QCOMPARE(selected.count(), 2);
        QCOMPARE(document.selection(), (ui::Selection{-1, 2}));
        QCOMPARE(document.setRuleSet("tflite-gpu"), QString());
        QCOMPARE(document.selection(), ui::Selection{});
    }

    // A project applied to a document: what cannot be restored is said once, in applied(), and
    // the rest is restored.
    void aProjectWhoseModelIsMissingSaysSoOnce() {
        ui::StudioDocument document;
        project::Project p;
        p.model = "/nonexistent/model.onnx";
        p.rules = "tflite-gpu";
        QSignalSpy applied(&document, &ui::StudioDocument::applied);
        QSignalSpy failed(&document, &ui::StudioDocument::loadFailed);
        document.apply(p, "/nonexistent/project.cleave");
        QVERIFY(document.isApplying());
        QVERIFY(applied.wait(30000));
        QCOMPARE(applied.count(), 1);
        QCOMPARE(failed.count(), 1);
        const auto problems = applied.front().front().toStringList();
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.front().startsWith("the model could not be opened: "),
                 qPrintable(problems.front()));
        QVERIFY(!document.isApplying());
        QCOMPARE(document.ruleSet(), QString("tflite-gpu"));
    }
};

QTEST_MAIN(StudioDocumentTest)
#include "studio_document_test.moc"
