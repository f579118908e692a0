#include "ui/document/autosave_files.hpp"

#include "core/project/project.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QStringList>
#include <QUuid>
#include <algorithm>
#include <exception>

namespace cleave::ui {

namespace {

constexpr auto kRegistryKey = "autosave/files"; // side files written and not yet removed

QStringList registry() {
    return QSettings().value(kRegistryKey).toStringList();
}

QString untitledFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/autosave";
}

} // namespace

bool isAutosaveHeld(const QString& autosave) {
    auto lock = autosaveLock(autosave);
    if (!lock->tryLock(0))
        return true;
    lock->unlock();
    return false;
}

std::filesystem::path fsPath(const QString& path) {
    return std::filesystem::path(QFile::encodeName(path).toStdString());
}

QString qPath(const std::filesystem::path& path) {
    return QFile::decodeName(QByteArray::fromStdString(path.string()));
}

QString untitledAutosavePath() {
    return untitledFolder() + "/" + QUuid::createUuid().toString(QUuid::WithoutBraces) +
           ".cleave" + kAutosaveSuffix;
}

void setAutosaveRegistered(const QString& file, bool registered) {
    QStringList files = registry();
    files.removeAll(file);
    if (registered)
        files.prepend(file);
    QSettings().setValue(kRegistryKey, files);
}

std::unique_ptr<QLockFile> autosaveLock(const QString& autosave) {
    auto lock = std::make_unique<QLockFile>(autosave + ".lock");
    lock->setStaleLockTime(0); // stale only when the process holding it is gone
    return lock;
}

std::optional<RecoverableAutosave> recoverableAutosave(const QString& autosave) {
    const QFileInfo info(autosave);
    if (!info.exists() || isAutosaveHeld(autosave))
        return std::nullopt;
    project::Project copy;
    try {
        copy = project::load_project(fsPath(autosave));
    } catch (const std::exception&) {
        return std::nullopt;
    }
    const QString project = copy.autosave ? qPath(copy.autosave->project) : QString();
    if (!project.isEmpty() && QFileInfo::exists(project) &&
        QFileInfo(project).lastModified() > info.lastModified())
        return std::nullopt; // saved since
    return RecoverableAutosave{autosave, project, info.lastModified()};
}

QList<RecoverableAutosave> recoverableAutosaves() {
    QList<RecoverableAutosave> found;
    QStringList files = registry();
    // Untitled side files are found in their folder too, should the settings have been lost.
    const QDir folder(untitledFolder());
    for (const QString& name :
         folder.entryList({QString("*.cleave") + kAutosaveSuffix}, QDir::Files, QDir::Time))
        if (!files.contains(folder.filePath(name)))
            files << folder.filePath(name);
    for (const QString& file : files)
        if (auto r = recoverableAutosave(file))
            found << *r;
    std::sort(found.begin(), found.end(), [](const RecoverableAutosave& a,
                                             const RecoverableAutosave& b) {
        return a.written > b.written;
    });
    return found;
}

} // namespace cleave::ui
