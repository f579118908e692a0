// A regression model from kernel features to a kernel's time: what a predictor fits per cost
// class. Kinds: "lasso" (lasso.hpp, Li et al. Eq. 1), "mlp" (mlp.hpp), "roofline"
// (roofline.hpp) and "launch-bound" (launch_bound.hpp) in core, "gbdt" (XGBoost) as a plugin of
// kind "regressor" (plugins/xgboost_regressor); "cross-device" (cross_device.hpp) is adapted from
// a base model rather than fitted, and made here only to be loaded. The interface crosses the
// plugin boundary, so it holds only standard types.
#pragma once

#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cleave::predict {

struct RegressionSamples {
    std::vector<std::string> feature_names; // one per column
    std::size_t rows = 0;
    std::vector<double> x; // row-major, rows x feature_names.size(); features are >= 0
    std::vector<double> y; // > 0, microseconds
};

class Regressor {
public:
    static constexpr const char* kPluginKind = "regressor";

    virtual ~Regressor() = default;

    // Fits the samples; `seed` makes a fit repeatable. Throws std::invalid_argument on samples
    // it cannot fit (sizes, targets <= 0).
    virtual void fit(const RegressionSamples& samples, unsigned seed) = 0;

    // The time for one row of features, in the order fit saw them; always > 0.
    virtual double predict(const double* features) const = 0;

    // Many rows at once (row-major, `rows` x the fitted feature count) into out[rows]: one call
    // where a library's per-call cost is high.
    virtual void predict_rows(const double* features, std::size_t rows, std::size_t columns,
                              double* out) const {
        for (std::size_t i = 0; i < rows; ++i)
            out[i] = predict(features + i * columns);
    }

    // The fitted parameters as JSON text, and back for rows of `feature_count` features. load
    // throws InputError with no file, the JSON pointer inside the text and what was expected
    // (JsonReader with an empty file) on text it did not write or that was written for another
    // number of features; load_regressor places it in the predictor's file.
    virtual std::string save() const = 0;
    virtual void load(const std::string& json, std::size_t feature_count) = 0;
};

// The opening of a model that `load` reads (`what`: "a gbdt model"): a JSON object whose
// "target" is `target` and whose "features" is `feature_count`, the predictor's; InputError
// without a file otherwise (Regressor::load's contract).
nlohmann::json read_model_head(const std::string& text, const std::string& what,
                               const std::string& target, std::size_t feature_count);

// A new, unfitted regressor of `kind`: lasso, mlp, roofline and launch-bound from core, others
// from the plugin of kind "regressor" with that name. Throws InputError (place `option`) for a kind
// that is not there, saying why (the plugin registry's reason).
std::unique_ptr<Regressor> make_regressor(const std::string& kind, const std::string& option);

// The kinds make_regressor accepts on this installation, core's first.
std::vector<std::string> regressor_kinds();

} // namespace cleave::predict
