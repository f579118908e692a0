// What the window shows before a model is open: how to open one, and the recent files as
// links, so the first click after start-up is usually the file the user wants.
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;

namespace cleave::ui {

class StartPage : public QWidget {
    Q_OBJECT

public:
    explicit StartPage(QWidget* parent = nullptr);

    void setRecentFiles(const QStringList& files);

signals:
    void openRequested(const QString& path);

private:
    QLabel* recent_;
};

} // namespace cleave::ui
