#include "ui/document/project_controller.hpp"

#include "core/atomic_file.hpp"
#include "core/autodice/mapping_file.hpp"
#include "core/input_error.hpp"
#include "ui/dse/dse_document.hpp"
#include "ui/cluster/grouping_document.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/partition/partition_document.hpp"
#include "ui/shell/start_page.hpp"

#include <QAbstractButton>
#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>
#include <algorithm>

namespace cleave::ui {

namespace {

constexpr int kAutosaveMs = 2 * 60 * 1000;

QString shapeText(const std::string& name, const graph::Shape& dims) {
    QString text = QString::fromStdString(name) + "=";
    for (std::size_t i = 0; i < dims.size(); ++i)
        text += (i ? "x" : "") + QString::number(dims[i]);
    return text;
}

bool isEmptyWindow(const MainWindow* window) {
    return !window->model() && !window->loader()->isLoading() &&
           !window->project()->isRestoring() && window->project()->projectPath().isEmpty();
}

} // namespace

// What a restore waits for: the model on show, then the Partition tab's latencies for it.
struct ProjectController::Restore {
    project::Project project;
    QString file; // the file read (the project, or its autosave), for messages
    bool recovered = false;
    device::Cluster cluster;
    const device::Cluster* shown = nullptr; // the ClusterPtr handed to the Partition tab
    bool hasCluster = false;
    bool modelShown = false;
    QStringList problems;
};

ProjectController::ProjectController(MainWindow* window)
    : QObject(window), window_(window), autosaveTimer_(new QTimer(this)),
      updateTimer_(new QTimer(this)) {
    updateTimer_->setSingleShot(true);
    updateTimer_->setInterval(0); // the changes of one event-loop turn, checked once
    connect(updateTimer_, &QTimer::timeout, this, &ProjectController::updateModified);
    autosaveTimer_->setInterval(autosaveIntervalMs());
    connect(autosaveTimer_, &QTimer::timeout, this, &ProjectController::autosaveNow);
    autosaveTimer_->start();

    // Edits: of the document, and of the mapping (its undo stack's clean state).
    connect(window_->document(), &StudioDocument::changed, this, &ProjectController::scheduleUpdate);
    const auto* mapping = window_->document()->mapping()->undoStack();
    connect(mapping, &QUndoStack::cleanChanged, this, &ProjectController::scheduleUpdate);
    connect(mapping, &QUndoStack::indexChanged, this, &ProjectController::scheduleUpdate);
    // Opening files in an untitled window starts its work; only what is done after is an edit.
    connect(window_, &MainWindow::modelShown, this, [this] {
        if (!restoring_)
            resetBaselineIfUntitled();
        updateTitle();
    });
    connect(window_, &MainWindow::clusterOpened, this, [this] {
        if (!restoring_)
            resetBaselineIfUntitled();
        scheduleUpdate();
    });
    connect(window_->document()->mapping(), &PartitionDocument::prepared, this, [this] {
        if (restoring_)
            continueRestore();
    });
    connect(window_, &MainWindow::modelShown, this, [this](const QString& path) {
        if (!restoring_ || QFileInfo(path) != QFileInfo(qPath(restoring_->project.model)))
            return;
        restoring_->modelShown = true;
        if (!restoring_->hasCluster)
            finishRestore({});
    });
    connect(window_, &MainWindow::loadFailed, this, [this](const QString&, const QString& error) {
        if (restoring_)
            finishRestore(tr("the model could not be opened: %1").arg(error));
    });
    window_->startPage()->setExampleProject(exampleProjectPath());
    markClean();
}

ProjectController::~ProjectController() {
    // A window closed without closeEvent (deleted) leaves its side file for recovery; only the
    // lock goes.
    if (lock_)
        lock_->unlock();
}

void ProjectController::addActions(QMenu* file, QAction* open, QAction* before) {
    auto* newAction = new QAction(tr("&New Project"), this);
    newAction->setShortcut(QKeySequence::New);
    newAction->setStatusTip(tr("Open a new, empty window"));
    connect(newAction, &QAction::triggered, this, &ProjectController::newProject);
    file->insertAction(open, newAction);
    saveAction_ = new QAction(tr("&Save Project"), this);
    saveAction_->setShortcut(QKeySequence::Save);
    connect(saveAction_, &QAction::triggered, this, &ProjectController::save);
    saveAsAction_ = new QAction(tr("Save Project &As…"), this);
    saveAsAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(saveAsAction_, &QAction::triggered, this, &ProjectController::saveAsDialog);
    file->insertAction(before, saveAction_);
    file->insertAction(before, saveAsAction_);
    file->insertSeparator(before);
}

// ---- the state -------------------------------------------------------------------------------

project::Project ProjectController::snapshot() const {
    project::Project p;
    if (window_->model()) {
        p.model = fsPath(QFileInfo(window_->modelPath()).absoluteFilePath());
        for (const auto& [name, dims] : window_->loader()->loadedInputShapes())
            p.input_shapes.push_back(shapeText(name, dims).toStdString());
    }
    const auto* document = window_->document();
    if (const auto& cluster = document->cluster()) {
        project::ClusterRef ref;
        if (!cluster->file.empty() && QFileInfo::exists(QString::fromStdString(cluster->file)))
            ref.path = std::filesystem::absolute(cluster->file).lexically_normal();
        ref.inline_ = device::cluster_to_json(*cluster);
        p.cluster = std::move(ref);
    }
    p.rules = document->ruleSet().toStdString();
    p.device = document->device().toStdString();
    const auto* partition = document->mapping();
    if (partition->hasMapping()) {
        const auto& inputs = *partition->inputs();
        p.mapping = nlohmann::json::parse(autodice::mapping_file_json(
            *inputs.request.model, *inputs.request.kernels,
            partition::assignment_of(partition->mapping(), inputs.kernelCount()),
            *inputs.request.cluster));
    }
    p.dse = document->dse()->saveState();
    p.grouping = document->grouping()->saveState();
    return p;
}

// ---- modified --------------------------------------------------------------------------------

bool ProjectController::isModified() const {
    if (restoring_)
        return false;
    return recovered_ || window_->document()->revision() != cleanRevision_ ||
           !window_->document()->mapping()->undoStack()->isClean();
}

void ProjectController::markClean() {
    cleanRevision_ = window_->document()->revision();
    recovered_ = false;
    window_->document()->mapping()->undoStack()->setClean();
    updateModified();
}

// Files opened in an untitled window that showed no edits are no edit; edits made before them
// still count. (The title still shows the state from before the file: it is updated once the
// event loop turns.)
void ProjectController::resetBaselineIfUntitled() {
    if (path_.isEmpty() && !recovered_ && !modified_)
        markClean();
    scheduleUpdate();
}

void ProjectController::scheduleUpdate() {
    updateTimer_->start();
}

void ProjectController::updateModified() {
    const bool modified = isModified();
    if (modified != modified_) {
        modified_ = modified;
        emit modifiedChanged(modified);
    }
    updateTitle();
}

void ProjectController::updateTitle() {
    const QString model = window_->model() ? QFileInfo(window_->modelPath()).fileName() : QString();
    QString title = tr("Cleave");
    if (!path_.isEmpty())
        title += " — " + QFileInfo(path_).fileName() + (model.isEmpty() ? "" : " (" + model + ")");
    else if (!model.isEmpty())
        title += " — " + model;
    if (modified_)
        title += " *";
    window_->setWindowTitle(title);
}

// ---- open and restore ------------------------------------------------------------------------

bool ProjectController::openProject(const QString& path) {
    project::Project p;
    try {
        p = project::load_project(fsPath(path));
    } catch (const std::exception& e) {
        const QString message = QString::fromStdString(e.what());
        warn(tr("Could not open project"),
             tr("Could not open %1.").arg(QFileInfo(path).fileName()) + "\n\n" + message);
        emit restoreFailed(path, message);
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    sessionAutosave_ = false;
    const QString side = absolute + kAutosaveSuffix;
    if (side != ownAutosave_ && QFileInfo::exists(side)) {
        if (isAutosaveHeld(side)) {
            sessionAutosave_ = true; // open in another window: this one autosaves elsewhere
        } else if (const auto r = recoverableAutosave(side)) {
            // Newer than the project: the work after its last save may be there.
            restore(std::move(p), absolute, absolute, false);
            showRecoveryBox(*r);
            return true;
        }
    }
    restore(std::move(p), absolute, absolute, false);
    return true;
}

void ProjectController::restore(project::Project p, const QString& file, const QString& path,
                                bool recovered) {
    if (path_ != path)
        releaseAutosave(false);
    path_ = path;
    restoring_ = std::make_unique<Restore>();
    auto& r = *restoring_;
    r.file = file;
    r.recovered = recovered;
    auto* document = window_->document();
    if (const QString error =
            document->setRuleSet(QString::fromStdString(p.rules.empty() ? "ort-cpu" : p.rules));
        !error.isEmpty())
        r.problems << tr("the fusion rules %1 could not be used: %2")
                          .arg(QString::fromStdString(p.rules), error);
    if (!p.device.empty())
        document->setDevice(QString::fromStdString(p.device));

    if (p.cluster) {
        try {
            r.cluster = project::load_cluster(p, fsPath(file));
            r.hasCluster = true;
        } catch (const std::exception& e) {
            r.problems << QString::fromStdString(e.what());
        }
    }
    std::map<std::string, graph::Shape> shapes;
    try {
        shapes = project::input_shape_map(p, fsPath(file));
    } catch (const std::exception& e) {
        r.problems << QString::fromStdString(e.what());
    }
    r.project = std::move(p);
    if (r.hasCluster) {
        auto cluster = std::make_shared<const device::Cluster>(r.cluster);
        r.shown = cluster.get();
        document->setCluster(std::move(cluster));
    }
    updateTitle();
    if (r.project.model.empty())
        return finishRestore({});
    // The model arrives in modelShown (or loadFailed); its kernels then its latencies follow.
    window_->openModel(qPath(r.project.model), std::move(shapes));
}

void ProjectController::continueRestore() {
    if (!restoring_ || !restoring_->modelShown)
        return;
    const auto* mapping = window_->document()->mapping();
    const auto& inputs = mapping->inputs();
    const bool current = inputs && inputs->request.model == window_->model() &&
                         inputs->request.kernels == window_->document()->kernels() &&
                         inputs->request.cluster.get() == restoring_->shown;
    if (current)
        return applyMapping();
    if (!mapping->isPreparing() && !inputs)
        finishRestore(mapping->failure());
}

void ProjectController::applyMapping() {
    auto& r = *restoring_;
    auto* document = window_->document()->mapping();
    const auto& inputs = *document->inputs();
    if (!r.project.mapping.empty()) {
        try {
            const std::string file = r.file.toStdString();
            auto pe_of_node = project::mapping_pe_of_node(
                r.project, fsPath(r.file), *inputs.request.model, *inputs.request.cluster);
            const auto cuts = autodice::kernel_cuts(pe_of_node, *inputs.request.model,
                                                    *inputs.request.kernels, *inputs.request.cluster);
            if (!cuts.empty() && window_->document()->fusionParts().empty()) {
                // The mapping cuts kernels: the model is fused per PE, and the mapping applied
                // once those kernels are predicted (continueRestore).
                window_->document()->setFusionParts(std::move(pe_of_node));
                return;
            }
            if (!cuts.empty())
                throw InputError(file, "/mapping",
                                 "the mapping still cuts kernels after they were fused per PE: " +
                                     cuts.front());
            const auto segments = autodice::mapping_segments(
                autodice::kernel_assignment(pe_of_node, *inputs.request.kernels),
                *inputs.request.cluster, inputs.pe_errors, file, "/mapping");
            document->replaceMapping(segments.mapping, tr("Open project"));
        } catch (const std::exception& e) {
            r.problems << QString::fromStdString(e.what());
        }
    }
    finishRestore({});
}

void ProjectController::finishRestore(const QString& problem) {
    if (!problem.isEmpty())
        restoring_->problems << problem;
    // The DSE tab's search and the grouping come back now that the mapping is on show.
    auto* document = window_->document();
    const auto& project = restoring_->project;
    if (!project.dse.empty())
        if (const QString error = document->dse()->restoreState(project.dse); !error.isEmpty())
            restoring_->problems << tr("DSE: %1").arg(error);
    if (!project.grouping.empty())
        if (const QString error = document->grouping()->restoreState(project.grouping);
            !error.isEmpty())
            restoring_->problems << tr("Grouping: %1").arg(error);
    auto r = std::move(restoring_);
    window_->document()->mapping()->undoStack()->clear();
    markClean();
    recovered_ = r->recovered;
    if (r->recovered)
        lastAutosaveText_.clear();
    updateModified();
    const QString name = QFileInfo(path_.isEmpty() ? r->file : path_).fileName();
    if (!r->problems.isEmpty()) {
        warn(tr("Project opened with problems"),
             tr("%1 was opened, but not all of it could be restored:").arg(name) + "\n\n" +
                 r->problems.join("\n\n"));
        emit restoreFailed(r->file, r->problems.join("\n"));
    }
    window_->statusBar()->showMessage(
        r->recovered ? tr("Recovered %1 from its autosave").arg(name) : tr("Opened %1").arg(name),
        8000);
    if (!path_.isEmpty())
        emit projectFileUsed(path_);
    emit projectOpened(path_);
}

// ---- save ------------------------------------------------------------------------------------

bool ProjectController::save() {
    if (path_.isEmpty()) {
        saveAsDialog();
        return !path_.isEmpty() && !isModified();
    }
    return saveAs(path_);
}

void ProjectController::saveAsDialog() {
    QSettings settings;
    const QString suggested =
        path_.isEmpty() ? settings.value("lastProjectFolder").toString() + "/" +
                              (window_->model() ? QFileInfo(window_->modelPath()).completeBaseName()
                                                : tr("untitled")) +
                              ".cleave"
                        : path_;
    QString path = QFileDialog::getSaveFileName(window_, tr("Save Project"), suggested,
                                                tr("Cleave projects (*.cleave)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(".cleave", Qt::CaseInsensitive))
        path += ".cleave";
    settings.setValue("lastProjectFolder", QFileInfo(path).absolutePath());
    saveAs(path);
}

bool ProjectController::saveAs(const QString& path) {
    if (restoring_) {
        warn(tr("Could not save project"), tr("The project is still being opened."));
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    try {
        project::save_project(fsPath(absolute), snapshot());
    } catch (const std::exception& e) {
        warn(tr("Could not save project"), QString::fromStdString(e.what()));
        return false;
    }
    // The work is in the project now: its autosave has nothing more to offer.
    releaseAutosave(true);
    if (absolute != path_)
        sessionAutosave_ = false;
    path_ = absolute;
    markClean();
    window_->statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path_).fileName()), 8000);
    emit saved(path_);
    emit projectFileUsed(path_);
    return true;
}

void ProjectController::newProject() {
    auto* window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
}

bool ProjectController::maybeClose() {
    if (isModified()) {
        CloseDecision decision = CloseDecision::cancel;
        if (decider_) {
            decision = decider_();
        } else {
            QMessageBox box(QMessageBox::Question, tr("Save changes?"),
                            path_.isEmpty()
                                ? tr("This window's work was never saved as a project.")
                                : tr("%1 has unsaved changes.").arg(QFileInfo(path_).fileName()),
                            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                            window_);
            box.setObjectName("unsavedChangesBox");
            box.setInformativeText(tr("Save them in the project before closing?"));
            box.setDefaultButton(QMessageBox::Save);
            const int answer = box.exec();
            decision = answer == QMessageBox::Save      ? CloseDecision::save
                       : answer == QMessageBox::Discard ? CloseDecision::discard
                                                        : CloseDecision::cancel;
        }
        if (decision == CloseDecision::cancel)
            return false;
        if (decision == CloseDecision::save && !save())
            return false;
    }
    releaseAutosave(true);
    return true;
}

// ---- autosave --------------------------------------------------------------------------------

int ProjectController::autosaveIntervalMs() const {
    bool ok = false;
    const int ms = qEnvironmentVariableIntValue("CLEAVE_AUTOSAVE_MS", &ok);
    return ok && ms > 0 ? ms : kAutosaveMs;
}

QString ProjectController::autosavePath() const {
    if (!ownAutosave_.isEmpty())
        return ownAutosave_;
    if (!path_.isEmpty() && !sessionAutosave_)
        return path_ + kAutosaveSuffix;
    if (untitledAutosave_.isEmpty()) {
        untitledAutosave_ = untitledAutosavePath();
    }
    return untitledAutosave_;
}

bool ProjectController::autosaveNow() {
    if (restoring_ || !isModified())
        return false;
    project::Project p = snapshot();
    const QString path = autosavePath();
    p.autosave = project::AutosaveInfo{path_.isEmpty() ? std::filesystem::path() : fsPath(path_), {}};
    const QString text = QString::fromStdString(project::project_json(p, fsPath(path)));
    if (text == lastAutosaveText_)
        return false;
    p.autosave->written =
        QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    if (!writeAutosave(path, p))
        return false;
    lastAutosaveText_ = text;
    emit autosaved(path);
    return true;
}

bool ProjectController::writeAutosave(const QString& path, const project::Project& p) {
    if (ownAutosave_ != path) {
        releaseAutosave(false);
        QDir().mkpath(QFileInfo(path).absolutePath());
        lock_ = autosaveLock(path);
        if (!lock_->tryLock(0)) {
            lock_.reset();
            return false; // another window writes this side file
        }
        ownAutosave_ = path;
    }
    try {
        write_file_atomically(fsPath(path),
                              project::project_json(p, fsPath(path)));
    } catch (const std::exception& e) {
        // Autosave must never interrupt work: say so in the status bar and try again later.
        window_->statusBar()->showMessage(
            tr("Autosave failed: %1").arg(QString::fromStdString(e.what())), 8000);
        return false;
    }
    setAutosaveRegistered(path, true);
    return true;
}

void ProjectController::releaseAutosave(bool remove) {
    if (ownAutosave_.isEmpty())
        return;
    if (remove) {
        QFile::remove(ownAutosave_);
        setAutosaveRegistered(ownAutosave_, false);
    }
    if (lock_)
        lock_->unlock();
    lock_.reset();
    ownAutosave_.clear();
    lastAutosaveText_.clear();
}

// ---- recovery --------------------------------------------------------------------------------

QList<ProjectController::Recoverable> ProjectController::recoverableAutosaves() {
    return ui::recoverableAutosaves();
}

bool ProjectController::offerRecovery() {
    if (recoveryBox_)
        return true;
    const auto all = recoverableAutosaves();
    const auto next = std::find_if(all.begin(), all.end(), [this](const Recoverable& r) {
        return !postponed_.count(r.autosave) && r.autosave != ownAutosave_;
    });
    if (next == all.end())
        return false;
    showRecoveryBox(*next);
    return true;
}

void ProjectController::showRecoveryBox(const Recoverable& r) {
    if (recoveryBox_)
        return;
    const QString what = r.project.isEmpty()
                             ? tr("Work that was never saved as a project")
                             : tr("Changes to %1").arg(QDir::toNativeSeparators(r.project));
    auto* box = new QMessageBox(
        QMessageBox::Question, tr("Recover unsaved work?"),
        tr("%1 were autosaved at %2, but Cleave ended before they were saved.")
            .arg(what, QLocale().toString(r.written, QLocale::ShortFormat)),
        QMessageBox::NoButton, window_);
    box->setObjectName("recoveryBox");
    box->setTextFormat(Qt::PlainText);
    box->setInformativeText(tr("Recover opens them; Discard deletes the autosave; Later asks "
                               "again at the next start."));
    auto* recover = box->addButton(tr("&Recover"), QMessageBox::AcceptRole);
    recover->setObjectName("recoverButton");
    box->addButton(tr("&Discard"), QMessageBox::DestructiveRole)->setObjectName("discardButton");
    box->addButton(tr("&Later"), QMessageBox::RejectRole)->setObjectName("laterButton");
    box->setDefaultButton(recover);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this,
            [this, box, file = r.autosave](QAbstractButton* button) {
        const QString name = button->objectName();
        resolveRecovery(file, name == "recoverButton"   ? RecoveryDecision::recover
                              : name == "discardButton" ? RecoveryDecision::discard
                                                        : RecoveryDecision::later);
        box->close();
    });
    recoveryBox_ = box;
    box->open(); // window-modal, not blocking: the studio goes on loading behind it
}

void ProjectController::resolveRecovery(const QString& autosave, RecoveryDecision decision) {
    if (recoveryBox_)
        recoveryBox_->close(); // deletes it
    recoveryBox_.clear();
    if (decision == RecoveryDecision::later) {
        postponed_.insert(autosave);
        // Left for the next start: this window must not write over it meanwhile.
        if (QFileInfo(autosave) == QFileInfo(path_ + kAutosaveSuffix))
            sessionAutosave_ = true;
        return;
    }
    if (decision == RecoveryDecision::discard) {
        QFile::remove(autosave);
        QFile::remove(autosave + ".lock");
        setAutosaveRegistered(autosave, false);
        QTimer::singleShot(0, this, [this] { offerRecovery(); });
        return;
    }
    project::Project copy;
    try {
        copy = project::load_project(fsPath(autosave));
    } catch (const std::exception& e) {
        warn(tr("Could not recover"), QString::fromStdString(e.what()));
        return;
    }
    const QString project = copy.autosave ? qPath(copy.autosave->project) : QString();
    // A window that shows another project or model keeps it; the recovery gets a new one.
    ProjectController* target = this;
    if (!isEmptyWindow(window_) && project != path_) {
        auto* window = new MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        target = window->project();
    }
    auto lock = autosaveLock(autosave);
    if (!lock->tryLock(0)) {
        warn(tr("Could not recover"), tr("%1 is in use by another Cleave window.").arg(autosave));
        return;
    }
    target->restore(std::move(copy), autosave, project, true);
    // The recovering window takes the side file over: it holds the work until it is saved.
    target->releaseAutosave(false);
    target->lock_ = std::move(lock);
    target->ownAutosave_ = autosave;
    target->sessionAutosave_ = false;
}

QString ProjectController::exampleProjectPath() {
    const QDir program(QCoreApplication::applicationDirPath());
    for (const QString& candidate :
         {program.filePath("../examples/example.cleave"),
          program.filePath("../share/cleave/examples/example.cleave")}) {
        if (!QFileInfo::exists(candidate))
            continue;
        try {
            const auto p = project::load_project(fsPath(candidate));
            if (std::filesystem::exists(p.model))
                return QFileInfo(candidate).absoluteFilePath();
        } catch (const std::exception&) {
        }
    }
    return {};
}

void ProjectController::warn(const QString& title, const QString& text) {
    // Window-modal, so loads and predictions go on behind it.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, window_);
    box->setTextFormat(Qt::PlainText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace cleave::ui
