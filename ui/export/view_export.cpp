#include "ui/export/view_export.hpp"

#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "ui/graph/graph_scene.hpp"
#include "ui/graph/graph_view.hpp"
#include "ui/latency/latency_legend.hpp"

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSvgGenerator>
#include <algorithm>
#include <cleave/version.hpp>
#include <cmath>
#include <functional>

namespace cleave::ui {

namespace {

const char* const kNameProperty = "cleaveExportName";
constexpr qreal kSceneMargin = 16; // around a graph's drawing, in points
constexpr int kOverlayMargin = 10;

std::string str(const QString& text) {
    return text.toStdString();
}

// The folder must exist and take files: checked before drawing, which may take a while.
void checkFolder(const QString& path) {
    const QFileInfo folder(QFileInfo(path).absolutePath());
    if (!folder.isDir())
        throw InputError(str(path), "", str("the folder " + folder.filePath() + " does not exist"));
    if (!folder.isWritable())
        throw InputError(str(path), "",
                         str("the folder " + folder.filePath() + " is not writable"));
}

using Paint = std::function<void(QPainter&)>;

// Draws `paint` (in points, over `logical`) into `path` in its format and writes it atomically.
ExportResult draw(const QString& path, const QSizeF& logical, const ExportOptions& options,
                  const QColor& background, int dpi, const Paint& paint) {
    ExportResult result;
    result.path = path;
    result.format = exportFormatOf(path);
    checkFolder(path);
    if (logical.width() < 1 || logical.height() < 1)
        throw InputError(str(path), "", "the view has nothing to draw (its size is empty)");
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (result.format == ExportFormat::png) {
        const double asked = std::max(options.scale, 0.05);
        double scale =
            std::min({asked, kMaxPngSide / logical.width(), kMaxPngSide / logical.height()});
        const double pixels = logical.width() * logical.height() * scale * scale;
        if (pixels > static_cast<double>(kMaxPngPixels))
            scale *= std::sqrt(static_cast<double>(kMaxPngPixels) / pixels);
        result.scale = scale;
        result.capped = scale < asked * (1 - 1e-9);
        result.size = QSize(std::max(1, static_cast<int>(std::ceil(logical.width() * scale))),
                            std::max(1, static_cast<int>(std::ceil(logical.height() * scale))));
        QImage image(result.size, QImage::Format_ARGB32_Premultiplied);
        if (image.isNull())
            throw InputError(str(path), "",
                             str(QString("no memory for a %1 x %2 image; export as SVG instead")
                                     .arg(result.size.width())
                                     .arg(result.size.height())));
        // Physical size as the view has on screen: a document shows it at its size there.
        const int dotsPerMeter = static_cast<int>(std::lround(dpi * scale / 0.0254));
        image.setDotsPerMeterX(dotsPerMeter);
        image.setDotsPerMeterY(dotsPerMeter);
        image.fill(background);
        QPainter painter(&image);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing |
                               QPainter::SmoothPixmapTransform);
        painter.scale(result.size.width() / logical.width(),
                      result.size.height() / logical.height());
        paint(painter);
        painter.end();
        image.save(&buffer, "PNG");
    } else {
        result.size = logical.toSize();
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(result.size);
        generator.setViewBox(QRectF(QPointF(0, 0), logical));
        // Text in points comes out as large as on screen.
        generator.setResolution(dpi);
        generator.setTitle(options.title.isEmpty() ? QFileInfo(path).completeBaseName()
                                                   : options.title);
        generator.setDescription(QString("Drawn by Cleave %1").arg(kVersion));
        QPainter painter(&generator);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        painter.fillRect(QRectF(QPointF(0, 0), logical), background);
        paint(painter);
        painter.end();
    }
    buffer.close();
    write_file_atomically(
        path.toStdString(),
        std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    return result;
}

int screenDpi(const QWidget* widget) {
    return widget ? widget->logicalDpiY() : 96;
}

// Shows the export entry on a right click of a view that has no context menu of its own.
class ExportMenuFilter : public QObject {
public:
    explicit ExportMenuFilter(QWidget* view) : QObject(view), view_(view) {}

protected:
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() != QEvent::ContextMenu)
            return false;
        QMenu menu(view_);
        addExportAction(&menu, view_);
        menu.exec(static_cast<QContextMenuEvent*>(event)->globalPos());
        return true;
    }

private:
    QWidget* view_;
};

} // namespace

ExportFormat exportFormatOf(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "png")
        return ExportFormat::png;
    if (suffix == "svg")
        return ExportFormat::svg;
    throw InputError(str(path), "",
                     suffix.isEmpty()
                         ? "the file name has no extension: give .png or .svg"
                         : str("unknown extension '." + suffix + "': give .png or .svg"));
}

QString formatName(ExportFormat format) {
    return format == ExportFormat::png ? "png" : "svg";
}

ExportResult exportScene(QGraphicsScene* scene, const QRectF& source, const QString& path,
                         const ExportOptions& options, QWidget* overlay) {
    const QColor background = scene->backgroundBrush().style() == Qt::SolidPattern
                                  ? scene->backgroundBrush().color()
                                  : scene->palette().color(QPalette::Base);
    // The overlay (a legend) goes below the drawing, where it hides nothing.
    QSizeF logical = source.size();
    if (overlay) {
        overlay->resize(overlay->sizeHint());
        logical.setHeight(logical.height() + overlay->height() + kOverlayMargin);
        logical.setWidth(std::max(logical.width(), overlay->width() + 2.0 * kOverlayMargin));
    }
    return draw(path, logical, options, background, screenDpi(overlay), [&](QPainter& painter) {
        const QRectF target(QPointF(0, 0), source.size());
        scene->render(&painter, target, source, Qt::KeepAspectRatio);
        if (overlay)
            overlay->render(&painter, QPoint(kOverlayMargin, static_cast<int>(source.height())),
                            QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    });
}

ExportResult exportView(QWidget* view, const QString& path, const ExportOptions& options) {
    exportFormatOf(path); // a bad name is reported before anything else
    if (auto* graph = qobject_cast<GraphView*>(view)) {
        // The whole graph, not only the part on screen, without the minimap.
        const QRectF bounds = graph->graphScene()->graphBounds();
        if (bounds.isEmpty())
            throw InputError(str(path), "", "the graph view shows no graph yet");
        QWidget* legend = graph->legend()->isHidden() ? nullptr : graph->legend();
        return exportScene(
            graph->graphScene(),
            bounds.adjusted(-kSceneMargin, -kSceneMargin, kSceneMargin, kSceneMargin), path,
            options, legend);
    }
    // Charts and custom-painted views: as on screen, at their size, children included.
    const QColor background = view->palette().color(view->backgroundRole());
    return draw(path, QSizeF(view->size()), options, background, screenDpi(view),
                [view](QPainter& painter) {
                    view->render(&painter, QPoint(), QRegion(),
                                 QWidget::DrawWindowBackground | QWidget::DrawChildren);
                });
}

void installExportMenu(QWidget* view, const QString& name, bool viewHasMenu) {
    view->setProperty(kNameProperty, name);
    if (viewHasMenu)
        return;
    auto* filter = new ExportMenuFilter(view);
    // A scroll area's right clicks land on its viewport.
    if (auto* area = qobject_cast<QAbstractScrollArea*>(view))
        area->viewport()->installEventFilter(filter);
    else
        view->installEventFilter(filter);
}

void addExportAction(QMenu* menu, QWidget* view) {
    if (!menu->isEmpty())
        menu->addSeparator();
    auto* action = menu->addAction(QApplication::translate("cleave::ui", "Export as PNG/SVG…"));
    action->setObjectName("exportViewAction");
    action->setStatusTip(
        QApplication::translate("cleave::ui", "Save this view as a PNG image or an SVG drawing"));
    QObject::connect(action, &QAction::triggered, view, [view] { exportViewDialog(view); });
}

QString exportName(const QWidget* view) {
    return view ? view->property(kNameProperty).toString() : QString();
}

QWidget* currentExportView(QWidget* window) {
    // The focused view, or the one holding the focus.
    for (QWidget* w = window->focusWidget(); w && w->window() == window; w = w->parentWidget())
        if (!exportName(w).isEmpty() && w->isVisible())
            return w;
    // Else the largest view on show: the one the window is mostly about.
    QWidget* best = nullptr;
    qint64 bestArea = 0;
    for (QWidget* w : window->findChildren<QWidget*>()) {
        if (exportName(w).isEmpty() || !w->isVisible())
            continue;
        const qint64 area = static_cast<qint64>(w->visibleRegion().boundingRect().width()) *
                            w->visibleRegion().boundingRect().height();
        if (area > bestArea) {
            bestArea = area;
            best = w;
        }
    }
    return best;
}

void addExportViewAction(QMenu* file, QWidget* window) {
    auto* action = file->addAction(QApplication::translate("cleave::ui", "Export &View…"));
    action->setObjectName("exportCurrentViewAction");
    action->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    action->setStatusTip(QApplication::translate(
        "cleave::ui",
        "Save the focused chart or view, else the largest one on show, as PNG or SVG"));
    QObject::connect(action, &QAction::triggered, window, [window] {
        if (QWidget* view = currentExportView(window)) {
            exportViewDialog(view);
            return;
        }
        if (auto* main = qobject_cast<QMainWindow*>(window))
            main->statusBar()->showMessage(
                QApplication::translate("cleave::ui", "No chart or view on show to export"), 5000);
    });
}

bool exportViewDialog(QWidget* view) {
    QSettings settings;
    QString folder = settings.value("export/lastFolder").toString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QDir::homePath();
    const QString name = exportName(view).isEmpty() ? QString("view") : exportName(view);
    const QString png = QApplication::translate("cleave::ui", "PNG images (*.png)");
    const QString svg = QApplication::translate("cleave::ui", "SVG drawings (*.svg)");
    QString filter = settings.value("export/lastFormat").toString() == "svg" ? svg : png;
    const QString suffix = filter == svg ? ".svg" : ".png";
    QString path = QFileDialog::getSaveFileName(
        view->window(), QApplication::translate("cleave::ui", "Export View"),
        QDir(folder).filePath(name + suffix), png + ";;" + svg, &filter);
    if (path.isEmpty())
        return false;
    // A name without an extension takes the chosen filter's.
    if (QFileInfo(path).suffix().isEmpty())
        path += filter == svg ? ".svg" : ".png";
    settings.setValue("export/lastFolder", QFileInfo(path).absolutePath());
    auto* main = qobject_cast<QMainWindow*>(view->window());
    try {
        const ExportResult result = exportView(view, path);
        settings.setValue("export/lastFormat", formatName(result.format));
        if (main) {
            QString message =
                result.format == ExportFormat::png
                    ? QApplication::translate("cleave::ui", "Exported %1 (%2 × %3 pixels)")
                          .arg(QFileInfo(path).fileName())
                          .arg(result.size.width())
                          .arg(result.size.height())
                    : QApplication::translate("cleave::ui", "Exported %1")
                          .arg(QFileInfo(path).fileName());
            if (result.capped)
                message += QApplication::translate(
                               "cleave::ui", ", drawn at %1x to stay within %2 pixels a side; "
                                             "SVG keeps every detail")
                               .arg(result.scale, 0, 'g', 2)
                               .arg(kMaxPngSide);
            main->statusBar()->showMessage(message, 10000);
        }
        return true;
    } catch (const std::exception& e) {
        auto* box = new QMessageBox(
            QMessageBox::Warning, QApplication::translate("cleave::ui", "Could not export"),
            QString::fromStdString(e.what()), QMessageBox::Ok, view->window());
        box->setTextFormat(Qt::PlainText);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return false;
    }
}

} // namespace cleave::ui
