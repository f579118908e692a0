#include "predictor_training.hpp"

#include "core/device/device_library.hpp"
#include "core/input_error.hpp"
#include "core/statistics.hpp"
#include "cross_device.hpp"
#include "inference_overhead.hpp"
#include "kernel_features.hpp"
#include "lasso.hpp"
#include "launch_bound_training.hpp"
#include "measured_kernels.hpp"
#include "roofline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace cleave::predict {

namespace {

std::string shape_text(const std::vector<std::int64_t>& shape) {
    std::string out;
    for (const auto d : shape)
        out += (out.empty() ? "" : "x") + std::to_string(d);
    return out;
}

} // namespace

RegressionSamples regression_samples(const Predictor& p,
                                     const std::vector<const KernelSample*>& samples) {
    RegressionSamples out;
    out.feature_names = p.features;
    out.rows = samples.size();
    out.x.reserve(samples.size() * p.features.size());
    out.y.reserve(samples.size());
    for (const auto* s : samples) {
        const auto row = feature_row(p, s->features, s->model_class);
        out.x.insert(out.x.end(), row.begin(), row.end());
        out.y.push_back(s->us);
    }
    return out;
}

void fit_overhead(Predictor& p, const std::vector<const RunData*>& runs) {
    std::vector<OverheadSample> samples;
    for (const RunData* r : runs)
        samples.push_back({r->e2e_ms, r->kernels_ms, static_cast<double>(r->kernel_count), r->io});
    const auto fit = fit_inference_overhead(samples);
    p.overhead_ms = fit.fixed_ms;
    p.overhead_per_kernel_us = fit.per_kernel_us;
    p.overhead_kernel_time_share = fit.kernel_time_share;
    p.overhead_per_output_mb_us = fit.per_output_mb_us;
    p.overhead_per_mapped_output_mb_us = fit.per_mapped_output_mb_us;
    p.overhead_per_io_mb_us = 0;
}

RunData prepare_run(const graph::Model& model, const profile::MeasuredRun& run) {
    RunData d;
    d.name = run.model + " " + shape_text(run.input_shape);
    d.family = profile::model_family(run.model);
    d.threads = run.threads;
    d.dtype = run.dtype;
    d.model = &model;
    d.e2e_ms = cleave::median(run.e2e_ms);
    const auto measured = measured_kernels(model, run);
    d.kernels_ms = measured.total_us / 1000.0;
    d.kernel_count = 0;
    for (const auto& kernel : measured.kernels.kernels)
        d.kernel_count += kernel.launches;
    d.io = graph_io_bytes(model);
    for (const auto& k : run.kernels)
        if (k.us && *k.us > 0)
            d.launched_us.emplace_back(k.name, *k.us);
    const auto step = decode_step_bytes(model);
    for (std::size_t k = 0; k < measured.kernels.kernels.size(); ++k) {
        const auto& us = measured.us[k];
        if (!us || *us <= 0)
            continue;
        // Per launch, as predictions are (predict_model multiplies by the launches).
        const auto& kernel = measured.kernels.kernels[k];
        d.samples.push_back({cost_class(model, kernel), kernel_features(model, kernel, step),
                             *us / kernel.launches});
    }
    return d;
}

int device_threads(const std::string& device) {
    static const std::regex suffix(".*-([0-9]+)t");
    std::smatch m;
    if (std::regex_match(device, m, suffix))
        return std::stoi(m[1].str());
    return 0;
}

std::vector<std::string> indicator_columns(const std::vector<const KernelSample*>& samples,
                                           int min_class_samples) {
    std::map<std::string, int> count;
    for (const auto* s : samples) {
        ++count[s->model_class];
        const auto type = cost_type(s->model_class);
        if (type != s->model_class)
            ++count[type];
    }
    std::vector<std::string> columns;
    for (const auto& [key, n] : count)
        if (n >= min_class_samples)
            columns.push_back((key.find('/') != std::string::npos ? kClassColumn : kTypeColumn) +
                              key);
    return columns;
}

Predictor train_predictor(const std::vector<const RunData*>& runs,
                          const PredictorTrainingOptions& options) {
    if (options.kind == kCrossDeviceKind) {
        auto adapted = train_cross_device(runs, options);
        adapted.memory_curve = options.memory_curve;
        adapted.memory_efficiency = options.memory_efficiency;
        return adapted;
    }
    Predictor p;
    p.memory_curve = options.memory_curve;
    p.memory_efficiency = options.memory_efficiency;
    p.device = options.device;
    p.kind = options.kind;
    p.rules = options.rules;
    p.features = kernel_feature_names();
    std::map<std::string, std::vector<const KernelSample*>> by_key;
    for (const RunData* run : runs) {
        p.trained_on.push_back(run->name);
        for (const auto& s : run->samples) {
            by_key[s.model_class].push_back(&s);
            const auto type = cost_type(s.model_class);
            if (type != s.model_class)
                by_key[type].push_back(&s);
            by_key[kAllKernels].push_back(&s);
        }
    }
    if (by_key.empty()) {
        // End-to-end times only: the launch-bound model is fitted to the totals themselves.
        if (options.kind == kLaunchBoundKind) {
            auto fitted = train_launch_bound_on_totals(runs, options);
            fitted.memory_curve = options.memory_curve;
            fitted.memory_efficiency = options.memory_efficiency;
            return fitted;
        }
        throw InputError("", "--data",
                         "no run has timed kernels of a model that was found (for end-to-end "
                         "times alone, train --kind launch-bound)");
    }
    fit_overhead(p, runs);
    std::vector<std::string> keys;
    for (const auto& [key, samples] : by_key)
        if (key == kAllKernels || static_cast<int>(samples.size()) >= options.min_class_samples)
            keys.push_back(key);
    // Linear and roofline models describe one kind of kernel each (Li et al.); trees and networks
    // share one model across kinds.
    const bool per_class =
        options.kind == "lasso" || options.kind == "roofline" || options.kind == kLaunchBoundKind;
    std::optional<RooflineParameters> roofline;
    if (options.kind == "roofline")
        roofline = roofline_of(device::find_device(options.device, "--device"));
    if (!per_class) {
        const auto columns = indicator_columns(by_key[kAllKernels], options.min_class_samples);
        p.features.insert(p.features.end(), columns.begin(), columns.end());
        keys = {kAllKernels};
    }
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto& key = keys[i];
        report_progress(options.control,
                        {.fraction = static_cast<double>(i) / static_cast<double>(keys.size()),
                         .stage = "fitting the model of " + key});
        const auto& samples = by_key[key];
        auto regressor = roofline ? std::make_unique<RooflineRegressor>(*roofline)
                                  : make_regressor(options.kind, "--kind");
        regressor->fit(regression_samples(p, samples), options.seed);
        p.classes.emplace(key, ClassModel{std::move(regressor), static_cast<int>(samples.size())});
    }
    return p;
}

Predictor train_predictor_on_samples(const std::vector<KernelSample>& samples,
                                     const std::vector<const RunData*>& overhead_runs,
                                     const PredictorTrainingOptions& options) {
    RunData profiled;
    profiled.name = std::to_string(samples.size()) + " profiled kernels";
    profiled.samples = samples;
    auto p = train_predictor({&profiled}, options);
    fit_overhead(p, overhead_runs);
    return p;
}

ErrorSummary summarise_errors(const std::vector<double>& errors) {
    ErrorSummary s;
    s.count = static_cast<int>(errors.size());
    if (errors.empty())
        return s;
    double abs_sum = 0, sq_sum = 0;
    int w5 = 0, w10 = 0, w15 = 0;
    for (const double e : errors) {
        const double a = std::abs(e);
        abs_sum += a;
        sq_sum += e * e;
        w5 += a <= 0.05;
        w10 += a <= 0.10;
        w15 += a <= 0.15;
        s.max_error = std::max(s.max_error, a);
    }
    const double n = static_cast<double>(errors.size());
    s.mape = abs_sum / n;
    s.rmspe = std::sqrt(sq_sum / n);
    s.within_5 = w5 / n;
    s.within_10 = w10 / n;
    s.within_15 = w15 / n;
    return s;
}

std::vector<double> predict_samples(const Predictor& predictor,
                                    const std::vector<KernelSample>& samples) {
    std::vector<std::vector<double>> features;
    std::vector<std::string> classes;
    for (const auto& s : samples) {
        features.push_back(s.features);
        classes.push_back(s.model_class);
    }
    std::vector<double> us;
    for (const auto& k : predict_features(predictor, features, classes))
        us.push_back(k.us);
    return us;
}

RunPrediction evaluate_run(const Predictor& predictor, const fusion::FusionMethod& method,
                           const RunData& run) {
    RunPrediction r;
    r.run = &run;
    const auto kernels = fusion::detect_kernels(*run.model, method);
    r.predicted_ms = predict_model(predictor, *run.model, kernels).total_ms;
    const auto predicted = predict_samples(predictor, run.samples);
    for (std::size_t i = 0; i < run.samples.size(); ++i)
        r.kernel_errors.push_back((predicted[i] - run.samples[i].us) / run.samples[i].us);
    return r;
}

std::vector<FamilyResult> leave_family_out(const std::vector<RunData>& runs,
                                           const fusion::FusionMethod& method,
                                           const PredictorTrainingOptions& options,
                                           const TaskControl* control, int folds) {
    std::set<std::string> families;
    for (const auto& r : runs)
        families.insert(r.family);
    const int count = static_cast<int>(families.size());
    if (folds <= 0 || folds > count)
        folds = count;
    std::map<std::string, int> fold_of;
    for (const auto& family : families)
        fold_of.emplace(family, static_cast<int>(fold_of.size()) % std::max(1, folds));
    std::vector<FamilyResult> results;
    for (int fold = 0; fold < folds; ++fold) {
        std::string held_out;
        for (const auto& [family, f] : fold_of)
            if (f == fold)
                held_out += (held_out.empty() ? "" : ", ") + family;
        report_progress(control, {.fraction = static_cast<double>(fold) / folds,
                                  .stage = "holding out " + held_out});
        std::vector<const RunData*> train;
        for (const auto& r : runs)
            if (fold_of[r.family] != fold)
                train.push_back(&r);
        if (train.empty())
            continue;
        const auto predictor = train_predictor(train, options);
        for (const auto& [family, f] : fold_of) {
            if (f != fold)
                continue;
            FamilyResult result{family, {}};
            for (const auto& r : runs)
                if (r.family == family)
                    result.runs.push_back(evaluate_run(predictor, method, r));
            results.push_back(std::move(result));
        }
    }
    return results;
}

const std::vector<std::string>& summed_feature_names() {
    static const std::vector<std::string> names = [] {
        auto out = kernel_feature_names();
        out.emplace_back("kernels");
        return out;
    }();
    return names;
}

std::vector<double> summed_kernel_features(const graph::Model& model,
                                           const fusion::KernelGraph& kernels) {
    std::vector<double> sum(summed_feature_names().size(), 0.0);
    const auto step = decode_step_bytes(model);
    for (const auto& k : kernels.kernels) {
        const auto f = kernel_features(model, k, step);
        for (std::size_t j = 0; j < f.size(); ++j)
            sum[j] += f[j];
        sum.back() += k.launches;
    }
    return sum;
}

std::vector<FamilyResult> leave_family_out_totals(const std::vector<RunData>& runs,
                                                  const fusion::FusionMethod& method,
                                                  const TaskControl* control) {
    std::vector<std::vector<double>> features;
    features.reserve(runs.size());
    for (const auto& r : runs)
        features.push_back(
            summed_kernel_features(*r.model, fusion::detect_kernels(*r.model, method)));
    std::set<std::string> families;
    for (const auto& r : runs)
        if (r.e2e_ms > 0)
            families.insert(r.family);
    std::vector<FamilyResult> results;
    std::size_t held = 0;
    for (const auto& family : families) {
        report_progress(control, {.fraction = static_cast<double>(held++) /
                                              static_cast<double>(families.size()),
                                  .stage = "holding out " + family});
        RegressionSamples train;
        train.feature_names = summed_feature_names();
        for (std::size_t i = 0; i < runs.size(); ++i)
            if (runs[i].family != family && runs[i].e2e_ms > 0) {
                train.x.insert(train.x.end(), features[i].begin(), features[i].end());
                train.y.push_back(runs[i].e2e_ms * 1000.0);
                ++train.rows;
            }
        if (train.rows == 0)
            continue;
        LassoRegressor lasso;
        lasso.fit(train, 1);
        FamilyResult result{family, {}};
        for (std::size_t i = 0; i < runs.size(); ++i)
            if (runs[i].family == family && runs[i].e2e_ms > 0)
                result.runs.push_back({&runs[i], lasso.predict(features[i].data()) / 1000.0, {}});
        results.push_back(std::move(result));
    }
    return results;
}

} // namespace cleave::predict
