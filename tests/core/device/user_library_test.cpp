// The user library: devices calibrated here or imported, kept under $XDG_DATA_HOME/cleave, are
// found by id like built-in ones, listed after them, marked as the user's, and get their own
// predictor; ids that would shadow the library are refused.
#include "core/device/device_library.hpp"
#include "core/device/user_library.hpp"
#include "core/input_error.hpp"
#include "core/predict/kernel_features.hpp"
#include "core/predict/predictor_library.hpp"
#include "core/predict/predictor_training.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <fstream>

using namespace cleave;

namespace {

device::DeviceSpec calibrated(const std::string& id) {
    device::DeviceSpec d = *device::library_device("xeon-ort-1t");
    d.id = id;
    d.name = "A laptop, ONNX Runtime, 1 thread";
    d.file.clear();
    return d;
}

std::string predictor_text(const std::string& device) {
    std::vector<predict::RunData> runs(2);
    for (auto& r : runs) {
        r.name = "n";
        r.kernel_count = 1;
        r.kernels_ms = 1;
        r.e2e_ms = 1.1;
        for (int i = 1; i <= 20; ++i) {
            std::vector<double> features(predict::kernel_feature_names().size(), 0);
            features[0] = 1000.0 * i; // macs
            r.samples.push_back({"Relu", features, 2.0 + i});
        }
    }
    predict::PredictorTrainingOptions options;
    options.device = device;
    return predict::predictor_json(predict::train_predictor({&runs[0], &runs[1]}, options));
}

} // namespace

class UserLibraryTest : public QObject {
    Q_OBJECT

    QTemporaryDir home_;

private slots:
    void init() {
        QVERIFY(home_.isValid());
        qputenv("XDG_DATA_HOME", home_.path().toUtf8());
        std::filesystem::remove_all(home_.path().toStdString() + "/cleave");
    }

    void theLibraryFollowsXdgDataHome() {
        QCOMPARE(device::user_data_folder().string(), home_.path().toStdString() + "/cleave");
        QCOMPARE(device::user_device_file("my-pc-ort-1t").string(),
                 home_.path().toStdString() + "/cleave/devices/my-pc-ort-1t.json");
        QCOMPARE(device::user_predictor_file("my-pc-ort-1t").string(),
                 home_.path().toStdString() + "/cleave/predictors/my-pc-ort-1t.json.xz");
        qputenv("XDG_DATA_HOME", "");
        qputenv("HOME", "/home/someone");
        QCOMPARE(device::user_data_folder().string(),
                 std::string("/home/someone/.local/share/cleave"));
    }

    void anEmptyLibraryHasNoDevices() {
        QVERIFY(device::user_devices().empty());
        QVERIFY(!device::user_device("my-pc-ort-1t"));
        QVERIFY(!device::library_device("my-pc-ort-1t"));
    }

    void anInstalledDeviceIsFoundListedAndMarked() {
        device::install_user_device(calibrated("my-pc-ort-1t"), predictor_text("my-pc-ort-1t"));
        const auto found = device::find_device("my-pc-ort-1t", "--device");
        QCOMPARE(found.name, std::string("A laptop, ONNX Runtime, 1 thread"));
        QCOMPARE(device::device_origin(found), std::string("user"));
        QCOMPARE(device::device_origin(*device::library_device("jetson-xavier-nx")),
                 std::string("built-in"));
        QCOMPARE(device::device_origin(*device::library_device("this-machine")),
                 std::string("detected"));

        const auto ids = device::library_device_ids();
        const auto at = std::find(ids.begin(), ids.end(), "my-pc-ort-1t");
        QVERIFY(at != ids.end());
        QCOMPARE(ids.back(), std::string("this-machine")); // user devices before this-machine
        QVERIFY(std::find(ids.begin(), at, "h100-cudnn-fp16") != at); // after the built-ins
        const auto devices = device::library_devices();
        QCOMPARE(devices.back().id, std::string("my-pc-ort-1t"));
    }

    void anInstalledDeviceGetsItsOwnPredictor() {
        device::install_user_device(calibrated("my-pc-ort-1t"), predictor_text("my-pc-ort-1t"));
        const auto file = predict::shipped_predictor("my-pc-ort-1t");
        QVERIFY(file);
        QCOMPARE(file->string(), device::user_predictor_file("my-pc-ort-1t").string());
        const auto predictor =
            predict::predictor_for(device::find_device("my-pc-ort-1t"), "", "ort-cpu");
        QCOMPARE(predictor.device, std::string("my-pc-ort-1t"));
        QCOMPARE(predictor.kind, std::string("lasso"));
    }

    void aDeviceWithoutPredictorIsCostedByItsFigures() {
        device::install_user_device(calibrated("my-pc-ort-1t"), predictor_text("my-pc-ort-1t"));
        device::install_user_device(calibrated("my-pc-ort-1t"), "");
        QVERIFY(!std::filesystem::exists(device::user_predictor_file("my-pc-ort-1t")));
        QVERIFY(!predict::shipped_predictor("my-pc-ort-1t"));
    }

    void removingADeviceRemovesItsPredictor() {
        device::install_user_device(calibrated("my-pc-ort-1t"), predictor_text("my-pc-ort-1t"));
        QVERIFY(device::remove_user_device("my-pc-ort-1t"));
        QVERIFY(!std::filesystem::exists(device::user_predictor_file("my-pc-ort-1t")));
        QVERIFY(!device::library_device("my-pc-ort-1t"));
        QVERIFY(!device::remove_user_device("my-pc-ort-1t"));
    }

    void idsThatWouldShadowTheLibraryAreRefused_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("says");
        QTest::newRow("built-in") << "jetson-xavier-nx"
                                  << "is a built-in device";
        QTest::newRow("this machine") << "this-machine"
                                      << "names the detected machine";
        QTest::newRow("upper case") << "My-PC"
                                    << "lower-case kebab case";
        QTest::newRow("path") << "../x"
                              << "lower-case kebab case";
        QTest::newRow("empty") << ""
                               << "lower-case kebab case";
    }

    void idsThatWouldShadowTheLibraryAreRefused() {
        QFETCH(QString, id);
        QFETCH(QString, says);
        try {
            device::check_user_device_id(id.toStdString(), "--device");
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), std::string("--device"));
            QCOMPARE(e.place(), id.toStdString());
            QVERIFY2(e.problem().find(says.toStdString()) != std::string::npos, e.what());
        }
    }

    void anIdPastTheLengthLimitSaysTheLimit() {
        const std::string id(300, 'b');
        try {
            device::check_user_device_id(id, "--device");
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString(e.what()), QString("--device: bbbbbbbbbbbbbbbb...: expected a device "
                                                "id of at most 64 characters, found 300"));
        }
    }

    void aDamagedLibraryFileIsNamed() {
        std::filesystem::create_directories(device::user_devices_folder());
        std::ofstream(device::user_device_file("broken")) << "{\"format\": \"cleave-device\"";
        try {
            device::user_devices();
            QFAIL("a broken file was listed");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), device::user_device_file("broken").string());
        }
    }

    void aFileNamedForAnotherIdIsRefused() {
        const auto d = calibrated("my-pc-ort-1t");
        std::filesystem::create_directories(device::user_devices_folder());
        std::ofstream(device::user_device_file("other-name")) << device::device_spec_json(d);
        try {
            device::user_devices();
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.place(), std::string("/id"));
        }
    }
};

QTEST_GUILESS_MAIN(UserLibraryTest)
#include "user_library_test.moc"
