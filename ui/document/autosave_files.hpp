// Autosave side files (docs/studio.md, "Autosave and recovery"): where an untitled window's go,
// the registry of side files written and not yet removed (QSettings "autosave/files"), the lock
// a running studio holds on the one it writes, and which side files a crash left to recover.
#pragma once

#include <QDateTime>
#include <QList>
#include <QLockFile>
#include <QString>
#include <filesystem>
#include <memory>
#include <optional>

namespace cleave::ui {

inline constexpr auto kAutosaveSuffix = ".autosave";

// An autosave side file no running studio holds, newer than the project it copies.
struct RecoverableAutosave {
    QString autosave;
    QString project; // empty: the work was never saved as a project
    QDateTime written;
};

// A Qt path as the file system names it (core reads and writes std::filesystem paths), and back.
std::filesystem::path fsPath(const QString& path);
QString qPath(const std::filesystem::path& path);

// A new side file for work never saved as a project, in the application's data folder.
QString untitledAutosavePath();

// Keeps `file` in the registry of side files (registered) or drops it.
void setAutosaveRegistered(const QString& file, bool registered);

// The lock on a side file (`<file>.lock`), stale only when the process holding it is gone.
std::unique_ptr<QLockFile> autosaveLock(const QString& autosave);

// Whether a running studio (this one included) holds the side file.
bool isAutosaveHeld(const QString& autosave);

// The side file, if it is worth offering: there, readable, held by no one, newer than its project.
std::optional<RecoverableAutosave> recoverableAutosave(const QString& autosave);

// Every side file worth offering, registered or in the untitled folder, newest first.
QList<RecoverableAutosave> recoverableAutosaves();

} // namespace cleave::ui
