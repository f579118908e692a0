// Autosave and crash recovery. The test starts itself as a child studio (CLEAVE_CRASH_CHILD set):
// it opens ResNet-18 over nx8, edits the mapping, waits for the autosave (CLEAVE_AUTOSAVE_MS=200),
// edits once more and is killed with SIGKILL. A new window is then offered the autosave and,
// recovered, shows the mapping as it was at that autosave. HOME and the XDG folders of both
// processes point into a temporary folder, so the user's settings and files are never touched.
// Also: the autosave of a saved project is a side file that never touches the project and goes
// on a clean save; opening a project whose side file is newer offers it.
#include "../studio_workflow.hpp"

#include <QApplication>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QThread>
#include <QUndoStack>
#include <csignal>
#include <cstdio>
#include <memory>

using cleave::ui::MainWindow;
using cleave::ui::ProjectController;

namespace {

constexpr auto kChildVariable = "CLEAVE_CRASH_CHILD";

QString mappingText(const cleave::partition::Mapping& mapping) {
    QStringList points;
    QStringList pes;
    for (const int p : mapping.points)
        points << QString::number(p);
    for (const int pe : mapping.pes)
        pes << QString::number(pe);
    return points.join(',') + "|" + pes.join(',');
}

void say(const QString& line) {
    std::printf("%s\n", qPrintable(line));
    std::fflush(stdout);
}

// The child studio: edits, lets one autosave happen, edits again and waits to be killed.
int runChild() {
    MainWindow window;
    window.show();
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
    if (!shown.wait(60000))
        return say("FAILED model"), 1;
    QSignalSpy prepared(window.document()->mapping(), &cleave::ui::PartitionDocument::prepared);
    if (!window.openCluster(cleave::test::exampleCluster()) || !prepared.wait(60000))
        return say("FAILED cluster"), 1;
    auto* document = window.partitionPage()->document();
    QSignalSpy autosaved(window.project(), &ProjectController::autosaved);
    if (!cleave::test::moveASplit(*document))
        return say("FAILED edit"), 1;
    if (!autosaved.wait(30000))
        return say("FAILED autosave"), 1;
    say("AUTOSAVED " + mappingText(document->mapping()));
    if (!document->moveSplit(0, document->mapping().points.front() - 1))
        return say("FAILED second edit"), 1;
    say("EDITED " + mappingText(document->mapping()));
    // The event loop stays stopped from here, so no later autosave can take the second edit.
    for (;;)
        QThread::sleep(1);
}

} // namespace

class CrashRecoveryTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void init() {
        // Each test starts without autosaves or settings left by the one before.
        QSettings().clear();
        for (const auto& r : ProjectController::recoverableAutosaves())
            QFile::remove(r.autosave);
    }

    void killedStudioIsRecoveredAsAtItsLastAutosave() {
        QProcess child;
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.insert(kChildVariable, "1");
        environment.insert("CLEAVE_AUTOSAVE_MS", "200");
        child.setProcessEnvironment(environment);
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(child.waitForStarted(10000));
        QString autosaved;
        QString edited;
        QElapsedTimer clock;
        clock.start();
        while (edited.isEmpty() && clock.elapsed() < 120000) {
            if (!child.canReadLine() && !child.waitForReadyRead(1000)) {
                QVERIFY2(child.state() == QProcess::Running, "the child studio ended early");
                continue;
            }
            while (child.canReadLine()) {
                const QString line = QString::fromUtf8(child.readLine()).trimmed();
                QVERIFY2(!line.startsWith("FAILED"), qPrintable(line));
                if (line.startsWith("AUTOSAVED "))
                    autosaved = line.mid(10);
                if (line.startsWith("EDITED "))
                    edited = line.mid(7);
            }
        }
        QVERIFY2(!edited.isEmpty(), "the child studio did not get to its second edit");
        QVERIFY(autosaved != edited);
        // kill -9 while it is editing.
        QCOMPARE(::kill(static_cast<pid_t>(child.processId()), SIGKILL), 0);
        QVERIFY(child.waitForFinished(10000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        const auto found = ProjectController::recoverableAutosaves();
        QCOMPARE(found.size(), 1);
        QVERIFY(found.first().project.isEmpty()); // never saved as a project

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.project()->offerRecovery()); // what cleave-studio does at start
        auto* box = window.findChild<QMessageBox*>("recoveryBox");
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        auto* recover = box->findChild<QPushButton*>("recoverButton");
        QVERIFY(recover);
        QSignalSpy opened(window.project(), &ProjectController::projectOpened);
        recover->click();
        QVERIFY(opened.wait(60000));
        const auto* document = window.partitionPage()->document();
        QCOMPARE(mappingText(document->mapping()), autosaved);
        QCOMPARE(QFileInfo(window.modelPath()).fileName(), QString("resnet18.onnx"));
        QCOMPARE(window.document()->mapping()->request().cluster->hosts.size(), std::size_t{8});
        // Recovered work is unsaved work: modified, and no longer offered while this window has it.
        QVERIFY(window.project()->isModified());
        QTRY_VERIFY(window.windowTitle().endsWith(" *"));
        QVERIFY(ProjectController::recoverableAutosaves().isEmpty());

        // Saved as a project, the autosave has done its work and goes.
        const QString autosave = found.first().autosave;
        QVERIFY(QFile::exists(autosave));
        QVERIFY(window.project()->saveAs(dir_.filePath("recovered.cleave")));
        QVERIFY(!QFile::exists(autosave));
        QVERIFY(!window.project()->isModified());
        QVERIFY(ProjectController::recoverableAutosaves().isEmpty());
    }

    void autosaveIsASideFileThatNeverTouchesTheProject() {
        const QString path = cleave::test::writeExampleProject(dir_.path(), "resnet18", "side.cleave");
        QString edited;
        {
            MainWindow window;
            window.show();
            QVERIFY(cleave::test::openProject(window, path));
            QVERIFY(!window.project()->autosaveNow()); // nothing changed: nothing written
            QCOMPARE(window.project()->autosavePath(), path + ".autosave");
            QVERIFY(!QFile::exists(path + ".autosave"));

            QFile project(path);
            QVERIFY(project.open(QIODevice::ReadOnly));
            const QByteArray before = project.readAll();
            project.close();
            auto* document = window.partitionPage()->document();
            QVERIFY(cleave::test::moveASplit(*document));
            edited = mappingText(document->mapping());
            QTRY_VERIFY(window.project()->isModified());
            QVERIFY(window.project()->autosaveNow());
            QVERIFY(!window.project()->autosaveNow()); // unchanged since
            QVERIFY(QFile::exists(path + ".autosave"));
            QVERIFY(project.open(QIODevice::ReadOnly));
            QCOMPARE(project.readAll(), before);
            project.close();
            const auto copy = cleave::project::load_project((path + ".autosave").toStdString());
            QVERIFY(copy.autosave);
            QCOMPARE(QString::fromStdString(copy.autosave->project.string()), path);
            QCOMPARE(QString::fromStdString(copy.model.string()),
                     QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
            // While this window holds it, no one is offered it.
            QVERIFY(ProjectController::recoverableAutosaves().isEmpty());
            // The window goes without a clean close, as in a crash: its side file stays.
        }
        QCOMPARE(ProjectController::recoverableAutosaves().size(), 1);

        // Opening the project offers its newer side file; Recover brings the edit back.
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy opened(window.project(), &ProjectController::projectOpened);
        window.openFile(path);
        QTRY_VERIFY(window.project()->recoveryBox() != nullptr);
        QVERIFY(opened.count() > 0 || opened.wait(60000)); // the project itself opens meanwhile
        QVERIFY(mappingText(window.partitionPage()->document()->mapping()) != edited);
        opened.clear();
        window.project()->resolveRecovery(path + ".autosave",
                                          ProjectController::RecoveryDecision::recover);
        QVERIFY(opened.wait(60000));
        QCOMPARE(mappingText(window.partitionPage()->document()->mapping()), edited);
        QVERIFY(window.project()->isModified());
        QCOMPARE(window.project()->projectPath(), path);
        // A clean save replaces the project and removes the side file.
        QVERIFY(window.project()->save());
        QVERIFY(!QFile::exists(path + ".autosave"));
        QVERIFY(!cleave::project::load_project(path.toStdString()).mapping.empty());
        QVERIFY(ProjectController::recoverableAutosaves().isEmpty());
    }

    void laterLeavesTheAutosaveAndDiscardDeletesIt() {
        const QString path = cleave::test::writeExampleProject(dir_.path(), "resnet18", "later.cleave");
        {
            MainWindow window;
            QVERIFY(cleave::test::openProject(window, path));
            QVERIFY(cleave::test::moveASplit(*window.partitionPage()->document()));
            QVERIFY(window.project()->autosaveNow());
        }
        MainWindow window;
        QVERIFY(window.project()->offerRecovery());
        window.project()->resolveRecovery(path + ".autosave",
                                          ProjectController::RecoveryDecision::later);
        QVERIFY(QFile::exists(path + ".autosave"));
        QVERIFY(!window.project()->offerRecovery()); // put off for this session
        MainWindow next; // the next start
        QVERIFY(next.project()->offerRecovery());
        next.project()->resolveRecovery(path + ".autosave",
                                        ProjectController::RecoveryDecision::discard);
        QVERIFY(!QFile::exists(path + ".autosave"));
        QVERIFY(ProjectController::recoverableAutosaves().isEmpty());
    }
};

int main(int argc, char** argv) {
    // Both processes keep their settings and autosaves in a folder of their own: the parent
    // makes it and the child inherits it through the environment.
    std::unique_ptr<QTemporaryDir> home;
    if (!qEnvironmentVariableIsSet(kChildVariable)) {
        home = std::make_unique<QTemporaryDir>();
        for (const char* variable : {"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
            qputenv(variable, (home->path() + "/" + variable).toUtf8());
        qputenv("HOME", home->path().toUtf8());
    }
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("CleaveTest");
    QCoreApplication::setApplicationName("crash_recovery_test");
    QStandardPaths::setTestModeEnabled(true);
    if (qEnvironmentVariableIsSet(kChildVariable))
        return runChild();
    CrashRecoveryTest test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "crash_recovery_test.moc"
