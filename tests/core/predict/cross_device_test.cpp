// Cross-device predictors on synthetic devices whose kernels follow known laws: the measured
// sample (five CNNs on the Xeon at 1 thread) with each kind of kernel (speed_group) taking a
// fixed factor of its time. A base trained on three such devices, adapted to a fourth from a
// few of its kernels; the predictor and base files' round trips and their errors.
#include "../measured_sample.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/input_error.hpp"
#include "core/predict/baseline.hpp"
#include "core/predict/cross_device.hpp"
#include "core/predict/kernel_features.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <array>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace cleave;
using namespace cleave::predict;

namespace {

using Factors = std::array<double, 4>; // per SpeedGroup

struct Device {
    std::string id;
    std::vector<RunData> runs;

    std::vector<const RunData*> pointers() const {
        std::vector<const RunData*> out;
        for (const auto& r : runs)
            out.push_back(&r);
        return out;
    }
};

const cleave::test::PreparedSample& sample() {
    return cleave::test::prepared_sample();
}

// The sample's runs with every kernel of group g taking factors[g] times as long; the overhead
// beyond the kernels is the sample's.
Device device_of(const std::string& id, const Factors& factors) {
    Device d{id, sample().runs};
    for (auto& run : d.runs) {
        double before = 0, after = 0;
        for (auto& s : run.samples) {
            before += s.us;
            s.us *= factors[static_cast<std::size_t>(speed_group(s.features))];
            after += s.us;
        }
        run.kernels_ms += (after - before) / 1000;
        run.e2e_ms += (after - before) / 1000;
    }
    return d;
}

CrossDeviceDevice training_device(const Device& d) {
    return {d.id, DeviceFigures{1, 0, 0, 0}, ProfiledKernels::of(d.runs)};
}

// Trained once: three devices, one as measured and two whose convolutions gain as threads would
// give them while their memory-bound kernels barely do.
// Never destroyed: its model comes from the XGBoost plugin, which is unloaded before statics are.
const CrossDeviceBase& base() {
    static const CrossDeviceBase* b = new CrossDeviceBase([] {
        CrossDeviceTrainingOptions options;
        options.min_class_samples = 5;
        return train_cross_device_base({training_device(device_of("a", {1, 1, 1, 1})),
                                        training_device(device_of("b", {0.5, 0.7, 0.6, 0.9})),
                                        training_device(device_of("c", {0.3, 0.5, 0.4, 0.8}))},
                                       options);
    }());
    return *b;
}

// Kernel MAPE over the kernels not chosen.
double kernel_mape(const Predictor& p, const Device& device, const std::vector<int>& chosen) {
    const auto profiled = ProfiledKernels::of(device.runs);
    std::vector<fusion::KernelGraph> graphs;
    for (const auto& r : device.runs)
        graphs.push_back(fusion::detect_kernels(*r.model, fusion::find_fusion_method("ort-cpu")));
    return score_on_runs(p, profiled, chosen, device.pointers(), graphs).kernels.mape;
}

Predictor adapted(const Device& device, int n, std::vector<int>& chosen, bool correct = true) {
    const auto profiled = ProfiledKernels::of(device.runs);
    chosen = profiled.choose_by_kmeans(n, 1);
    PredictorTrainingOptions options;
    options.device = device.id;
    return adapt_cross_device(std::make_shared<const CrossDeviceBase>(base()),
                              DeviceFigures{1, 0, 0, 0}, profiled.samples(chosen),
                              device.pointers(), options, correct);
}

// The base with no sample of the device: the first training device's descriptor.
double base_alone_mape(const Device& device) {
    const auto profiled = ProfiledKernels::of(device.runs);
    Predictor layout;
    layout.features = base().features;
    double sum = 0;
    int count = 0;
    const auto& descriptor = base().devices.front().descriptor;
    for (const auto& k : profiled.kernels) {
        const auto row = feature_row(layout, k.features, k.cost_class);
        double us = 0;
        predict_on_device(*base().model, row.data(), 1, row.size(), descriptor, &us);
        us /= descriptor[kDeviceSpeedColumn];
        for (const double measured : k.us) {
            sum += std::abs(us - measured) / measured;
            ++count;
        }
    }
    return sum / count;
}

std::string message_of(const std::function<void()>& f) {
    return cleave::test::input_error_of(f);
}

void write(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString()) << text;
}

} // namespace

class CrossDeviceTest : public QObject {
    Q_OBJECT

private slots:
    void baseRecordsEveryTrainingDevice() {
        QCOMPARE(base().devices.size(), std::size_t{3});
        QCOMPARE(base().kind, std::string("gbdt"));
        // Each device's speed from all of its kernels: b and c are faster than a.
        const double a = base().devices[0].descriptor[kDeviceSpeedColumn];
        const double b = base().devices[1].descriptor[kDeviceSpeedColumn];
        const double c = base().devices[2].descriptor[kDeviceSpeedColumn];
        QVERIFY2(a < b && b < c, (std::to_string(a) + " " + std::to_string(b)).c_str());
        QVERIFY(base().features.size() > kernel_feature_names().size());
    }

    void fewKernelsRecoverADeviceOfKnownFactors() {
        // Slower than every training device and of another shape: its memory-bound kernels take
        // 2.5 times the sample's, its convolutions 0.8.
        const auto device = device_of("new", {0.8, 1.5, 1.2, 2.5});
        const double alone = base_alone_mape(device);
        std::vector<int> chosen5, chosen20, chosen_descriptor;
        const double five = kernel_mape(adapted(device, 5, chosen5), device, chosen5);
        const double twenty = kernel_mape(adapted(device, 20, chosen20), device, chosen20);
        const double descriptor_only = kernel_mape(
            adapted(device, 20, chosen_descriptor, false), device, chosen_descriptor);
        const auto text = std::to_string(alone) + " " + std::to_string(five) + " " +
                          std::to_string(twenty) + " " + std::to_string(descriptor_only);
        QVERIFY2(alone > 0.3, text.c_str()); // the base as it is does not know this device
        QVERIFY2(five < 0.6 * alone, text.c_str());
        QVERIFY2(twenty < 0.3 * alone, text.c_str());
        QVERIFY2(twenty < descriptor_only, text.c_str());
    }

    void fiveKernelsGiveTheSpeedOfAUniformlySlowerDevice() {
        const auto device = device_of("slow", {3, 3, 3, 3});
        std::vector<int> chosen;
        const auto p = adapted(device, 5, chosen);
        const double mape = kernel_mape(p, device, chosen);
        const double alone = base_alone_mape(device);
        // The base as it is predicts the sample's times, a third of this device's: 2/3 off.
        QVERIFY2(alone > 0.6, std::to_string(alone).c_str());
        QVERIFY2(mape < 0.35, std::to_string(mape).c_str());
        const auto* model = dynamic_cast<const CrossDeviceRegressor*>(
            p.classes.at(kAllKernels).model.get());
        QVERIFY(model);
        // Its speed measured against the sample's: about a third.
        const double ratio = model->descriptor()[kDeviceSpeedColumn] /
                             base().devices[0].descriptor[kDeviceSpeedColumn];
        QVERIFY2(ratio > 0.2 && ratio < 0.5, std::to_string(ratio).c_str());
    }

    void predictorFileRoundTrips() {
        const auto device = device_of("new", {0.8, 1.5, 1.2, 2.5});
        std::vector<int> chosen;
        const auto p = adapted(device, 20, chosen);
        QCOMPARE(p.kind, std::string(kCrossDeviceKind));
        QTemporaryDir dir;
        const auto path = dir.filePath("new.json.xz").toStdString();
        save_predictor(p, path);
        const auto q = load_predictor(path);
        QCOMPARE(q.kind, std::string(kCrossDeviceKind));
        QCOMPARE(q.features, p.features);
        QCOMPARE(q.overhead_ms, p.overhead_ms);
        const auto& run = device.runs.front();
        const auto kernels =
            fusion::detect_kernels(*run.model, fusion::find_fusion_method("ort-cpu"));
        const auto a = predict_model(p, *run.model, kernels);
        const auto b = predict_model(q, *run.model, kernels);
        QVERIFY(a.total_ms > 0);
        for (std::size_t k = 0; k < a.kernels.size(); ++k)
            QVERIFY(std::abs(b.kernels[k].us - a.kernels[k].us) <= 1e-9 * a.kernels[k].us);
    }

    void badPredictorFilesNameThePlace() {
        const auto device = device_of("new", {0.8, 1.5, 1.2, 2.5});
        std::vector<int> chosen;
        const auto p = adapted(device, 20, chosen);
        const auto doc = nlohmann::json::parse(predictor_json(p));
        QVERIFY(!doc["classes"]["*"]["model"]["correction"]["columns"].empty());
        QTemporaryDir dir;
        const auto path = dir.filePath("bad.json");
        const auto load_with = [&](const std::function<void(nlohmann::json&)>& change) {
            auto d = doc;
            change(d);
            write(path, d.dump());
            return message_of([&] { load_predictor(path.toStdString()); });
        };
        const auto has = [](const std::string& message, const std::string& part) {
            return message.find(part) != std::string::npos;
        };
        auto m = load_with([](nlohmann::json& d) {
            d["classes"]["*"]["model"]["correction"]["columns"][0]["column"] = 9999;
        });
        QVERIFY2(has(m, "| /classes/*/model/correction/columns/0/column | expected a whole "
                        "number from 0 to "),
                 m.c_str());
        m = load_with([](nlohmann::json& d) { d["classes"]["*"]["model"]["descriptor"][4] = 0; });
        QVERIFY2(has(m, "| /classes/*/model/descriptor/4 | expected a positive"), m.c_str());
        m = load_with([](nlohmann::json& d) { d["classes"]["*"]["model"]["base_kind"] = "lasso"; });
        QVERIFY2(has(m, "| /classes/*/model/base_kind | expected gbdt or mlp"), m.c_str());
        m = load_with([](nlohmann::json& d) { d["classes"]["*"]["model"].erase("base"); });
        QVERIFY2(has(m, "| /classes/*/model | missing \"base\"; expected the base model"),
                 m.c_str());
        m = load_with([](nlohmann::json& d) { d["classes"]["*"]["model"]["base"]["features"] = 3; });
        QVERIFY2(has(m, "| /classes/*/model/base/features | expected"), m.c_str());
        m = load_with([](nlohmann::json& d) {
            d["classes"]["*"]["model"]["descriptor_names"][0] = "cores";
        });
        QVERIFY2(has(m, "| /classes/*/model/descriptor_names | expected the 9 device descriptor"),
                 m.c_str());
    }

    void baseFileRoundTripsAndRefusesOthers() {
        QTemporaryDir dir;
        const auto path = dir.filePath("base.json.xz").toStdString();
        save_cross_device_base(base(), path);
        const auto loaded = load_cross_device_base(path);
        QCOMPARE(loaded.features, base().features);
        QCOMPARE(loaded.devices.size(), base().devices.size());
        QCOMPARE(loaded.devices[1].id, std::string("b"));
        Predictor layout;
        layout.features = base().features;
        const auto& k = sample().runs.front().samples.front();
        const auto row = feature_row(layout, k.features, k.model_class);
        double a = 0, b = 0;
        predict_on_device(*base().model, row.data(), 1, row.size(),
                          base().devices[1].descriptor, &a);
        predict_on_device(*loaded.model, row.data(), 1, row.size(),
                          loaded.devices[1].descriptor, &b);
        QVERIFY(std::abs(a - b) <= 1e-9 * a);

        const auto doc = nlohmann::json::parse(cross_device_base_json(base()));
        const auto bad = dir.filePath("bad.json");
        const auto load_with = [&](const std::function<void(nlohmann::json&)>& change) {
            auto d = doc;
            change(d);
            write(bad, d.dump());
            return message_of([&] { load_cross_device_base(bad.toStdString()); });
        };
        auto m = load_with([](nlohmann::json& d) { d["format"] = "cleave-predictor"; });
        QVERIFY2(m.find("| /format | expected \"cleave-cross-device-base\"") != std::string::npos,
                 m.c_str());
        m = load_with([](nlohmann::json& d) { d["devices"][0]["descriptor"][2] = -1; });
        QVERIFY2(m.find("| /devices/0/descriptor/2 | expected a finite non-negative number") !=
                     std::string::npos,
                 m.c_str());
        m = load_with([](nlohmann::json& d) { d["descriptor"].erase(0); });
        QVERIFY2(m.find("| /descriptor | expected the 9 device descriptor columns") !=
                     std::string::npos,
                 m.c_str());
        m = load_with([](nlohmann::json& d) { d["kind"] = "cross-device"; });
        QVERIFY2(m.find("| /kind | expected gbdt or mlp") != std::string::npos, m.c_str());
        m = load_with([](nlohmann::json& d) { d["model"]["xgboost"] = 1; });
        QVERIFY2(m.find("| /model/xgboost | expected XGBoost's JSON model") != std::string::npos,
                 m.c_str());
    }

    void trainPredictorAdaptsTheBaseItIsGiven() {
        QTemporaryDir dir;
        const auto path = dir.filePath("base.json").toStdString();
        save_cross_device_base(base(), path);
        const auto device = device_of("new", {0.8, 1.5, 1.2, 2.5});
        PredictorTrainingOptions options;
        options.device = "xeon-ort-2t";
        options.kind = kCrossDeviceKind;
        options.cross_device_base = path;
        const auto p = train_predictor(device.pointers(), options);
        QCOMPARE(p.kind, std::string(kCrossDeviceKind));
        QCOMPARE(p.classes.at(kAllKernels).samples,
                 static_cast<int>(ProfiledKernels::of(device.runs).kernels.size()));
        QCOMPARE(p.trained_on.size(), device.runs.size());
        QVERIFY(p.overhead_ms + p.overhead_per_kernel_us > 0);
        // Every kernel of the device measured: a close fit of what it was adapted on.
        QVERIFY2(kernel_mape(p, device, {}) < 0.25, std::to_string(kernel_mape(p, device, {})).c_str());
        options.cross_device_base = dir.filePath("none.json").toStdString();
        QVERIFY(message_of([&] { train_predictor(device.pointers(), options); })
                    .find("none.json") != std::string::npos);
    }

    void aCrossDeviceModelIsNotFittedFromSamplesAlone() {
        auto regressor = make_regressor(kCrossDeviceKind, "--kind");
        RegressionSamples samples;
        samples.feature_names = kernel_feature_names();
        samples.rows = 1;
        samples.x.assign(samples.feature_names.size(), 1.0);
        samples.y = {10};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, regressor->fit(samples, 1));
    }
};

QTEST_GUILESS_MAIN(CrossDeviceTest)
#include "cross_device_test.moc"
