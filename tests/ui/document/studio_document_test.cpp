// The window's document: a model set on it is what the window, the node table and the kernel
// dock show; its method, device and cluster likewise; each change a project keeps counted in its
// revision and announced once, and the project's modified state read from that revision.
#include "../studio_waits.hpp"
#include "core/device/cluster.hpp"
#include "core/graph/onnx_import.hpp"
#include "ui/cluster/cluster_document.hpp"
#include "ui/cluster/grouping_document.hpp"
#include "ui/document/project_controller.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/dse/dse_document.hpp"
#include "ui/graph/node_table_model.hpp"
#include "ui/latency/kernel_dock.hpp"
#include "ui/latency/kernel_table_model.hpp"
#include "ui/partition/partition_document.hpp"
#include "ui/partition/partition_page.hpp"
#include "ui/shell/main_window.hpp"

#include <QComboBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QUndoStack>
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
};

QTEST_MAIN(StudioDocumentTest)
#include "studio_document_test.moc"
