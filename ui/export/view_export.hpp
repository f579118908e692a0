// Export of any chart or view of the studio as a PNG or SVG file: a graph view's whole drawing
// (not only the part on screen, with its latency legend), a chart, or a custom-painted widget as
// it stands. The studio's "Export as PNG/SVG…" entries and `cleave render` both go through here.
// Files are written atomically; a bad extension or an unwritable folder is an InputError.
#pragma once

#include <QRectF>
#include <QSize>
#include <QString>

class QGraphicsScene;
class QMenu;
class QWidget;

namespace cleave::ui {

enum class ExportFormat { png, svg };

// PNGs larger than this are drawn at a smaller scale (the graph of a deep model is tens of
// thousands of points tall): QPainter's raster engine works in 16-bit coordinates, and 32
// million pixels of ARGB are 128 MB. SVGs are vector drawings and have no limit.
inline constexpr int kMaxPngSide = 16384;
inline constexpr qint64 kMaxPngPixels = 32LL * 1024 * 1024;

struct ExportOptions {
    double scale = 2.0; // PNG pixels per point of the view: 2 is crisp in documents
    QString title;      // the SVG's <title>; empty: the file name
};

struct ExportResult {
    QString path;
    ExportFormat format = ExportFormat::png;
    QSize size;          // pixels (PNG) or the drawing's size in points (SVG)
    double scale = 1.0;  // the scale drawn at (PNG); below the asked one when capped
    bool capped = false; // the PNG was drawn smaller than asked, to stay within the limits
};

// The format the file name asks for (.png or .svg, any case); InputError naming the file else.
ExportFormat exportFormatOf(const QString& path);
QString formatName(ExportFormat format); // "png", "svg"

// Draws `view` into `path`: a GraphView's whole graph, any other QGraphicsView's scene as on
// screen (charts), any other widget with its children. Throws InputError on a bad extension or an
// unwritable folder.
ExportResult exportView(QWidget* view, const QString& path, const ExportOptions& options = {});
// Draws `source` of `scene`, and under it `overlay` (a legend), if any.
ExportResult exportScene(QGraphicsScene* scene, const QRectF& source, const QString& path,
                         const ExportOptions& options = {}, QWidget* overlay = nullptr);

// The studio's entries. Adds "Export as PNG/SVG…" to `view`'s context menu, a menu of its own;
// a view with a menu of its own (`viewHasMenu`) calls addExportAction from its contextMenuEvent.
// `name` suggests the file name.
void installExportMenu(QWidget* view, const QString& name, bool viewHasMenu = false);
void addExportAction(QMenu* menu, QWidget* view);
// The name given to installExportMenu; empty for a widget never installed.
QString exportName(const QWidget* view);
// What File > Export View exports: the view with the keyboard focus (or holding it), else the
// largest view on show in `window`; null when none is on show.
QWidget* currentExportView(QWidget* window);
// File > Export View… (Ctrl+Shift+E) for `window`, appended to `file`.
void addExportViewAction(QMenu* file, QWidget* window);
// Asks for a file (the last export folder remembered in QSettings "export/lastFolder"), writes it
// and reports in the window's status bar; errors in a message box. False when nothing was written.
bool exportViewDialog(QWidget* view);

} // namespace cleave::ui
