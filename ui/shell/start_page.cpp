#include "ui/shell/start_page.hpp"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace cleave::ui {

StartPage::StartPage(QWidget* parent)
    : QWidget(parent), recent_(new QLabel(this)),
      example_(new QPushButton(tr("Open the example project"), this)) {
    auto* hint = new QLabel(tr("Open an ONNX model (Ctrl+O) or drop one here"), this);
    hint->setObjectName("hint");
    hint->setAlignment(Qt::AlignCenter);
    QFont font = hint->font();
    font.setPointSizeF(font.pointSizeF() * 1.4);
    hint->setFont(font);
    hint->setForegroundRole(QPalette::PlaceholderText);

    recent_->setObjectName("recentFiles");
    recent_->setAlignment(Qt::AlignCenter);
    recent_->setTextFormat(Qt::RichText);
    recent_->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(recent_, &QLabel::linkActivated, this,
            [this](const QString& link) { emit openRequested(QUrl(link).toLocalFile()); });

    example_->setObjectName("openExampleButton");
    example_->setToolTip(tr("ResNet-101 split over eight Jetson Xavier NX boards"));
    example_->hide();
    connect(example_, &QPushButton::clicked, this,
            [this] { emit openRequested(examplePath_); });

    auto* layout = new QVBoxLayout(this);
    layout->addStretch(2);
    layout->addWidget(hint);
    layout->addSpacing(hint->fontMetrics().height());
    layout->addWidget(example_, 0, Qt::AlignCenter);
    layout->addSpacing(hint->fontMetrics().height());
    layout->addWidget(recent_);
    layout->addStretch(3);
}

void StartPage::setExampleProject(const QString& path) {
    examplePath_ = path;
    example_->setVisible(!path.isEmpty());
    example_->setStatusTip(path);
}

void StartPage::setRecentFiles(const QStringList& files) {
    if (files.isEmpty()) {
        recent_->clear();
        return;
    }
    const QString muted = palette().color(QPalette::PlaceholderText).name(QColor::HexArgb);
    QString html = tr("<p align='center' style='color:%1'>Recent files</p>").arg(muted) +
                   "<table align='center' cellpadding='2'>";
    for (const QString& file : files) {
        const QFileInfo info(file);
        html += QString("<tr><td><a href='%1'>%2</a></td><td style='color:%3; "
                        "padding-left:12px'>%4</td></tr>")
                    .arg(QUrl::fromLocalFile(file).toString(QUrl::FullyEncoded),
                         info.fileName().toHtmlEscaped(), muted,
                         QDir::toNativeSeparators(info.path()).toHtmlEscaped());
    }
    recent_->setText(html + "</table>");
}

} // namespace cleave::ui
