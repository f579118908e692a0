#include "ui/shell/project_controller.hpp"

#include "core/atomic_file.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/shell/main_window.hpp"

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

} // namespace

// A restore under way: the document applies the project; this is what the file was.
struct ProjectController::Restore {
    QString file; // the file read (the project, or its autosave), for messages
    bool recovered = false;
    QStringList notes; // what reading it worked around (a model found in its other form)
};

ProjectController::ProjectController(MainWindow* window, StudioDocument* document)
    : QObject(window), window_(window), document_(document), autosaveTimer_(new QTimer(this)),
      updateTimer_(new QTimer(this)) {
    updateTimer_->setSingleShot(true);
    updateTimer_->setInterval(0); // the changes of one event-loop turn, checked once
    connect(updateTimer_, &QTimer::timeout, this, &ProjectController::updateModified);
    autosaveTimer_->setInterval(autosaveIntervalMs());
    connect(autosaveTimer_, &QTimer::timeout, this, &ProjectController::autosaveNow);
    autosaveTimer_->start();

    // Edits: of the document, and of the mapping (its undo stack's clean state).
    connect(document_, &StudioDocument::changed, this, &ProjectController::scheduleUpdate);
    const auto* mapping = document_->mapping()->undoStack();
    connect(mapping, &QUndoStack::cleanChanged, this, &ProjectController::scheduleUpdate);
    connect(mapping, &QUndoStack::indexChanged, this, &ProjectController::scheduleUpdate);
    // Opening files in an untitled window starts its work; only what is done after is an edit.
    connect(document_, &StudioDocument::modelChanged, this, [this] {
        if (!restoring_)
            resetBaselineIfUntitled();
        updateTitle();
    });
    connect(document_, &StudioDocument::clusterOpened, this, [this] {
        if (!restoring_)
            resetBaselineIfUntitled();
        scheduleUpdate();
    });
    connect(document_, &StudioDocument::applied, this, [this](const QStringList& problems) {
        if (restoring_)
            finishRestore(problems);
    });
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

// ---- modified --------------------------------------------------------------------------------

bool ProjectController::isModified() const {
    if (restoring_)
        return false;
    return recovered_ || document_->revision() != cleanRevision_ ||
           !document_->mapping()->undoStack()->isClean();
}

void ProjectController::markClean() {
    cleanRevision_ = document_->revision();
    recovered_ = false;
    document_->mapping()->undoStack()->setClean();
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
    const QString model =
        document_->model() ? QFileInfo(document_->modelPath()).fileName() : QString();
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
    QStringList notes;
    for (const auto& note : p.notes)
        notes << QString::fromStdString(note);
    restoring_ = std::make_unique<Restore>(Restore{file, recovered, notes});
    updateTitle();
    document_->apply(std::move(p), file); // applied() ends it
}

void ProjectController::finishRestore(const QStringList& problems) {
    auto r = std::move(restoring_);
    markClean();
    recovered_ = r->recovered;
    if (r->recovered)
        lastAutosaveText_.clear();
    updateModified();
    const QString name = QFileInfo(path_.isEmpty() ? r->file : path_).fileName();
    if (!problems.isEmpty()) {
        warn(tr("Project opened with problems"),
             tr("%1 was opened, but not all of it could be restored:").arg(name) + "\n\n" +
                 problems.join("\n\n"));
        emit restoreFailed(r->file, problems.join("\n"));
    }
    // Notes are no problem: said in the status bar, not in a box.
    QString opened =
        r->recovered ? tr("Recovered %1 from its autosave").arg(name) : tr("Opened %1").arg(name);
    if (!r->notes.isEmpty())
        opened += " (" + r->notes.join("; ") + ")";
    window_->statusBar()->showMessage(opened, r->notes.isEmpty() ? 8000 : 20000);
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
        path_.isEmpty()
            ? settings.value("lastProjectFolder").toString() + "/" +
                  (document_->model() ? QFileInfo(document_->modelPath()).completeBaseName()
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
        project::save_project(fsPath(absolute), document_->snapshot());
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
            QMessageBox box(
                QMessageBox::Question, tr("Save changes?"),
                path_.isEmpty() ? tr("This window's work was never saved as a project.")
                                : tr("%1 has unsaved changes.").arg(QFileInfo(path_).fileName()),
                QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window_);
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
    project::Project p = document_->snapshot();
    const QString path = autosavePath();
    p.autosave =
        project::AutosaveInfo{path_.isEmpty() ? std::filesystem::path() : fsPath(path_), {}};
    const QString text = QString::fromStdString(project::project_json(p, fsPath(path)));
    if (text == lastAutosaveText_)
        return false;
    p.autosave->written = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
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
        write_file_atomically(fsPath(path), project::project_json(p, fsPath(path)));
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
    auto* box =
        new QMessageBox(QMessageBox::Question, tr("Recover unsaved work?"),
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
    if (!isEmptyWindow() && project != path_) {
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

bool ProjectController::isEmptyWindow() const {
    return !document_->model() && !document_->isLoading() && !restoring_ && path_.isEmpty();
}

QString ProjectController::exampleProjectPath() {
    const QDir program(QCoreApplication::applicationDirPath());
    for (const QString& candidate : {program.filePath("../examples/example.cleave"),
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
