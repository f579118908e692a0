// What the window shows before a model is open: how to open one, and the recent files as
// links, so the first click after start-up is usually the file the user wants.
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;

namespace cleave::ui {

class StartPage : public QWidget {
    Q_OBJECT

public:
    explicit StartPage(QWidget* parent = nullptr);

    void setRecentFiles(const QStringList& files);
    // The bundled example project (resnet101 over nx8); the button hides when `path` is empty.
    void setExampleProject(const QString& path);
    QPushButton* exampleButton() const { return example_; }

signals:
    void openRequested(const QString& path);

private:
    QLabel* recent_;
    QPushButton* example_;
    QString examplePath_;
};

} // namespace cleave::ui
