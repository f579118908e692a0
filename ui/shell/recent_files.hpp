// The files a user opened lately, newest first, kept in QSettings; files that have vanished
// drop out of the list.
#pragma once

#include <QObject>
#include <QStringList>

namespace cleave::ui {

class RecentFiles : public QObject {
    Q_OBJECT

public:
    static constexpr int kMaxFiles = 10;

    explicit RecentFiles(QObject* parent = nullptr);

    QStringList files() const; // absolute paths of files that still exist, newest first
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

signals:
    void changed();

private:
    void store(const QStringList& files);
};

} // namespace cleave::ui
