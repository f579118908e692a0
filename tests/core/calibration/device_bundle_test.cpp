// Carrying a calibrated device between machines: a bundle exported from one user library imports
// into another unchanged, a lone device file imports as a datasheet device, and every bad input is
// refused with its file and JSON pointer before anything is written.
#include "core/calibration/device_bundle.hpp"
#include "core/device/device_library.hpp"
#include "core/device/user_library.hpp"
#include "core/input_error.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/predict/predictor.hpp"
#include "core/predict/predictor_training.hpp"
#include "core/xz_codec.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace cleave;

namespace {

device::DeviceSpec calibrated(const std::string& id) {
    device::DeviceSpec d = *device::library_device("xeon-ort-2t");
    d.id = id;
    d.name = "Board 7, ONNX Runtime, 2 threads";
    return d;
}

std::string predictor_text(const std::string& device) {
    predict::RunData run;
    run.name = "n";
    for (int i = 1; i <= 30; ++i) {
        std::vector<double> features(predict::kernel_feature_names().size(), 0);
        features[0] = 500.0 * i;
        run.samples.push_back({"Conv/kxk", features, 1.0 + i});
    }
    predict::PredictorTrainingOptions options;
    options.device = device;
    return predict::predictor_json(predict::train_predictor({&run}, options));
}

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// The error `import_device` throws for these files; fails the test when there is none.
InputError import_error(const std::string& file, const std::string& predictor = "") {
    try {
        calibration::import_device(file, predictor);
    } catch (const InputError& e) {
        return e;
    }
    throw std::runtime_error("imported " + file);
}

} // namespace

class DeviceBundleTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    void use_library(const QString& name) {
        qputenv("XDG_DATA_HOME", dir_.filePath(name).toUtf8());
    }

private slots:
    void init() {
        std::filesystem::remove_all(dir_.path().toStdString());
        std::filesystem::create_directories(dir_.path().toStdString());
        use_library("here");
    }

    void anExportedBundleImportsElsewhereUnchanged() {
        use_library("board");
        device::install_user_device(calibrated("board7-ort-2t"), predictor_text("board7-ort-2t"));
        const auto bundle = dir_.filePath("board7.cleave-device.json.xz").toStdString();
        calibration::export_device_bundle("board7-ort-2t", bundle);
        QVERIFY(is_xz(read(bundle)));

        use_library("workstation");
        QVERIFY(!device::library_device("board7-ort-2t"));
        const auto imported = calibration::import_device(bundle);
        QCOMPARE(imported.id, std::string("board7-ort-2t"));
        QCOMPARE(device::device_origin(imported), std::string("user"));
        const auto there = read(device::user_device_file("board7-ort-2t").string());
        use_library("board");
        QCOMPARE(there, read(device::user_device_file("board7-ort-2t").string()));
        use_library("workstation");
        const auto p =
            predict::load_predictor(device::user_predictor_file("board7-ort-2t").string());
        QCOMPARE(p.device, std::string("board7-ort-2t"));
        QCOMPARE(p.classes.size(), std::size_t{3}); // Conv/kxk, Conv and *
    }

    void aLoneDeviceFileImportsWithOrWithoutAPredictor() {
        const auto device_file = dir_.filePath("mine.json").toStdString();
        write(device_file, device::device_spec_json(calibrated("my-board")));
        calibration::import_device(device_file);
        QVERIFY(device::library_device("my-board"));
        QVERIFY(!std::filesystem::exists(device::user_predictor_file("my-board")));

        const auto predictor_file = dir_.filePath("p.json").toStdString();
        write(predictor_file, predictor_text("my-board"));
        calibration::import_device(device_file, predictor_file);
        QVERIFY(std::filesystem::exists(device::user_predictor_file("my-board")));
    }

    void exportingAnUnknownDeviceIsRefused() {
        try {
            calibration::export_device_bundle("nobody", dir_.filePath("x.json").toStdString());
            QFAIL("exported");
        } catch (const InputError& e) {
            QCOMPARE(e.place(), std::string("nobody"));
            QVERIFY(e.problem().find("is not in the user library") != std::string::npos);
        }
    }

    void badInputIsRefusedAndNothingIsWritten_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("place");
        QTest::addColumn<QString>("says");
        const auto device = QByteArray::fromStdString(device::device_spec_json(calibrated("b-1")));
        const auto predictor = QByteArray::fromStdString(predictor_text("b-1"));
        const auto other = QByteArray::fromStdString(predictor_text("someone-else"));
        QTest::newRow("not json") << QByteArray("{\"format\": ") << "byte 12"
                                  << "not valid JSON";
        QTest::newRow("another format")
            << QByteArray("{\"format\": \"cleave-project\"}") << "/format"
            << "cleave-device-bundle";
        QTest::newRow("bundle version")
            << QByteArray("{\"format\": \"cleave-device-bundle\", \"version\": 9}") << "/version"
            << "expected 1";
        auto toaster = nlohmann::json::parse(device.toStdString());
        toaster["kind"] = "toaster";
        QTest::newRow("device field")
            << ("{\"format\": \"cleave-device-bundle\", \"version\": 1, \"device\": " +
                QByteArray::fromStdString(toaster.dump()) + ", \"predictor\": " + predictor + "}")
            << "/device/kind"
            << "expected one of";
        QTest::newRow("predictor of another device")
            << ("{\"format\": \"cleave-device-bundle\", \"version\": 1, \"device\": " +
                QByteArray::fromStdString(device::device_spec_json(calibrated("b-1"))) +
                ", \"predictor\": " + other + "}")
            << "/predictor/device"
            << "not 'b-1'";
        QTest::newRow("predictor field")
            << ("{\"format\": \"cleave-device-bundle\", \"version\": 1, \"device\": " +
                QByteArray::fromStdString(device::device_spec_json(calibrated("b-1"))) +
                ", \"predictor\": {\"format\": \"cleave-predictor\", \"version\": 7}}")
            << "/predictor/version"
            << "expected 1";
        QTest::newRow("built-in id")
            << QByteArray::fromStdString(device::device_spec_json(calibrated("jetson-nano")))
            << "jetson-nano"
            << "is a built-in device";
    }

    void badInputIsRefusedAndNothingIsWritten() {
        QFETCH(QByteArray, text);
        QFETCH(QString, place);
        QFETCH(QString, says);
        const auto file = dir_.filePath("in.json").toStdString();
        write(file, text.toStdString());
        const auto e = import_error(file);
        QCOMPARE(e.file(), file);
        QCOMPARE(QString::fromStdString(e.place()), place);
        QVERIFY2(e.problem().find(says.toStdString()) != std::string::npos, e.what());
        QVERIFY(!std::filesystem::exists(device::user_data_folder()));
    }
};

QTEST_GUILESS_MAIN(DeviceBundleTest)
#include "device_bundle_test.moc"
