#include "cross_device.hpp"

#include "core/device/device_library.hpp"
#include "core/input_error.hpp"
#include "core/json_reader.hpp"
#include "kernel_features.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace cleave::predict {

namespace {

// Runs `read`, its errors placed under `prefix` (/base/weights/3).
void nested(const std::string& prefix, const std::function<void()>& read) {
    try {
        read();
    } catch (const InputError& e) {
        rethrow_under(e, "", prefix);
    } catch (const std::exception& e) { // a library's own error (XGBoost's)
        throw InputError("", prefix, e.what());
    }
}

} // namespace

CrossDeviceRegressor::CrossDeviceRegressor(std::shared_ptr<const CrossDeviceBase> base,
                                           DeviceFigures figures, bool correct)
    : base_(std::move(base)), figures_(figures), correct_(correct) {}

void CrossDeviceRegressor::fit(const RegressionSamples& samples, unsigned /*seed*/) {
    if (!base_)
        throw std::invalid_argument("cross-device: a predictor is adapted from a base model "
                                    "(cleave train-cross-device), not fitted from samples alone");
    if (samples.feature_names != base_->features)
        throw std::invalid_argument("cross-device: the samples' columns are not the base model's");
    if (samples.rows == 0 || samples.x.size() != samples.rows * samples.feature_names.size() ||
        samples.y.size() != samples.rows)
        throw std::invalid_argument("cross-device: no samples, or sample sizes that do not match");
    columns_ = samples.feature_names.size();
    model_ = base_->model;
    base_kind_ = base_->kind;
    base_devices_.clear();
    for (const auto& d : base_->devices)
        base_devices_.push_back(d.id);
    baseline_ = NominalRoofline::of(samples.feature_names);

    const auto kernel_columns = kernel_feature_names().size();
    std::vector<KernelSample> kernels;
    for (std::size_t i = 0; i < samples.rows; ++i) {
        const double* row = &samples.x[i * columns_];
        kernels.push_back({"", std::vector<double>(row, row + kernel_columns), samples.y[i]});
    }
    descriptor_ = device_descriptor(figures_, kernels);
    correction_ = LogCorrection{};
    if (!correct_)
        return;
    std::vector<double> predicted(samples.rows);
    predict_rows(samples.x.data(), samples.rows, columns_, predicted.data());
    std::vector<CorrectionSample> residuals;
    for (std::size_t i = 0; i < samples.rows; ++i) {
        const double* row = &samples.x[i * columns_];
        // A model's time is mostly its large kernels': each kernel weighs the square root of its
        // nominal time, between equal weights (the many small kernels decide) and weights in
        // proportion to time (a handful of large ones decide).
        const double nominal_us = baseline_.us(row);
        CorrectionSample r{std::log(samples.y[i] / predicted[i]), std::log(nominal_us), {},
                           std::sqrt(nominal_us)};
        for (std::size_t j = kernel_columns; j < columns_; ++j)
            if (row[j] != 0)
                r.columns.push_back(j);
        residuals.push_back(std::move(r));
    }
    correction_ = LogCorrection::fit(residuals);
}

double CrossDeviceRegressor::predict(const double* features) const {
    double out = 0;
    predict_rows(features, 1, columns_, &out);
    return out;
}

void CrossDeviceRegressor::predict_rows(const double* features, std::size_t rows,
                                        std::size_t columns, double* out) const {
    if (!model_)
        throw std::logic_error("cross-device: predict before fit or load");
    if (rows == 0)
        return;
    predict_on_device(*model_, features, rows, columns, descriptor_, out);
    const double speed = descriptor_[kDeviceSpeedColumn];
    for (std::size_t i = 0; i < rows; ++i) {
        const double* row = features + i * columns;
        out[i] *= std::exp(correction_.log_factor(row, std::log(baseline_.us(row)))) / speed;
    }
}

std::string CrossDeviceRegressor::save() const {
    if (!model_)
        throw std::logic_error("cross-device: save before fit");
    nlohmann::json correction;
    correction_.write(correction);
    nlohmann::json doc{{"target", "log_us_over_base"},
                       {"features", columns_},
                       {"base_kind", base_kind_},
                       {"base_devices", base_devices_},
                       {"descriptor_names", device_descriptor_names()},
                       {"descriptor", descriptor_},
                       {"correction", correction}};
    baseline_.write(doc);
    doc["base"] = nlohmann::json::parse(model_->save());
    return doc.dump();
}

void CrossDeviceRegressor::load(const std::string& text, std::size_t feature_count) {
    const JsonReader reader("");
    const auto doc = read_model_head(text, "a cross-device model", "log_us_over_base", feature_count);
    const auto kind = reader.string(doc, "", "base_kind", true, "gbdt or mlp, the base model's kind");
    if (!is_cross_device_base_kind(kind))
        reader.fail("/base_kind", "expected gbdt or mlp, the base model's kind");
    std::unique_ptr<Regressor> model;
    try {
        model = make_regressor(kind, "/base_kind");
    } catch (const InputError& e) {
        reader.fail("/base_kind", e.problem());
    }
    std::vector<std::string> devices;
    const auto* base_devices =
        reader.array(doc, "", "base_devices", true, "the ids the base was trained on");
    for (std::size_t i = 0; i < base_devices->size(); ++i)
        devices.push_back(
            reader.string_at((*base_devices)[i], child_pointer("/base_devices", i), "a device id"));
    const auto& names = device_descriptor_names();
    if (doc.value("descriptor_names", nlohmann::json()) != nlohmann::json(names))
        reader.fail("/descriptor_names",
                    "expected the " + std::to_string(names.size()) +
                        " device descriptor columns this version computes, in order");
    auto descriptor = read_device_descriptor(reader, doc, "", "descriptor");
    auto baseline = NominalRoofline::read(doc, feature_count);
    const auto* correction_doc =
        reader.object(doc, "", "correction", true, "the correction's object");
    LogCorrection correction;
    nested("/correction", [&] { correction = LogCorrection::read(*correction_doc, feature_count); });
    const auto* base = reader.object(doc, "", "base", true, "the base model");
    nested("/base", [&] { model->load(base->dump(), feature_count + names.size()); });

    base_kind_ = kind;
    base_devices_ = std::move(devices);
    columns_ = feature_count;
    descriptor_ = std::move(descriptor);
    baseline_ = std::move(baseline);
    correction_ = std::move(correction);
    model_ = std::move(model);
}

Predictor adapt_cross_device(std::shared_ptr<const CrossDeviceBase> base,
                             const DeviceFigures& figures, const std::vector<KernelSample>& samples,
                             const std::vector<const RunData*>& overhead_runs,
                             const PredictorTrainingOptions& options, bool correct) {
    if (samples.empty())
        throw InputError("", "--data", "a cross-device predictor needs timed kernels of the device");
    Predictor p;
    p.device = options.device;
    p.kind = kCrossDeviceKind;
    p.rules = options.rules;
    p.features = base->features;
    std::vector<const KernelSample*> pointers;
    for (const auto& s : samples)
        pointers.push_back(&s);
    auto regressor = std::make_unique<CrossDeviceRegressor>(std::move(base), figures, correct);
    regressor->fit(regression_samples(p, pointers), options.seed);
    p.classes.emplace(kAllKernels, ClassModel{std::move(regressor), static_cast<int>(samples.size())});
    p.trained_on.push_back(std::to_string(samples.size()) + " profiled kernels");
    fit_overhead(p, overhead_runs);
    return p;
}

Predictor train_cross_device(const std::vector<const RunData*>& runs,
                             const PredictorTrainingOptions& options) {
    std::string file = options.cross_device_base;
    if (file.empty()) {
        const auto installed = installed_cross_device_base();
        if (!installed)
            throw InputError("", "--kind",
                             std::string("no cross-device base model is installed (") +
                                 kCrossDeviceBaseName +
                                 ".json.xz among the predictor folders; scripts/train-predictors.sh "
                                 "builds it)");
        file = installed->string();
    }
    const auto base = std::make_shared<const CrossDeviceBase>(load_cross_device_base(file));
    std::map<int, int> threads; // runs per thread count
    for (const auto* r : runs)
        ++threads[r->threads];
    int most = 0, count = 0;
    for (const auto& [t, n] : threads)
        if (n > count) {
            most = t;
            count = n;
        }
    std::optional<device::DeviceSpec> spec = options.device_spec;
    if (!spec)
        try {
            spec = device::find_device(options.device);
        } catch (const InputError&) {
            // A device the library does not know: its figures are unknown, its kernels tell.
        }
    DeviceFigures figures;
    if (spec)
        figures = device_figures(*spec, most);
    if (figures.threads <= 0 && spec)
        figures.threads = device::cpu_cores(*spec);
    const auto samples = ProfiledKernels::of(runs).samples();
    if (samples.empty())
        throw InputError("", "--data",
                         "no run has timed kernels of a model that was found: a cross-device "
                         "predictor adapts to a device's own kernels");
    auto p = adapt_cross_device(base, figures, samples, runs, options);
    p.trained_on.clear();
    for (const auto* r : runs)
        p.trained_on.push_back(r->name);
    return p;
}

} // namespace cleave::predict
