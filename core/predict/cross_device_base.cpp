#include "cross_device_base.hpp"

#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/xz_codec.hpp"
#include "kernel_features.hpp"
#include "predictor_library.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace cleave::predict {

namespace {

constexpr const char* kFormat = "cleave-cross-device-base";
constexpr int kVersion = 1;
constexpr const char* kExpected = "a cross-device base model written by cleave train-cross-device";

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
    const JsonReader reader(path);
    reader.expect_object(doc, "", kExpected);
    if (reader.string(doc, "", "format", false) != kFormat)
        reader.fail("/format", std::string("expected \"") + kFormat + "\" (" + kExpected + ")");
    if (reader.whole_number(doc, "", "version", false, 0, std::numeric_limits<int>::max()) !=
        kVersion)
        reader.fail("/version", "expected " + std::to_string(kVersion));
    CrossDeviceBase base;
    base.file = path;
    base.kind = reader.string(doc, "", "kind", true, "gbdt or mlp");
    base.rules = reader.string(doc, "", "rules", true, "a fusion method");
    if (!is_cross_device_base_kind(base.kind))
        reader.fail("/kind", "expected gbdt or mlp, a regressor over every kernel");
    std::unique_ptr<Regressor> regressor;
    try {
        regressor = make_regressor(base.kind, "/kind");
    } catch (const InputError& e) {
        reader.fail("/kind", e.problem());
    }
    base.features = read_feature_columns(doc, path);
    const auto& names = device_descriptor_names();
    if (!doc.contains("descriptor") || doc["descriptor"] != nlohmann::json(names))
        reader.fail("/descriptor", "expected the " + std::to_string(names.size()) +
                                       " device descriptor columns this version computes, in order");
    const auto* devices =
        reader.array(doc, "", "devices", true, "the two or more devices it was trained on");
    if (devices->size() < 2)
        reader.fail("/devices", "expected the two or more devices it was trained on");
    for (std::size_t i = 0; i < devices->size(); ++i) {
        const auto& d = (*devices)[i];
        const std::string pointer = child_pointer("/devices", i);
        reader.expect_object(d, pointer, "a device: id, kernels, descriptor");
        base.devices.push_back(
            {reader.string(d, pointer, "id", true, "the device's id"),
             reader.whole_number(d, pointer, "kernels", true, 0, std::numeric_limits<int>::max())
                 .value(),
             read_device_descriptor(reader, d, pointer, "descriptor")});
    }
    load_regressor(*regressor, *reader.object(doc, "", "model", true, "the " + base.kind + " model"),
                   base.features.size() + names.size(), path, "/model");
    base.model = std::move(regressor);
    return base;
}

std::optional<std::filesystem::path> installed_cross_device_base() {
    return shipped_predictor(kCrossDeviceBaseName);
}

} // namespace cleave::predict
