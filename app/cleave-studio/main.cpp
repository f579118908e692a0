// cleave-studio: the desktop application. Everything but start-up lives in ui/.
#include "ui/dse_panel.hpp"
#include "ui/kernel_dock.hpp"
#include "ui/main_window.hpp"
#include "ui/partition_page.hpp"

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
    // One look on every desktop, so screenshots and docs match what users see.
    QApplication::setStyle(QStyleFactory::create("Fusion"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Cleave studio: inspect a network and split it across edge devices.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("models", "ONNX models to open, each in its own window",
                                 "[models...]");
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
    parser.process(app);

    QStringList models = parser.positionalArguments();
    if (models.isEmpty())
        models << QString(); // one empty window
    for (const QString& model : models) {
        auto* window = new cleave::ui::MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        if (parser.isSet(device))
            window->kernelDock()->setDevice(parser.value(device));
        if (parser.isSet(measurements))
            window->openMeasurements(parser.value(measurements));
        if (parser.isSet(cluster) && window->openCluster(parser.value(cluster)) &&
            parser.isSet(mapping))
            QObject::connect(
                window->partitionPage(), &cleave::ui::PartitionPage::prepared, window,
                [window, file = parser.value(mapping)] { window->openMapping(file); },
                Qt::SingleShotConnection);
        if (parser.isSet(cluster) && parser.isSet(dse))
            QObject::connect(
                window->partitionPage(), &cleave::ui::PartitionPage::prepared, window,
                [window] {
                    window->centralTabs()->setCurrentWidget(window->dsePanel());
                    window->dsePanel()->run();
                },
                Qt::SingleShotConnection);
        if (!model.isEmpty())
            window->openFile(model);
    }
    return QApplication::exec();
}
