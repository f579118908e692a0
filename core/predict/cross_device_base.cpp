#include "cross_device_base.hpp"

#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/xz_codec.hpp"
#include "kernel_features.hpp"
#include "predictor_library.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

namespace cleave::predict {

namespace {

constexpr const char* kFormat = "cleave-cross-device-base";
constexpr int kVersion = 1;
constexpr const char* kExpected = "a cross-device base model written by cleave train-cross-device";

std::vector<double> descriptor_values(const nlohmann::json& values, std::size_t count,
                                      const std::string& file, const std::string& pointer) {
    if (!values.is_array() || values.size() != count)
        throw InputError(file, pointer,
                         "expected " + std::to_string(count) + " descriptor values");
    std::vector<double> out;
    for (std::size_t j = 0; j < count; ++j) {
        const auto& v = values[j];
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
            throw InputError(file, pointer + "/" + std::to_string(j),
                             "expected a finite non-negative number");
        out.push_back(v.get<double>());
    }
    if (!(out[kDeviceSpeedColumn] > 0))
        throw InputError(file, pointer + "/" + std::to_string(kDeviceSpeedColumn),
                         "expected a positive speed");
    return out;
}

} // namespace

void predict_on_device(const Regressor& model, const double* rows, std::size_t count,
                       std::size_t columns, const std::vector<double>& descriptor, double* out) {
    const auto width = columns + descriptor.size();
    std::vector<double> augmented(count * width);
    for (std::size_t i = 0; i < count; ++i) {
        std::copy_n(rows + i * columns, columns, augmented.begin() + static_cast<std::ptrdiff_t>(i * width));
        std::copy(descriptor.begin(), descriptor.end(),
                  augmented.begin() + static_cast<std::ptrdiff_t>(i * width + columns));
    }
    model.predict_rows(augmented.data(), count, width, out);
}

bool is_cross_device_base_kind(const std::string& kind) {
    return kind == "gbdt" || kind == "mlp";
}

CrossDeviceBase train_cross_device_base(const std::vector<CrossDeviceDevice>& devices,
                                        const CrossDeviceTrainingOptions& options) {
    if (devices.size() < 2)
        throw InputError("", "--data",
                         "a cross-device model needs the kernels of at least two measured devices");
    if (!is_cross_device_base_kind(options.kind))
        throw InputError("", "--kind",
                         "a cross-device model is one regressor over every kernel: gbdt or mlp, "
                         "not '" + options.kind + "'");
    auto regressor = make_regressor(options.kind, "--kind");
    CrossDeviceBase base;
    base.kind = options.kind;
    base.rules = options.rules;

    std::vector<std::vector<KernelSample>> samples;
    std::vector<const KernelSample*> every;
    for (const auto& d : devices) {
        samples.push_back(d.kernels.samples());
        if (samples.back().empty())
            throw InputError("", "--data", "device " + d.id + " has no timed kernels");
    }
    for (const auto& device_samples : samples)
        for (const auto& s : device_samples)
            every.push_back(&s);
    base.features = kernel_feature_names();
    const auto columns = indicator_columns(every, options.min_class_samples);
    base.features.insert(base.features.end(), columns.begin(), columns.end());
    Predictor layout; // feature_row's view of the columns
    layout.features = base.features;

    RegressionSamples train;
    train.feature_names = base.features;
    const auto& descriptor_names = device_descriptor_names();
    train.feature_names.insert(train.feature_names.end(), descriptor_names.begin(),
                               descriptor_names.end());
    for (std::size_t d = 0; d < devices.size(); ++d) {
        const auto& device = devices[d];
        const auto all = device_descriptor(device.figures, samples[d]);
        std::vector<std::vector<double>> variants;
        for (const int budget : options.descriptor_budgets)
            if (static_cast<std::size_t>(budget) < samples[d].size())
                variants.push_back(device_descriptor(
                    device.figures,
                    device.kernels.samples(device.kernels.choose_by_kmeans(budget, options.seed))));
        variants.push_back(all);
        const double speed = all[kDeviceSpeedColumn];
        for (std::size_t i = 0; i < samples[d].size(); ++i) {
            const auto& s = samples[d][i];
            auto row = feature_row(layout, s.features, s.model_class);
            const auto& descriptor = variants[i % variants.size()];
            row.insert(row.end(), descriptor.begin(), descriptor.end());
            train.x.insert(train.x.end(), row.begin(), row.end());
            train.y.push_back(s.us * speed);
            ++train.rows;
        }
        base.devices.push_back({device.id, static_cast<int>(samples[d].size()), all});
    }
    regressor->fit(train, options.seed);
    base.model = std::move(regressor);
    return base;
}

std::string cross_device_base_json(const CrossDeviceBase& base) {
    nlohmann::ordered_json devices = nlohmann::ordered_json::array();
    for (const auto& d : base.devices)
        devices.push_back({{"id", d.id}, {"kernels", d.kernels}, {"descriptor", d.descriptor}});
    const nlohmann::ordered_json doc{{"format", kFormat},
                                     {"version", kVersion},
                                     {"kind", base.kind},
                                     {"rules", base.rules},
                                     {"features", base.features},
                                     {"descriptor", device_descriptor_names()},
                                     {"devices", devices},
                                     {"model", nlohmann::ordered_json::parse(base.model->save())}};
    return doc.dump(1) + "\n";
}

void save_cross_device_base(const CrossDeviceBase& base, const std::filesystem::path& path) {
    const auto text = cross_device_base_json(base);
    write_file_atomically(path, path.extension() == ".xz" ? xz_compress(text) : text);
}

CrossDeviceBase load_cross_device_base(const std::string& path) {
    const auto doc = read_json_file(path, kExpected);
    const auto fail = [&](const std::string& pointer, const std::string& problem) {
        throw InputError(path, pointer, problem);
    };
    if (!doc.is_object() || doc.value("format", "") != kFormat)
        fail("/format", std::string("expected \"") + kFormat + "\" (" + kExpected + ")");
    if (doc.value("version", 0) != kVersion)
        fail("/version", "expected " + std::to_string(kVersion));
    for (const char* key : {"kind", "rules"}) {
        const auto it = doc.find(key);
        if (it == doc.end() || !it->is_string() || it->get<std::string>().empty())
            fail(std::string("/") + key, "expected a non-empty string");
    }
    CrossDeviceBase base;
    base.file = path;
    base.kind = doc["kind"];
    base.rules = doc["rules"];
    if (!is_cross_device_base_kind(base.kind))
        fail("/kind", "expected gbdt or mlp, a regressor over every kernel");
    std::unique_ptr<Regressor> regressor;
    try {
        regressor = make_regressor(base.kind, "/kind");
    } catch (const InputError& e) {
        fail("/kind", e.problem());
    }
    base.features = read_feature_columns(doc, path);
    const auto& names = device_descriptor_names();
    if (!doc.contains("descriptor") || doc["descriptor"] != nlohmann::json(names))
        fail("/descriptor", "expected the " + std::to_string(names.size()) +
                                " device descriptor columns this version computes, in order");
    const auto devices = doc.find("devices");
    if (devices == doc.end() || !devices->is_array() || devices->size() < 2)
        fail("/devices", "expected the two or more devices it was trained on");
    for (std::size_t i = 0; i < devices->size(); ++i) {
        const auto& d = (*devices)[i];
        const std::string pointer = "/devices/" + std::to_string(i);
        if (!d.is_object() || !d.contains("id") || !d["id"].is_string())
            fail(pointer + "/id", "expected the device's id");
        if (!d.contains("kernels") || !d["kernels"].is_number_unsigned())
            fail(pointer + "/kernels", "expected a count");
        base.devices.push_back(
            {d["id"], d["kernels"].get<int>(),
             descriptor_values(d.value("descriptor", nlohmann::json()), names.size(), path,
                               pointer + "/descriptor")});
    }
    if (!doc.contains("model") || !doc["model"].is_object())
        fail("/model", "expected the " + base.kind + " model");
    load_regressor(*regressor, doc["model"], base.features.size() + names.size(), path, "/model");
    base.model = std::move(regressor);
    return base;
}

std::optional<std::filesystem::path> installed_cross_device_base() {
    return shipped_predictor(kCrossDeviceBaseName);
}

} // namespace cleave::predict
