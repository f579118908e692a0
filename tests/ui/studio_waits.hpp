// What the studio's GUI tests wait for: a model shown, and the document's prediction.
#pragma once

#include "ui/document/studio_document.hpp"
#include "ui/shell/main_window.hpp"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

namespace cleave::test {

// Opens CLEAVE_EXAMPLE_MODELS_DIR/<name>.onnx and waits until the window shows it.
inline bool openModel(ui::MainWindow& window, const char* name) {
    QSignalSpy shown(&window, &ui::MainWindow::modelShown);
    window.openFile(QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/" + name + ".onnx");
    return shown.wait(30000);
}

// Waits until the document has a prediction and none is running.
inline bool waitForPrediction(ui::StudioDocument& document) {
    QElapsedTimer clock;
    clock.start();
    while ((document.isPredicting() || !document.latency()) && clock.elapsed() < 30000)
        QTest::qWait(10);
    return document.latency() != nullptr;
}

// Picks a device and waits for its prediction of the kernels on show.
inline bool predictOn(ui::StudioDocument& document, const QString& device) {
    document.setDevice(device);
    return waitForPrediction(document) &&
           document.latency()->request.device == device.toStdString();
}

} // namespace cleave::test
