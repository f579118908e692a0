// The studio's workflow end to end, offscreen, one step per test function in order: open a
// project (ResNet-18 over the eight Jetson Xavier NX of nx8.cluster.json), move a split point and
// undo it, run a short DSE, apply a solution, export the AutoDiCE package, save the project,
// close, and open it again in a new window with the model, cluster, mapping and DSE front back.
// Also: the shipped example project, the title's '*', and the question on closing.
#include "../studio_workflow.hpp"
#include "ui/cluster/cluster_page.hpp"
#include "ui/dse/dse_front_model.hpp"
#include "ui/graph/graph_page.hpp"
#include "ui/latency/kernel_dock.hpp"
#include "ui/shell/start_page.hpp"

#include <QDir>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <memory>

using cleave::ui::MainWindow;
using cleave::ui::ProjectController;

class WorkflowTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::unique_ptr<MainWindow> window_;
    QString project_;
    cleave::partition::Mapping applied_;
    std::vector<cleave::dse::Solution> front_;

    cleave::ui::PartitionDocument* document() const { return window_->partitionPage()->document(); }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("CleaveTest");
        QSettings().clear();
        QVERIFY(dir_.isValid());
        project_ = cleave::test::writeExampleProject(dir_.path(), "resnet18");
    }

    void openTheProject() {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1366, 768);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QVERIFY(cleave::test::openProject(*window_, project_));
        QCOMPARE(window_->modelPath(), QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
        const auto& cluster = window_->document()->mapping()->request().cluster;
        QVERIFY(cluster);
        QCOMPARE(cluster->hosts.size(), std::size_t{8});
        QVERIFY(document()->hasMapping());
        QCOMPARE(document()->kernelCount(), 40);
        QCOMPARE(window_->windowTitle(), QString("Cleave — workflow.cleave (resnet18.onnx)"));
        QVERIFY(!window_->project()->isModified());
        QCOMPARE(window_->project()->projectPath(), project_);
        cleave::test::screenshot(*window_, window_->graphPage(), "1-opened-graph");
        cleave::test::screenshot(*window_, window_->partitionPage(), "2-partition");
    }

    void moveASplitPointAndUndoIt() {
        auto* undo = document()->undoStack();
        const auto before = document()->mapping();
        const int steps = undo->index();
        QVERIFY(cleave::test::moveASplit(*document()));
        QVERIFY(!cleave::test::sameMapping(document()->mapping(), before));
        QTRY_VERIFY(window_->project()->isModified());
        QTRY_VERIFY(window_->windowTitle().endsWith(" *"));
        cleave::test::screenshot(*window_, window_->partitionPage(), "3-split-moved");
        while (undo->index() > steps)
            undo->undo();
        QVERIFY(cleave::test::sameMapping(document()->mapping(), before));
        // Back at the saved state: nothing to save.
        QTRY_VERIFY(!window_->windowTitle().endsWith(" *"));
        QVERIFY(!window_->project()->isModified());
    }

    void runAShortDse() {
        QVERIFY(window_->centralTabs()->isTabEnabled(
            window_->centralTabs()->indexOf(window_->dsePage())));
        QCOMPARE(cleave::test::runShortDse(*window_->dsePage()), QString());
        QVERIFY(!window_->dsePage()->document()->front().empty());
        front_ = window_->dsePage()->document()->front();
        // A search is work the project keeps: the title says there is something to save.
        QTRY_VERIFY(window_->windowTitle().endsWith(" *"));
        QVERIFY(window_->project()->isModified());
        cleave::test::screenshot(*window_, window_->dsePage(), "4-dse");
    }

    void applyASolution() {
        const auto before = document()->mapping();
        const int row = cleave::test::applyAnotherSolution(*window_->dsePage(), *document());
        QVERIFY(row >= 0);
        applied_ = document()->mapping();
        QVERIFY(!cleave::test::sameMapping(applied_, before));
        QVERIFY(cleave::test::sameMapping(
            applied_,
            window_->dsePage()->document()->front()[static_cast<std::size_t>(row)].mapping));
        QCOMPARE(window_->centralTabs()->currentWidget(), window_->partitionPage());
        QVERIFY(window_->project()->isModified());
        cleave::test::screenshot(*window_, window_->partitionPage(), "5-solution-applied");
    }

    void exportThePackage() {
        const QString folder = dir_.filePath("package");
        QCOMPARE(cleave::test::exportPackage(*window_, folder), QString());
        for (const char* name : {"mapping.json", "platform.txt", "rankfile", "hostfile",
                                 "sender.json", "receiver.json"})
            QVERIFY2(QFile::exists(folder + "/" + name), name);
        QCOMPARE(QDir(folder).entryList({"*.onnx"}).size(), static_cast<int>(applied_.pes.size()));
        cleave::test::screenshot(*window_, window_->clusterPage(), "6-exported-cluster");
    }

    void saveTheProject() {
        const QByteArray old = [&] {
            QFile file(project_);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        }();
        QVERIFY(window_->project()->save());
        QVERIFY(!window_->project()->isModified());
        QTRY_VERIFY(!window_->windowTitle().endsWith(" *"));
        QFile file(project_);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray saved = file.readAll();
        QVERIFY(saved != old);
        QVERIFY(saved.contains("\"mapping\""));
        QVERIFY(saved.contains("\"inline\""));
        QVERIFY(!QFile::exists(project_ + ".autosave"));
        // A clean window closes without a question.
        window_->project()->setCloseDecider(
            [] { return ProjectController::CloseDecision::cancel; });
        QVERIFY(window_->close());
        window_.reset();
    }

    void reopenTheProject() {
        window_ = std::make_unique<MainWindow>();
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QVERIFY(cleave::test::openProject(*window_, project_));
        QCOMPARE(window_->modelPath(), QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
        QCOMPARE(window_->document()->mapping()->request().cluster->hosts.size(), std::size_t{8});
        QVERIFY(cleave::test::sameMapping(document()->mapping(), applied_));
        QCOMPARE(window_->document()->ruleSet(), QString("ort-cpu"));
        // The DSE front is back without a search.
        const auto& front = window_->dsePage()->document()->front();
        QCOMPARE(front.size(), front_.size());
        for (std::size_t i = 0; i < front.size(); ++i)
            QVERIFY(cleave::test::sameMapping(front[i].mapping, front_[i].mapping));
        QVERIFY(!window_->project()->isModified());
        cleave::test::screenshot(*window_, window_->dsePage(), "7-reopened-dse");
        // Opened projects are recent files.
        QVERIFY(window_->startPage() != nullptr);
        bool listed = false;
        for (auto* action : window_->recentMenu()->actions())
            listed = listed || action->toolTip() == project_;
        QVERIFY(listed);
    }

    void closingWithUnsavedChangesAsks() {
        QVERIFY(cleave::test::moveASplit(*document()));
        QTRY_VERIFY(window_->project()->isModified());
        // The box, answered Cancel: the window stays.
        QTimer::singleShot(100, [this] {
            auto* box = window_->findChild<QMessageBox*>("unsavedChangesBox");
            if (box)
                box->button(QMessageBox::Cancel)->click();
        });
        QVERIFY(!window_->close());
        QVERIFY(window_->isVisible());
        // Discard: it closes, and the project keeps what was saved.
        window_->project()->setCloseDecider(
            [] { return ProjectController::CloseDecision::discard; });
        QVERIFY(window_->close());
        const auto saved = cleave::project::load_project(project_.toStdString());
        QVERIFY(!saved.mapping.empty());
        window_.reset();
    }

    void theExampleProjectOpensResnet101OverNx8() {
        const QString example = QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/../example.cleave";
        QVERIFY2(QFile::exists(example), qPrintable(example));
        MainWindow window;
        window.show();
        // The start page's button (cleave-studio finds the file beside itself; this test,
        // elsewhere).
        auto* button = window.startPage()->exampleButton();
        window.startPage()->setExampleProject(QString());
        QVERIFY(button->isHidden());
        window.startPage()->setExampleProject(QFileInfo(example).absoluteFilePath());
        QVERIFY(!button->isHidden());
        QSignalSpy opened(window.project(), &ProjectController::projectOpened);
        button->click();
        QVERIFY(opened.wait(60000));
        QCOMPARE(QFileInfo(window.modelPath()).fileName(), QString("resnet101.onnx"));
        QCOMPARE(window.document()->mapping()->request().cluster->hosts.size(), std::size_t{8});
        QVERIFY(window.partitionPage()->document()->hasMapping());
        QVERIFY(!window.project()->isModified());
    }

    // A fresh clone holds the example's model only compressed (models/resnet101.onnx.xz): the
    // project names models/resnet101.onnx and opens with no box, its note in the status bar.
    void theExampleProjectOpensFromAFreshClone() {
        const QDir source(QStringLiteral(CLEAVE_SOURCE_EXAMPLES_DIR));
        const QDir clone(dir_.filePath("clone/examples"));
        QVERIFY(clone.mkpath("models") && clone.mkpath("clusters"));
        for (const char* file :
             {"example.cleave", "models/resnet101.onnx.xz", "clusters/nx8.cluster.json"})
            QVERIFY2(QFile::copy(source.filePath(file), clone.filePath(file)), file);
        QVERIFY(!QFile::exists(clone.filePath("models/resnet101.onnx")));
        MainWindow window;
        window.show();
        QSignalSpy opened(window.project(), &ProjectController::projectOpened);
        QSignalSpy failed(window.project(), &ProjectController::restoreFailed);
        QVERIFY(window.project()->openProject(clone.filePath("example.cleave")));
        QVERIFY(opened.wait(60000));
        QCOMPARE(failed.count(), 0);
        const auto boxes = window.findChildren<QMessageBox*>();
        for (const auto* box : boxes)
            QVERIFY2(!box->isVisible(), qPrintable(box->text()));
        QCOMPARE(QFileInfo(window.modelPath()).fileName(), QString("resnet101.onnx.xz"));
        QCOMPARE(window.document()->mapping()->request().cluster->hosts.size(), std::size_t{8});
        QVERIFY(window.partitionPage()->document()->hasMapping());
        const QString status = window.statusBar()->currentMessage();
        QVERIFY2(status.contains("resnet101.onnx.xz") && status.contains("compressed"),
                 qPrintable(status));
        QVERIFY(!window.project()->isModified());
    }

    void aDroppedProjectOpens() {
        MainWindow window;
        window.show();
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(project_)});
        const QPoint centre = window.rect().center();
        QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QSignalSpy opened(window.project(), &ProjectController::projectOpened);
        QDropEvent drop(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY(opened.wait(60000));
        QCOMPARE(window.project()->projectPath(), project_);
        QVERIFY(cleave::test::sameMapping(window.partitionPage()->document()->mapping(), applied_));
    }

    void aBadProjectIsReportedWithItsPlace() {
        const QString path = dir_.filePath("bad.cleave");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": "cleave-project", "version": 1, "model": {"path": 7}})");
        file.close();
        MainWindow window;
        QSignalSpy failed(window.project(), &ProjectController::restoreFailed);
        QVERIFY(!window.project()->openProject(path));
        QCOMPARE(failed.count(), 1);
        const QString message = failed.first().at(1).toString();
        QVERIFY2(message.contains("bad.cleave") && message.contains("/model/path"),
                 qPrintable(message));
    }
};

QTEST_MAIN(WorkflowTest)
#include "workflow_test.moc"
