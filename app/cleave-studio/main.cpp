// cleave-studio: the desktop application. Everything but start-up lives in ui/.
#include "ui/main_window.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QStyleFactory>
#include <cleave/version.hpp>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Cleave");
    QApplication::setApplicationName("cleave-studio");
    QApplication::setApplicationDisplayName("Cleave");
    QApplication::setApplicationVersion(cleave::kVersion);
    QApplication::setStyle(QStyleFactory::create("Fusion"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Cleave studio: inspect a network and split it across edge devices.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("model", "ONNX model to open");
    parser.process(app);

    cleave::ui::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openFile(parser.positionalArguments().constFirst());
    return QApplication::exec();
}
