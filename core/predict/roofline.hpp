// The roofline predictor: a kernel takes a launch plus the longer of its FLOPs at the PE's peak
// rate and its bytes at the memory bandwidth, each derated by an efficiency per cost class. From
// a device spec alone it is uncalibrated (default efficiencies, docs/predictors.md); trained on
// measured kernels, each class's efficiency becomes the median measured-to-roofline ratio.
#pragma once

#include "core/device/device_spec.hpp"
#include "predictor.hpp"
#include "regressor.hpp"

namespace cleave::predict {

struct RooflineParameters {
    double peak_gflops = 0;   // the PE's peak FP32 rate
    double bandwidth_gbs = 0; // the memory bandwidth the PE sees
    double efficiency = 1;    // share of the roofline the class reaches
    double launch_us = 0;     // per kernel
};

class RooflineRegressor final : public Regressor {
public:
    RooflineRegressor() = default;
    explicit RooflineRegressor(RooflineParameters parameters) : parameters_(parameters) {}
    // Keeps peak and bandwidth; sets the efficiency to the median of roofline / measured.
    void fit(const RegressionSamples& samples, unsigned seed) override;
    double predict(const double* features) const override;
    std::string save() const override;
    void load(const std::string& json, std::size_t feature_count) override;
    const RooflineParameters& parameters() const { return parameters_; }

private:
    RooflineParameters parameters_;
};

// The named PE's peak FP32 rate and bandwidth, or, unnamed, those of the device's fastest PE
// that has both (the largest peak). Throws InputError naming the device's file and what is
// missing when the spec lacks them.
RooflineParameters roofline_of(const device::DeviceSpec& device, const std::string& pe = "");

// An uncalibrated predictor for the device from its spec: default efficiencies per cost class.
// `rules` empty: ort-cpu for a CPU PE, tensorrt-like for a GPU.
Predictor roofline_predictor(const device::DeviceSpec& device, const std::string& rules,
                             const std::string& pe = "");

} // namespace cleave::predict
