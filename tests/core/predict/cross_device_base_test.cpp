// The model a cross-device predictor adapts: the device descriptor appended to every row, the
// kinds a base can be, training on devices whose times are divided out by their speed (two
// devices, one twice as fast as the other, make one law, learned exactly), its file's round trip
// and errors, and where the installed one is found.
#include "../input_error_of.hpp"
#include "core/input_error.hpp"
#include "core/predict/baseline.hpp"
#include "core/predict/cross_device_base.hpp"
#include "core/predict/kernel_features.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace cleave;
using namespace cleave::predict;

namespace {

std::size_t column(const char* name) {
    const auto& names = kernel_feature_names();
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

// Predicts nothing; keeps the rows it was asked about.
class RecordingRegressor final : public Regressor {
public:
    void fit(const RegressionSamples&, unsigned) override {}
    double predict(const double*) const override { return 1; }
    void predict_rows(const double* features, std::size_t rows, std::size_t columns,
                      double* out) const override {
        seen.assign(features, features + rows * columns);
        width = columns;
        for (std::size_t i = 0; i < rows; ++i)
            out[i] = static_cast<double>(i);
    }
    std::string save() const override { return "{}"; }
    void load(const std::string&, std::size_t) override {}
    mutable std::vector<double> seen;
    mutable std::size_t width = 0;
};

// 20 convolutions and 20 Relus of various sizes, each taking `ratio` times the nominal roofline.
CrossDeviceDevice measured_device(const std::string& id, double ratio, int count = 20) {
    RunData run;
    run.name = id + " run";
    const auto nominal = NominalRoofline::of(kernel_feature_names());
    for (int i = 1; i <= 2 * count; ++i) {
        KernelSample s{i % 2 ? "Conv/kxk" : "Relu",
                       std::vector<double>(kernel_feature_names().size(), 0), 0};
        s.features[column("macs")] = i % 2 ? 1e5 * i * i : 0;
        s.features[column("bytes_in")] = 4e3 * i;
        s.features[column("bytes_out")] = 4e3 * i;
        s.us = ratio * nominal.us(s.features.data());
        run.samples.push_back(std::move(s));
    }
    return {id, DeviceFigures{4, 10, 20, 512}, ProfiledKernels::of(std::vector<RunData>{run})};
}

// Trained once: "slow" as the nominal roofline says, "fast" twice as fast.
const CrossDeviceBase& base() {
    static const CrossDeviceBase trained = [] {
        CrossDeviceTrainingOptions options;
        options.kind = "mlp";
        options.rules = "my-rules";
        options.descriptor_budgets = {5, 20};
        return train_cross_device_base({measured_device("slow", 1), measured_device("fast", 0.5)},
                                       options);
    }();
    return trained;
}

} // namespace

class CrossDeviceBaseTest : public QObject {
    Q_OBJECT

private slots:
    void theDescriptorFollowsEveryRow() {
        const RecordingRegressor model;
        const std::vector<double> rows{1, 2, 3, 4, 5, 6};
        std::vector<double> out(2);
        predict_on_device(model, rows.data(), 2, 3, {7, 8}, out.data());
        QCOMPARE(model.width, std::size_t{5});
        QCOMPARE(model.seen, (std::vector<double>{1, 2, 3, 7, 8, 4, 5, 6, 7, 8}));
        QCOMPARE(out, (std::vector<double>{0, 1}));
    }

    void aBaseIsOneModelOverEveryKernel() {
        QVERIFY(is_cross_device_base_kind("gbdt"));
        QVERIFY(is_cross_device_base_kind("mlp"));
        QVERIFY(!is_cross_device_base_kind("lasso"));
        QVERIFY(!is_cross_device_base_kind("roofline"));
    }

    void whatItCannotTrainOnIsRefused() {
        CrossDeviceTrainingOptions options;
        options.kind = "mlp";
        QCOMPARE(cleave::test::input_error_of(
                     [&] { train_cross_device_base({measured_device("one", 1)}, options); }),
                 std::string(" | --data | a cross-device model needs the kernels of at least two "
                             "measured devices"));
        QCOMPARE(cleave::test::input_error_of([&] {
                     train_cross_device_base({measured_device("a", 1), measured_device("b", 1, 0)},
                                             options);
                 }),
                 std::string(" | --data | device b has no timed kernels"));
        options.kind = "lasso";
        QCOMPARE(cleave::test::input_error_of([&] {
                     train_cross_device_base({measured_device("a", 1), measured_device("b", 1)},
                                             options);
                 }),
                 std::string(" | --kind | a cross-device model is one regressor over every "
                             "kernel: gbdt or mlp, not 'lasso'"));
    }

    void theBaseRecordsItsDevicesAndColumns() {
        const auto& b = base();
        QCOMPARE(b.kind, std::string("mlp"));
        QCOMPARE(b.rules, std::string("my-rules"));
        auto features = kernel_feature_names();
        for (const char* indicator : {"type=Conv", "class=Conv/kxk", "type=Relu"})
            features.emplace_back(indicator);
        QCOMPARE(b.features, features);
        QCOMPARE(b.devices.size(), std::size_t{2});
        QCOMPARE(b.devices[0].id, std::string("slow"));
        QCOMPARE(b.devices[0].kernels, 40);
        QCOMPARE(b.devices[0].descriptor.size(), device_descriptor_names().size());
        QCOMPARE(b.devices[0].descriptor[0], 4.0); // threads, from the figures
        QCOMPARE(b.devices[0].descriptor[kDeviceSpeedColumn], 1.0);
        QCOMPARE(b.devices[1].descriptor[kDeviceSpeedColumn], 2.0);
    }

    void timesAtUnitSpeedAreLearned() {
        // Both devices' times times their speed are the nominal roofline: the base predicts it
        // for either descriptor, and a device's time is that over its speed.
        const auto& b = base();
        const auto fast = measured_device("fast", 0.5);
        Predictor layout;
        layout.features = b.features;
        for (const auto& k : fast.kernels.kernels) {
            const auto row = feature_row(layout, k.features, k.cost_class);
            double us = 0;
            predict_on_device(*b.model, row.data(), 1, row.size(), b.devices[1].descriptor, &us);
            us /= b.devices[1].descriptor[kDeviceSpeedColumn];
            QVERIFY2(std::abs(us - k.us.front()) < 1e-9 * k.us.front(),
                     (std::to_string(us) + " " + std::to_string(k.us.front())).c_str());
        }
    }

    void theFileRoundTrips() {
        QTemporaryDir dir;
        const auto path = dir.filePath("base.json.xz").toStdString();
        save_cross_device_base(base(), path);
        const auto loaded = load_cross_device_base(path);
        QCOMPARE(loaded.file, path);
        QCOMPARE(loaded.kind, std::string("mlp"));
        QCOMPARE(loaded.rules, std::string("my-rules"));
        QCOMPARE(loaded.features, base().features);
        QCOMPARE(loaded.devices.size(), std::size_t{2});
        QCOMPARE(loaded.devices[1].id, std::string("fast"));
        QCOMPARE(loaded.devices[1].kernels, 40);
        QCOMPARE(loaded.devices[1].descriptor, base().devices[1].descriptor);
        Predictor layout;
        layout.features = base().features;
        const auto slow = measured_device("slow", 1);
        const auto& k = slow.kernels.kernels[7];
        const auto row = feature_row(layout, k.features, k.cost_class);
        double a = 0, b = 0;
        predict_on_device(*base().model, row.data(), 1, row.size(), base().devices[0].descriptor,
                          &a);
        predict_on_device(*loaded.model, row.data(), 1, row.size(), loaded.devices[0].descriptor,
                          &b);
        QVERIFY(std::abs(a - b) <= 1e-9 * a);
    }

    void badFilesNameThePlace() {
        const auto doc = nlohmann::json::parse(cross_device_base_json(base()));
        QCOMPARE(doc["format"].get<std::string>(), std::string("cleave-cross-device-base"));
        QCOMPARE(doc["version"].get<int>(), 1);
        QTemporaryDir dir;
        const auto path = dir.filePath("bad.json").toStdString();
        const auto place_of = [&](const std::function<void(nlohmann::json&)>& change) {
            auto d = doc;
            change(d);
            std::ofstream(path) << d.dump();
            try {
                load_cross_device_base(path);
            } catch (const InputError& e) {
                return e.file() == path ? e.place() : "another file: " + e.file();
            }
            return std::string("no error");
        };
        QCOMPARE(place_of([](nlohmann::json& d) { d["version"] = 2; }), std::string("/version"));
        QCOMPARE(place_of([](nlohmann::json& d) { d["kind"] = "lasso"; }), std::string("/kind"));
        QCOMPARE(place_of([](nlohmann::json& d) { d["devices"].erase(1); }),
                 std::string("/devices"));
        QCOMPARE(place_of([](nlohmann::json& d) { d["devices"][1].erase("id"); }),
                 std::string("/devices/1")); // a missing member is named at its object
        QCOMPARE(place_of([](nlohmann::json& d) { d["features"][0] = "flops"; }),
                 std::string("/features/0"));
        QCOMPARE(place_of([](nlohmann::json& d) { d["model"]["target"] = "us"; }),
                 std::string("/model/target"));
        QCOMPARE(place_of([](nlohmann::json& d) { d.erase("model"); }), std::string("/"));
        QCOMPARE(
            cleave::test::input_error_of([] { load_cross_device_base("/nonexistent/base.json"); }),
            std::string("/nonexistent/base.json |  | cannot open; expected a cross-device "
                        "base model written by cleave train-cross-device"));
    }

    void theInstalledBaseIsFoundLikeAShippedPredictor() {
        QTemporaryDir own, user;
        ::setenv("XDG_DATA_HOME", user.path().toUtf8().constData(), 1);
        ::unsetenv("CLEAVE_PREDICTOR_DIR");
        const auto shipped = installed_cross_device_base();
        QVERIFY(shipped);
        QCOMPARE(shipped->filename().string(), std::string("cross-device-cpu.json.xz"));
        ::setenv("CLEAVE_PREDICTOR_DIR", own.path().toUtf8().constData(), 1);
        const auto mine = own.filePath("cross-device-cpu.json").toStdString();
        save_cross_device_base(base(), mine);
        QCOMPARE(installed_cross_device_base().value_or("").string(), mine);
        ::unsetenv("CLEAVE_PREDICTOR_DIR");
    }
};

QTEST_GUILESS_MAIN(CrossDeviceBaseTest)
#include "cross_device_base_test.moc"
