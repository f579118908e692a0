// Export of views, themes and Help > About, offscreen: a chart and resnet18's whole graph written
// as PNG (at twice their size) and SVG (with the text drawn in them), huge drawings capped, bad
// names and folders refused; the dark theme changes the palette, the charts and the graph
// background and is saved in QSettings; the window's Export View and Theme menus; About names the
// libraries.
#include "core/input_error.hpp"
#include "../studio_waits.hpp"
#include "ui/shell/about_box.hpp"
#include "ui/charts/chart_colours.hpp"
#include "ui/charts/hypervolume_chart.hpp"
#include "ui/charts/latency_breakdown_chart.hpp"
#include "ui/charts/pareto_front_chart.hpp"
#include "ui/dse/dse_page.hpp"
#include "ui/graph/graph_page.hpp"
#include "ui/graph/graph_scene.hpp"
#include "ui/graph/graph_view.hpp"
#include "ui/latency/latency_breakdown_dock.hpp"
#include "ui/latency/latency_legend.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/partition/partition_page.hpp"
#include "ui/partition/partition_view.hpp"
#include "ui/partition/pe_figures_view.hpp"
#include "ui/shell/theme.hpp"
#include "ui/export/view_export.hpp"

#include <QAction>
#include <QChart>
#include <QContextMenuEvent>
#include <QFile>
#include <QFileDialog>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QImage>
#include <QLineSeries>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QXmlStreamReader>
#include <QtTest>

using namespace cleave::ui;

namespace {

// The text of every <text> element; the root element's name first.
QStringList svgTexts(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QXmlStreamReader xml(&file);
    QStringList texts;
    QString current;
    bool inText = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            if (texts.isEmpty())
                texts << xml.name().toString();
            inText = xml.name() == QLatin1String("text");
            current.clear();
        } else if (xml.isCharacters() && inText) {
            current += xml.text();
        } else if (xml.isEndElement() && xml.name() == QLatin1String("text")) {
            inText = false;
            texts << current.trimmed();
        }
    }
    return xml.hasError() ? QStringList{} : texts;
}

int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

bool openResnet18(MainWindow& window) {
    QSignalSpy shown(&window, &MainWindow::modelShown);
    QSignalSpy laidOut(window.graphView(), &GraphView::layoutFinished);
    window.openFile(QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
    return shown.wait(30000) && (!laidOut.isEmpty() || laidOut.wait(30000));
}

QAction* findAction(QWidget* window, const QString& name) {
    return window->findChild<QAction*>(name);
}

} // namespace

class ViewExportTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
        QCoreApplication::setOrganizationName("CleaveTest");
        QSettings().clear();
        QVERIFY(dir_.isValid());
    }

    void chartExportsAsPngAtTwiceItsSizeAndAsSvgWithItsText() {
        HypervolumeChart chart;
        chart.setHistory({{0, 0.1}, {100, 0.5}, {200, 0.8}}, 400);
        chart.resize(500, 320);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));

        const QString png = dir_.filePath("chart.png");
        const ExportResult result = exportView(&chart, png);
        QCOMPARE(result.format, ExportFormat::png);
        QCOMPARE(result.size, QSize(1000, 640));
        QVERIFY(!result.capped);
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1000, 640));
        QVERIFY(distinctColours(image) > 5); // axes, labels and the line, not a blank page

        const QString svg = dir_.filePath("chart.svg");
        QCOMPARE(exportView(&chart, svg).format, ExportFormat::svg);
        const QStringList texts = svgTexts(svg);
        QVERIFY(!texts.isEmpty());
        QCOMPARE(texts.first(), QString("svg"));
        QVERIFY(texts.contains("hypervolume (normalised)"));
        QVERIFY(texts.contains("Hypervolume"));
    }

    void graphViewExportsItsWholeGraphNotTheVisiblePart() {
        MainWindow window;
        window.resize(1000, 700);
        window.show();
        QVERIFY(openResnet18(window));
        GraphView* view = window.graphView();
        view->setColourByLatency(false); // op colours, no legend: the drawing alone
        const QRectF bounds = view->graphScene()->graphBounds();
        QVERIFY(bounds.height() > 2 * view->viewport()->height());

        const QString png = dir_.filePath("graph.png");
        const ExportResult result = exportView(view, png);
        // The drawing plus 16 points each side, twice over.
        QCOMPARE(result.size.height(), static_cast<int>(std::ceil((bounds.height() + 32) * 2)));
        QCOMPARE(QImage(png).size(), result.size);

        // With latency colours the legend comes under the drawing, hiding none of it.
        view->setColourByLatency(true);
        QVERIFY(cleave::test::waitForPrediction(*window.document()));
        QTRY_VERIFY(view->showsLatency());
        const ExportResult withLegend = exportView(view, dir_.filePath("graph-latency.png"));
        QCOMPARE(withLegend.size.height(),
                 static_cast<int>(
                     std::ceil((bounds.height() + 32 + view->legend()->height() + 10) * 2)));

        const QString svg = dir_.filePath("graph.svg");
        exportView(view, svg);
        const QStringList texts = svgTexts(svg);
        QVERIFY(texts.count("Conv") >= 20);
        QVERIFY(texts.contains("Gemm"));
    }

    void partitionStripAndFiguresExportWithTheirPes() {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(openResnet18(window));
        QSignalSpy prepared(window.document()->mapping(), &cleave::ui::PartitionDocument::prepared);
        QVERIFY(window.openCluster(QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/nx8.cluster.json"));
        QVERIFY(prepared.wait(30000));
        const QString strip = dir_.filePath("strip.svg");
        const ExportResult result = exportView(window.partitionPage()->view(), strip);
        QCOMPARE(result.size, window.partitionPage()->view()->size());
        QVERIFY(svgTexts(strip).contains("nx01_gpu"));
        const QString figures = dir_.filePath("figures.svg");
        exportView(window.partitionPage()->figures(), figures);
        QVERIFY(svgTexts(figures).contains("Memory of capacity"));
        QCOMPARE(exportName(window.partitionPage()->figures()), QString("pe-figures"));
    }

    void hugePngIsCappedAndSaysSo() {
        QGraphicsScene scene;
        scene.addRect(0, 0, 40000, 60, QPen(Qt::black), QBrush(Qt::red));
        const ExportResult result =
            exportScene(&scene, QRectF(0, 0, 40000, 60), dir_.filePath("wide.png"));
        QVERIFY(result.capped);
        QVERIFY(result.size.width() <= kMaxPngSide);
        QVERIFY(result.scale < 0.5);
        QCOMPARE(QImage(dir_.filePath("wide.png")).size(), result.size);
    }

    void badNamesAndFoldersAreInputErrors() {
        HypervolumeChart chart;
        chart.resize(300, 200);
        try {
            exportView(&chart, dir_.filePath("chart.jpg"));
            QFAIL("a .jpg was accepted");
        } catch (const cleave::InputError& e) {
            QVERIFY2(QString(e.what()).contains("unknown extension '.jpg'"), e.what());
        }
        try {
            exportView(&chart, dir_.filePath("missing/chart.png"));
            QFAIL("a missing folder was accepted");
        } catch (const cleave::InputError& e) {
            QVERIFY2(QString(e.what()).contains("does not exist"), e.what());
        }
        QVERIFY(!QFile::exists(dir_.filePath("missing")));
    }

    void darkThemeChangesPaletteChartsAndGraphAndIsSaved() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QChart* chart = window.breakdownDock()->chart()->chart();

        applyTheme(Theme::dark);
        QCoreApplication::processEvents();
        QCOMPARE(currentTheme(), Theme::dark);
        QCOMPARE(QSettings().value("ui/shell/theme").toString(), QString("dark"));
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 80);
        QVERIFY(QApplication::palette().color(QPalette::Text).lightness() > 200);
        QCOMPARE(chart->backgroundBrush().color(), QApplication::palette().color(QPalette::Base));
        QCOMPARE(chart->titleBrush().color(), QApplication::palette().color(QPalette::Text));
        QCOMPARE(window.graphView()->backgroundBrush().color(),
                 QApplication::palette().color(QPalette::Base));

        // Dark series colours are lifted on the dark background, keeping their hue; the DSE tab's
        // hypervolume line follows the theme.
        const QColor deep(0x44, 0x01, 0x54); // the viridis ramp's low end
        const QColor lifted = readableOn(deep, QApplication::palette());
        QCOMPARE(lifted.lightness(), 130);
        QCOMPARE(lifted.hslHue(), deep.hslHue());
        QCOMPARE(readableOn(deep, themePalette(Theme::light)), deep);
        const QColor line = window.dsePage()->hypervolumeChart()->series()->pen().color();
        QVERIFY(line.lightness() >= 130);

        applyTheme(Theme::light);
        QCoreApplication::processEvents();
        QVERIFY(window.dsePage()->hypervolumeChart()->series()->pen().color().lightness() < 130);
        QCOMPARE(QSettings().value("ui/shell/theme").toString(), QString("light"));
        QVERIFY(QApplication::palette().color(QPalette::Base).lightness() > 200);
        QCOMPARE(chart->backgroundBrush().color(), QApplication::palette().color(QPalette::Base));

        applyTheme(Theme::system);
        QCOMPARE(QApplication::palette(), themePalette(Theme::system));
        QCOMPARE(themeFromKey("nonsense"), Theme::system);
    }

    void themeMenuChecksAndAppliesTheChoice() {
        MainWindow window;
        auto* dark = findAction(&window, "theme-dark");
        QVERIFY(dark);
        dark->trigger();
        QCOMPARE(currentTheme(), Theme::dark);
        emit window.findChild<QMenu*>("themeMenu")->aboutToShow();
        QVERIFY(dark->isChecked());
        QVERIFY(!findAction(&window, "theme-light")->isChecked());
        applyTheme(Theme::light);
    }

    void exportViewTakesTheFocusedViewElseTheLargest() {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(openResnet18(window));
        auto* action = findAction(&window, "exportCurrentViewAction");
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence("Ctrl+Shift+E"));
        // The graph tab: the graph is the largest view on show, the breakdown chart the focused.
        window.centralTabs()->setCurrentWidget(window.graphPage());
        window.nodeView()->setFocus(); // not a view that exports
        QCOMPARE(currentExportView(&window), window.graphView());
        QVERIFY(cleave::test::waitForPrediction(*window.document())); // the chart shows then
        QTRY_VERIFY(window.breakdownDock()->chart()->isVisible());
        window.breakdownDock()->chart()->setFocus();
        QCOMPARE(currentExportView(&window), window.breakdownDock()->chart());
        QCOMPARE(exportName(window.breakdownDock()->chart()), QString("latency-breakdown"));
        QCOMPARE(exportName(window.partitionPage()->view()), QString("partition"));
        QCOMPARE(exportName(window.dsePage()->frontChart()), QString("pareto-front"));
    }

    void rightClickOnAViewOffersTheExport() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (QWidget* target :
             {window.graphView()->viewport(),
              static_cast<QWidget*>(window.breakdownDock()->chart()->viewport())}) {
            QStringList entries;
            // The menu runs its own event loop: read it from there, then close it.
            QTimer::singleShot(0, this, [&entries] {
                if (auto* popup = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
                    for (auto* action : popup->actions())
                        entries << action->text();
                    popup->close();
                }
            });
            QContextMenuEvent event(QContextMenuEvent::Mouse, QPoint(20, 20),
                                    target->mapToGlobal(QPoint(20, 20)));
            QApplication::sendEvent(target, &event);
            QCOMPARE(entries, QStringList{"Export as PNG/SVG…"});
        }
    }

    void exportDialogWritesRemembersTheFolderAndReports() {
        MainWindow window;
        window.show();
        QVERIFY(openResnet18(window));
        const QString path = dir_.filePath("from-dialog.svg");
        QSettings().setValue("export/lastFolder", dir_.path()); // where the dialog starts
        // The dialog runs its own event loop: answer it from there.
        QTimer answer;
        connect(&answer, &QTimer::timeout, this, [&] {
            if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                answer.stop();
                dialog->selectFile(path);
                // The dialog may still be putting its first suggestion in the name field.
                if (auto* name = dialog->findChild<QLineEdit*>("fileNameEdit"))
                    name->setText(path);
                // done(), not accept(): accept() may ask about the folder while it is being read.
                static_cast<QDialog*>(dialog)->done(QDialog::Accepted);
            }
        });
        answer.start(20);
        QVERIFY(exportViewDialog(window.graphView()));
        QVERIFY2(QFile::exists(path), qPrintable(window.statusBar()->currentMessage()));
        QVERIFY2(svgTexts(path).contains("Conv"), qPrintable(svgTexts(path).join(",").left(300)));
        QCOMPARE(QSettings().value("export/lastFolder").toString(), QFileInfo(path).absolutePath());
        QCOMPARE(QSettings().value("export/lastFormat").toString(), QString("svg"));
        QVERIFY2(window.statusBar()->currentMessage().startsWith("Exported from-dialog.svg"),
                 qPrintable(window.statusBar()->currentMessage()));
    }

    void aboutNamesTheLibrariesAndTheirVersions() {
        const QString text = aboutText();
        for (const char* name : {"Qt", "libonnx", "protobuf", "Eigen", "nlohmann_json", "pagmo2",
                                 "Graphviz", "OpenCV", "XGBoost", "Open MPI"})
            QVERIFY2(text.contains(QString("<td>%1</td>").arg(name)), name);
        QVERIFY(text.contains(qVersion()));
        // Versions read from the headers: numbers, not "not built", for the libraries always used.
        for (const char* name : {"Eigen", "nlohmann_json", "pagmo2", "Graphviz"})
            QVERIFY2(text.contains(QRegularExpression(
                         QString("<td>%1</td><td>&nbsp;&nbsp;\\d+\\.\\d+").arg(name))),
                     name);
    }
};

QTEST_MAIN(ViewExportTest)
#include "view_export_test.moc"
