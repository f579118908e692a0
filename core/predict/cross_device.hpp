// A latency predictor for a new device from a few of its kernels (kind "cross-device"): the
// cross-device base model (cross_device_base.hpp) with the new device's descriptor fixed, its
// times scaled by the device's measured speed, and a correction in log space fitted on the same
// kernels (log_correction.hpp): one factor from five kernels, per cost class and kernel size
// from a few hundred. The predictor file holds all of it (the base's model included), so it
// predicts wherever a predictor does.
#pragma once

#include "baseline.hpp"
#include "cross_device_base.hpp"
#include "log_correction.hpp"

#include <memory>
#include <string>
#include <vector>

namespace cleave::predict {

inline constexpr const char* kCrossDeviceKind = "cross-device";

class CrossDeviceRegressor final : public Regressor {
public:
    CrossDeviceRegressor() = default; // for load
    // To adapt `base` to a device of these figures: fit takes its profiled kernels, as rows of
    // the base's features. Without `correct`, only the descriptor is taken from them (HELP's
    // adaptation, no correction): for comparison.
    CrossDeviceRegressor(std::shared_ptr<const CrossDeviceBase> base, DeviceFigures figures,
                         bool correct = true);

    // Throws std::invalid_argument when constructed without a base, or for samples whose
    // columns are not the base's.
    void fit(const RegressionSamples& samples, unsigned seed) override;
    double predict(const double* features) const override;
    void predict_rows(const double* features, std::size_t rows, std::size_t columns,
                      double* out) const override;
    std::string save() const override;
    void load(const std::string& json, std::size_t feature_count) override;

    const std::vector<double>& descriptor() const { return descriptor_; }
    const LogCorrection& correction() const { return correction_; }

private:
    std::shared_ptr<const CrossDeviceBase> base_; // to adapt
    DeviceFigures figures_;
    bool correct_ = true;

    std::string base_kind_;
    std::shared_ptr<const Regressor> model_; // the base's
    std::vector<std::string> base_devices_;  // what it was trained on, for the record
    std::size_t columns_ = 0;
    std::vector<double> descriptor_;
    NominalRoofline baseline_;
    LogCorrection correction_;
};

// A cross-device predictor for `device` from its profiled kernels (distinct, one time each) and
// the overhead fitted over `overhead_runs` (end to end minus their timed kernels), like
// train_predictor_on_samples. Throws InputError without samples.
Predictor adapt_cross_device(std::shared_ptr<const CrossDeviceBase> base,
                             const DeviceFigures& figures, const std::vector<KernelSample>& samples,
                             const std::vector<const RunData*>& overhead_runs,
                             const PredictorTrainingOptions& options, bool correct = true);

// train_predictor for kind "cross-device": adapts the base (options.cross_device_base, else the
// installed one) with every distinct timed kernel of the runs, the device's figures from
// options.device_spec or the library's device of that id. Throws InputError when no base is
// installed or the runs have no timed kernels.
Predictor train_cross_device(const std::vector<const RunData*>& runs,
                             const PredictorTrainingOptions& options);

} // namespace cleave::predict
