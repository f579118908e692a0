#include "ui/shell/about_box.hpp"

#include <QApplication>
#include <QMessageBox>
#include <cleave/library_versions.hpp>
#include <cleave/version.hpp>

namespace cleave::ui {

QString aboutText() {
    QString rows;
    for (const auto& library : kLibraryVersions) {
        QString version = QString::fromUtf8(library.version);
        if (QString(library.name) == "Qt" && version != qVersion())
            version =
                QApplication::translate("cleave::ui", "%1 (running %2)").arg(version, qVersion());
        if (version.isEmpty())
            version = QApplication::translate("cleave::ui", "not built");
        rows += QString("<tr><td>%1</td><td>&nbsp;&nbsp;%2</td><td>&nbsp;&nbsp;%3</td></tr>")
                    .arg(QString::fromUtf8(library.name).toHtmlEscaped(), version.toHtmlEscaped(),
                         QString::fromUtf8(library.use).toHtmlEscaped());
    }
    return QApplication::translate("cleave::ui",
                                   "<h3>Cleave %1</h3><p>Split one neural network across a cluster "
                                   "of edge devices.</p><p>Built with:</p><table>%2</table>")
        .arg(kVersion, rows);
}

void showAboutBox(QWidget* parent) {
    QMessageBox::about(parent, QApplication::translate("cleave::ui", "About Cleave"), aboutText());
}

} // namespace cleave::ui
