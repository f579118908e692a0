// A device no predictor and no roofline can cost, for the studio's "device without figures"
// paths: every library device has figures, so the tests write a Raspberry Pi 4 stripped of its
// peak rates into a folder they own.
#pragma once

#include "core/device/device_library.hpp"

#include <QString>
#include <QTemporaryDir>
#include <fstream>

namespace cleave::test {

inline constexpr const char* kDeviceWithoutFigures = "pi-without-figures";

// Writes <dir>/pi-without-figures.json and returns its path (a device reference the studio takes).
inline QString deviceWithoutFigures(const QTemporaryDir& dir) {
    auto pi = device::find_device("raspberry-pi-4");
    pi.id = kDeviceWithoutFigures;
    for (auto& pe : pi.processing_elements)
        pe.peak_gflops = {};
    const QString path = dir.filePath(QString(kDeviceWithoutFigures) + ".json");
    std::ofstream(path.toStdString()) << device::device_spec_json(pi);
    return path;
}

} // namespace cleave::test
