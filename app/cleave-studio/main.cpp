// cleave-studio: the desktop application. Everything but start-up lives in ui/.
#include "ui/dse/dse_page.hpp"
#include "ui/cluster/grouping_page.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/shell/settings_migration.hpp"
#include "ui/shell/theme.hpp"
#include "ui/shell/translations.hpp"
#include "ui/shell/project_controller.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QStyleFactory>
#include <QTabWidget>
#include <cleave/version.hpp>

namespace {

// The command line: the files to open and what to do with each window.
struct StudioOptions {
    QCommandLineParser parser;
    QCommandLineOption device{
        "device", "Predict latency on this device (an id from cleave devices list, or a file).",
        "id"};
    QCommandLineOption measurements{
        "measurements", "Compare predictions with this measured dataset (.json or .json.xz).",
        "file"};
    QCommandLineOption cluster{
        "cluster",
        "Split the model across this cluster in the Partition tab (a .cluster.json or an AutoDiCE "
        "platform.txt).",
        "file"};
    QCommandLineOption mapping{
        "mapping",
        "With --cluster: show this AutoDiCE mapping.json once the kernels are predicted.", "file"};
    QCommandLineOption dse{
        "dse", "With --cluster: open the DSE tab and run a search with its default settings once "
               "the kernels are predicted."};
    QCommandLineOption tab{
        "tab",
        "Show this tab once the model is open: Graph, Nodes, Partition, DSE, Cluster or Grouping.",
        "name"};
    QCommandLineOption grouping{
        "grouping",
        "With --cluster: group its hosts in the Grouping tab with these settings (a JSON file: "
        "groups, features, vectors, workload, rate_per_s, batch, duration_s, seed).",
        "file"};

    StudioOptions() {
        parser.setApplicationDescription(
            "Cleave studio: inspect a network and split it across edge devices.");
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addPositionalArgument(
            "files",
            "ONNX models (.onnx, .onnx.xz, .onnx.gz) or Cleave projects (.cleave) to open, each "
            "in its own window",
            "[files...]");
        for (const auto* option :
             {&device, &measurements, &cluster, &mapping, &dse, &tab, &grouping})
            parser.addOption(*option);
    }
};

// A window for `model` (empty: none), set up as the command line asks.
void openWindow(const QString& model, const StudioOptions& o, bool first) {
    auto* window = new cleave::ui::MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
    if (first) // autosaves that a crash left behind
        window->project()->offerRecovery();
    if (o.parser.isSet(o.device)) { // where the window starts: no edit
        window->document()->setDevice(o.parser.value(o.device));
        window->project()->markClean();
    }
    if (o.parser.isSet(o.measurements))
        window->openMeasurements(o.parser.value(o.measurements));
    if (o.parser.isSet(o.cluster) && window->openCluster(o.parser.value(o.cluster)) &&
        o.parser.isSet(o.mapping))
        QObject::connect(
            window->document()->mapping(), &cleave::ui::PartitionDocument::prepared, window,
            [window, file = o.parser.value(o.mapping)] { window->openMapping(file); },
            Qt::SingleShotConnection);
    if (o.parser.isSet(o.cluster) && o.parser.isSet(o.dse))
        QObject::connect(
            window->document()->mapping(), &cleave::ui::PartitionDocument::prepared, window,
            [window] {
                window->centralTabs()->setCurrentWidget(window->dsePage());
                window->dsePage()->run();
            },
            Qt::SingleShotConnection);
    if (o.parser.isSet(o.cluster) && o.parser.isSet(o.grouping))
        if (const QString error =
                window->groupingPage()->runSettingsFile(o.parser.value(o.grouping));
            !error.isEmpty())
            qWarning("%s", qPrintable(error));
    if (o.parser.isSet(o.tab))
        QObject::connect(
            window, &cleave::ui::MainWindow::modelShown, window,
            [window, name = o.parser.value(o.tab)] {
                auto* tabs = window->centralTabs();
                for (int i = 0; i < tabs->count(); ++i)
                    if (tabs->tabText(i).remove('&').compare(name, Qt::CaseInsensitive) == 0)
                        tabs->setCurrentIndex(i);
            },
            Qt::SingleShotConnection);
    if (!model.isEmpty())
        window->openFile(model);
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Cleave");
    QApplication::setApplicationName("cleave-studio");
    QApplication::setApplicationVersion(cleave::kVersion);
    // Keys an older studio saved under another name, before anything reads them.
    cleave::ui::migrateSettings();
    cleave::ui::installTranslations(app);
    // One look on every desktop, so screenshots and docs match what users see.
    QApplication::setStyle(QStyleFactory::create("Fusion"));
    // The palette saved in View > Theme (light, dark, or the platform's); docs/studio.md.
    cleave::ui::initThemes();

    StudioOptions options;
    options.parser.process(app);
    QStringList models = options.parser.positionalArguments();
    if (models.isEmpty())
        models << QString(); // one empty window
    for (const QString& model : models)
        openWindow(model, options, &model == &models.front());
    return QApplication::exec();
}
