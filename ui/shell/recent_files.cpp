#include "ui/shell/recent_files.hpp"

#include <QFileInfo>
#include <QSettings>

namespace cleave::ui {

namespace {
constexpr auto kKey = "recentFiles";
}

RecentFiles::RecentFiles(QObject* parent) : QObject(parent) {}

QStringList RecentFiles::files() const {
    QStringList existing;
    for (const auto& f : QSettings().value(kKey).toStringList())
        if (QFileInfo::exists(f))
            existing << f;
    return existing;
}

void RecentFiles::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxFiles)
        list.removeLast();
    store(list);
}

void RecentFiles::remove(const QString& path) {
    QStringList list = files();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    store(list);
}

void RecentFiles::clear() {
    store({});
}

void RecentFiles::store(const QStringList& list) {
    QSettings().setValue(kKey, list);
    emit changed();
}

} // namespace cleave::ui
