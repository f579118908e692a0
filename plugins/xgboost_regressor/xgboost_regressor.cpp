// The gbdt regressor: gradient-boosted trees from XGBoost's C API on log(time / baseline), so
// that the squared error it minimises is close to a squared relative error. The baseline is the
// nominal roofline (core/predict/baseline.hpp): trees predict a constant beyond the largest
// kernel they saw, so they learn how far a kernel is from the baseline, which levels off for
// big kernels, rather than its time, which does not. Trees split on thresholds,
// so the raw kernel features need no scaling. The fitted booster is kept as XGBoost's own JSON
// model inside the predictor file.
#include "core/json_reader.hpp"
#include "core/plugin/plugin_registry.hpp"
#include "core/predict/baseline.hpp"
#include "core/predict/regressor.hpp"
#include "xgboost_model_check.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <xgboost/c_api.h>
#include <xgboost/version_config.h>

namespace cleave::xgboost_regressor {

namespace {

constexpr int kRounds = 300;
void check(int status, const char* what) {
    if (status != 0)
        throw std::runtime_error(std::string("XGBoost ") + what + ": " + XGBGetLastError());
}

class Booster {
public:
    // Trained on `matrix`, or to be loaded when there is none.
    explicit Booster(DMatrixHandle matrix = nullptr) {
        check(XGBoosterCreate(matrix ? &matrix : nullptr, matrix ? 1 : 0, &handle_),
              "cannot create a booster");
    }
    ~Booster() { XGBoosterFree(handle_); }
    Booster(const Booster&) = delete;
    Booster& operator=(const Booster&) = delete;
    BoosterHandle get() const { return handle_; }

private:
    BoosterHandle handle_ = nullptr;
};

class Matrix {
public:
    Matrix(const std::vector<float>& x, std::size_t rows, std::size_t columns) {
        check(XGDMatrixCreateFromMat(x.data(), rows, columns,
                                     std::numeric_limits<float>::quiet_NaN(), &handle_),
              "cannot hold the samples");
    }
    ~Matrix() { XGDMatrixFree(handle_); }
    Matrix(const Matrix&) = delete;
    Matrix& operator=(const Matrix&) = delete;
    DMatrixHandle get() const { return handle_; }

private:
    DMatrixHandle handle_ = nullptr;
};

// A kernel batch is small: waking a thread pool for it costs more than the trees, and callers
// (the search) run many predictions in parallel themselves.
void predict_on_one_thread(const Booster& booster) {
    check(XGBoosterSetParam(booster.get(), "nthread", "1"), "rejects nthread");
}

class XgboostRegressor final : public predict::Regressor {
public:
    void fit(const predict::RegressionSamples& samples, unsigned seed) override {
        columns_ = samples.feature_names.size();
        if (samples.rows == 0 || samples.x.size() != samples.rows * columns_ ||
            samples.y.size() != samples.rows)
            throw std::invalid_argument("gbdt: no samples, or sample sizes that do not match");
        std::vector<float> x(samples.x.begin(), samples.x.end());
        std::vector<float> label;
        baseline_ = predict::NominalRoofline::of(samples.feature_names);
        baseline_.fit(samples.feature_names, samples.x, samples.y);
        for (std::size_t i = 0; i < samples.rows; ++i) {
            const double y = samples.y[i];
            if (!(y > 0))
                throw std::invalid_argument("gbdt: targets must be positive");
            label.push_back(
                static_cast<float>(std::log(y / baseline_.us(&samples.x[i * columns_]))));
        }

        Matrix train(x, samples.rows, columns_);
        check(XGDMatrixSetFloatInfo(train.get(), "label", label.data(), label.size()),
              "cannot set the targets");
        auto booster = std::make_unique<Booster>(train.get());
        const BoosterHandle handle = booster->get();
        const std::string seed_text = std::to_string(seed);
        // One thread: where the machine's cores are busy with other work, OpenMP's barriers made
        // a fit of 1.7 s alone take 79 s.
        const std::pair<const char*, const char*> parameters[] = {{"objective", "reg:squarederror"},
                                                                  {"tree_method", "hist"},
                                                                  {"max_depth", "6"},
                                                                  {"eta", "0.05"},
                                                                  {"subsample", "0.8"},
                                                                  {"colsample_bytree", "0.8"},
                                                                  {"min_child_weight", "2"},
                                                                  {"seed", seed_text.c_str()},
                                                                  {"nthread", "1"},
                                                                  {"verbosity", "0"}};
        for (const auto& [name, value] : parameters)
            check(XGBoosterSetParam(handle, name, value), "rejects a parameter");
        for (int round = 0; round < kRounds; ++round)
            check(XGBoosterUpdateOneIter(handle, round, train.get()), "training failed");
        predict_on_one_thread(*booster);
        booster_ = std::move(booster);
    }

    double predict(const double* features) const override {
        double out = 0;
        predict_rows(features, 1, columns_, &out);
        return out;
    }

    void predict_rows(const double* features, std::size_t rows, std::size_t columns,
                      double* out) const override {
        if (!booster_)
            throw std::logic_error("gbdt: predict before fit or load");
        if (rows == 0)
            return;
        char interface[256];
        std::snprintf(interface, sizeof interface,
                      "{\"data\": [%llu, true], \"shape\": [%zu, %zu], \"typestr\": \"<f8\", "
                      "\"version\": 3}",
                      static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(features)),
                      rows, columns);
        static const char* config = "{\"type\": 0, \"training\": false, \"iteration_begin\": 0, "
                                    "\"iteration_end\": 0, \"strict_shape\": false, "
                                    "\"missing\": -1.0, \"cache_id\": 0}";
        const bst_ulong* shape = nullptr;
        bst_ulong dims = 0;
        const float* result = nullptr;
        check(XGBoosterPredictFromDense(booster_->get(), interface, config, nullptr, &shape, &dims,
                                        &result),
              "prediction failed");
        for (std::size_t i = 0; i < rows; ++i)
            out[i] =
                baseline_.us(features + i * columns) * std::exp(static_cast<double>(result[i]));
    }

    std::string save() const override {
        if (!booster_)
            throw std::logic_error("gbdt: save before fit");
        bst_ulong length = 0;
        const char* bytes = nullptr;
        check(
            XGBoosterSaveModelToBuffer(booster_->get(), "{\"format\": \"json\"}", &length, &bytes),
            "cannot save the model");
        nlohmann::json doc{{"target", "log_us_over_baseline"}, {"features", columns_}};
        baseline_.write(doc);
        doc["xgboost"] = nlohmann::json::parse(bytes, bytes + length);
        return doc.dump();
    }

    void load(const std::string& text, std::size_t feature_count) override {
        const JsonReader reader("");
        const auto doc =
            predict::read_model_head(text, "a gbdt model", "log_us_over_baseline", feature_count);
        auto baseline = predict::NominalRoofline::read(doc, feature_count);
        const nlohmann::json& xgboost =
            *reader.object(doc, "", "xgboost", true, "XGBoost's JSON model");
        check_xgboost_model(reader, xgboost, "/xgboost", feature_count);
        const std::string model = xgboost.dump();
        auto booster = std::make_unique<Booster>();
        if (XGBoosterLoadModelFromBuffer(booster->get(), model.data(), model.size()) != 0)
            reader.fail("/xgboost", std::string("XGBoost cannot read it: ") + XGBGetLastError());
        predict_on_one_thread(*booster);
        columns_ = feature_count;
        baseline_ = std::move(baseline);
        booster_ = std::move(booster);
    }

private:
    std::unique_ptr<Booster> booster_;
    std::size_t columns_ = 0;
    predict::NominalRoofline baseline_;
};

} // namespace

} // namespace cleave::xgboost_regressor

extern "C" __attribute__((visibility("default"))) const cleave::plugin::PluginDescriptor*
cleave_plugin() {
    static const std::string description =
        "XGBoost " + std::to_string(XGBOOST_VER_MAJOR) + "." + std::to_string(XGBOOST_VER_MINOR) +
        "." + std::to_string(XGBOOST_VER_PATCH) + ": gradient-boosted trees on log kernel time";
    static const cleave::plugin::PluginDescriptor descriptor{
        cleave::plugin::kPluginAbiVersion, cleave::predict::Regressor::kPluginKind, "gbdt",
        description.c_str(), []() -> void* {
            return static_cast<cleave::predict::Regressor*>(
                new cleave::xgboost_regressor::XgboostRegressor);
        }};
    return &descriptor;
}
