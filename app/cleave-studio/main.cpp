// cleave-studio: the desktop application. Everything but start-up lives in ui/.
#include "ui/dse/dse_page.hpp"
#include "ui/cluster/grouping_page.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/partition/partition_document.hpp"
#include "ui/shell/theme.hpp"
#include "ui/shell/translations.hpp"
#include "ui/document/project_controller.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QStyleFactory>
#include <QTabWidget>
#include <cleave/version.hpp>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Cleave");
    QApplication::setApplicationName("cleave-studio");
    QApplication::setApplicationVersion(cleave::kVersion);
    cleave::ui::installTranslations(app);
    // One look on every desktop, so screenshots and docs match what users see.
    QApplication::setStyle(QStyleFactory::create("Fusion"));
    // The palette saved in View > Theme (light, dark, or the platform's); docs/studio.md.
    cleave::ui::initThemes();

    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Cleave studio: inspect a network and split it across edge devices.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        "files", "ONNX models or Cleave projects (.cleave) to open, each in its own window",
        "[files...]");
    const QCommandLineOption device(
        "device", "Predict latency on this device (an id from cleave devices list, or a file).",
        "id");
    const QCommandLineOption measurements(
        "measurements", "Compare predictions with this measured dataset (.json or .json.xz).",
        "file");
    parser.addOption(device);
    parser.addOption(measurements);
    const QCommandLineOption cluster(
        "cluster",
        "Split the model across this cluster in the Partition tab (a .cluster.json or an AutoDiCE "
        "platform.txt).",
        "file");
    parser.addOption(cluster);
    const QCommandLineOption mapping(
        "mapping",
        "With --cluster: show this AutoDiCE mapping.json once the kernels are predicted.", "file");
    parser.addOption(mapping);
    const QCommandLineOption dse(
        "dse", "With --cluster: open the DSE tab and run a search with its default settings once "
               "the kernels are predicted.");
    parser.addOption(dse);
    const QCommandLineOption tab(
        "tab", "Show this tab once the model is open: Graph, Nodes, Partition, DSE, Cluster or "
               "Grouping.",
        "name");
    parser.addOption(tab);
    const QCommandLineOption grouping(
        "grouping",
        "With --cluster: group its hosts in the Grouping tab with these settings (a JSON file: "
        "groups, features, vectors, workload, rate_per_s, batch, duration_s, seed).",
        "file");
    parser.addOption(grouping);
    parser.process(app);

    QStringList models = parser.positionalArguments();
    if (models.isEmpty())
        models << QString(); // one empty window
    for (const QString& model : models) {
        auto* window = new cleave::ui::MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        if (&model == &models.front()) // autosaves that a crash left behind
            window->project()->offerRecovery();
        if (parser.isSet(device)) { // where the window starts: no edit
            window->document()->setDevice(parser.value(device));
            window->project()->markClean();
        }
        if (parser.isSet(measurements))
            window->openMeasurements(parser.value(measurements));
        if (parser.isSet(cluster) && window->openCluster(parser.value(cluster)) &&
            parser.isSet(mapping))
            QObject::connect(
                window->document()->mapping(), &cleave::ui::PartitionDocument::prepared, window,
                [window, file = parser.value(mapping)] { window->openMapping(file); },
                Qt::SingleShotConnection);
        if (parser.isSet(cluster) && parser.isSet(dse))
            QObject::connect(
                window->document()->mapping(), &cleave::ui::PartitionDocument::prepared, window,
                [window] {
                    window->centralTabs()->setCurrentWidget(window->dsePage());
                    window->dsePage()->run();
                },
                Qt::SingleShotConnection);
        if (parser.isSet(cluster) && parser.isSet(grouping))
            if (const QString error =
                    window->groupingPage()->runSettingsFile(parser.value(grouping));
                !error.isEmpty())
                qWarning("%s", qPrintable(error));
        if (parser.isSet(tab))
            QObject::connect(
                window, &cleave::ui::MainWindow::modelShown, window,
                [window, name = parser.value(tab)] {
                    auto* tabs = window->centralTabs();
                    for (int i = 0; i < tabs->count(); ++i)
                        if (tabs->tabText(i).remove('&').compare(name, Qt::CaseInsensitive) == 0)
                            tabs->setCurrentIndex(i);
                },
                Qt::SingleShotConnection);
        if (!model.isEmpty())
            window->openFile(model);
    }
    return QApplication::exec();
}
