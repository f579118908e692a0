// What the studio's GUI tests wait for: a model shown, and the kernel dock's prediction.
#pragma once

#include "ui/latency/kernel_dock.hpp"
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

// Waits until the dock has a prediction and none is running.
inline bool waitForPrediction(ui::KernelDock& dock) {
    QElapsedTimer clock;
    clock.start();
    while ((dock.isPredicting() || !dock.latency()) && clock.elapsed() < 30000)
        QTest::qWait(10);
    return dock.latency() != nullptr;
}

// Picks a device and waits for its prediction of the kernels on show.
inline bool predictOn(ui::KernelDock& dock, const QString& device) {
    dock.setDevice(device);
    return waitForPrediction(dock) && dock.latency()->request.device == device.toStdString();
}

} // namespace cleave::test
