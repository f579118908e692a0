// A MainWindow's project file: the .cleave it was opened from or saved to (core/project), the
// File menu's New/Save/Save As, reading a project and handing it to the window's StudioDocument
// (StudioDocument::apply restores it; its problems are said here, once), whether anything changed
// since (the document's revision against the one saved: the window title's '*', the question on
// close), autosave to a side file every two minutes and recovery of side files left by a crash.
// It speaks to the document; the window is only the parent of its dialogs, and its title and
// status bar.
#pragma once

#include "core/project/project.hpp"
#include "ui/document/autosave_files.hpp"

#include <QDateTime>
#include <QList>
#include <QMessageBox>
#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <memory>
#include <set>

class QAction;
class QLockFile;
class QMenu;
class QTimer;

namespace cleave::ui {

class MainWindow;
class StudioDocument;

class ProjectController : public QObject {
    Q_OBJECT

public:
    enum class CloseDecision { save, discard, cancel };
    enum class RecoveryDecision { recover, discard, later };

    using Recoverable = RecoverableAutosave;

    ProjectController(MainWindow* window, StudioDocument* document);
    ~ProjectController() override;

    // File > New Project, Save Project (Ctrl+S), Save Project As… (Ctrl+Shift+S): New before
    // `open`, the saves before `before`.
    void addActions(QMenu* file, QAction* open, QAction* before);

    QString projectPath() const { return path_; } // empty: untitled
    bool isModified() const;
    // The window's state as it is now counts as unchanged (saved, opened, or where it starts).
    void markClean();
    bool isRestoring() const { return restoring_ != nullptr; }

    // Reads a .cleave and restores it; a bad file is reported (message box) and false returned.
    // When its side file is newer, recovery is offered first (the box "recoveryBox").
    bool openProject(const QString& path);
    // Saves to the project's file; an untitled project asks for a file.
    bool save();
    bool saveAs(const QString& path); // no dialog; false (and a message box) when it failed
    void saveAsDialog();
    // A new, empty window.
    void newProject();

    // For the window's closeEvent: asks Save/Discard/Cancel when there are unsaved changes
    // (through the decider when one is set, else the modal box "unsavedChangesBox"); true when
    // the window may close. A clean close removes the autosave.
    bool maybeClose();
    void setCloseDecider(std::function<CloseDecision()> decider) { decider_ = std::move(decider); }

    // Where this window autosaves: `<project>.cleave.autosave` beside a saved project, else a file
    // in the application's data folder (QStandardPaths::AppDataLocation/autosave).
    QString autosavePath() const;
    int autosaveIntervalMs() const; // CLEAVE_AUTOSAVE_MS, else two minutes
    // Writes the side file when something changed since the last save or autosave; true if written.
    bool autosaveNow();

    static QList<Recoverable> recoverableAutosaves();
    // At start-up: offers the first recoverable autosave in the non-blocking box "recoveryBox"
    // (Recover / Discard / Later); false when there is none.
    bool offerRecovery();
    // What the box's buttons do. Recover restores the autosave in this window when it is empty,
    // else in a new one; Discard deletes it; Later leaves it for the next start.
    void resolveRecovery(const QString& autosave, RecoveryDecision decision);
    QMessageBox* recoveryBox() const { return recoveryBox_; }


    // The bundled example (resnet101 over nx8): beside the program in the build tree
    // (<build>/examples/example.cleave) or installed (<prefix>/share/cleave/examples); empty when
    // it or its model is missing.
    static QString exampleProjectPath();

signals:
    void projectOpened(const QString& path); // restored completely (path empty: an untitled recovery)
    void restoreFailed(const QString& path, const QString& message);
    void saved(const QString& path);
    void projectFileUsed(const QString& path); // opened or saved: one for the recent files
    void autosaved(const QString& path);
    void modifiedChanged(bool modified);

private:
    struct Restore;

    bool isEmptyWindow() const;
    void restore(project::Project project, const QString& file, const QString& path,
                 bool recovered);
    void finishRestore(const QStringList& problems);
    void resetBaselineIfUntitled();
    void scheduleUpdate();
    void updateModified();
    void updateTitle();
    bool writeAutosave(const QString& path, const project::Project& project);
    void releaseAutosave(bool remove);
    void showRecoveryBox(const Recoverable& recoverable);
    void warn(const QString& title, const QString& text);

    MainWindow* window_; // for dialogs, the title and the status bar
    StudioDocument* document_;
    QString path_;
    QAction* saveAction_ = nullptr;
    QAction* saveAsAction_ = nullptr;
    QTimer* autosaveTimer_;
    QTimer* updateTimer_;
    std::unique_ptr<Restore> restoring_;
    quint64 cleanRevision_ = 0; // the document's revision when last saved or opened
    bool recovered_ = false; // restored from an autosave: modified until saved
    bool modified_ = false;
    QString ownAutosave_;                  // the side file this window wrote or took over
    std::unique_ptr<QLockFile> lock_;      // held while ownAutosave_ is ours
    QString lastAutosaveText_;             // without its time, to skip unchanged autosaves
    bool sessionAutosave_ = false;         // the project's side file is another's: use our own
    mutable QString untitledAutosave_; // chosen on first use
    std::function<CloseDecision()> decider_;
    QPointer<QMessageBox> recoveryBox_;
    std::set<QString> postponed_; // recoveries put off this session
};

} // namespace cleave::ui
