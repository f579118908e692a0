#include "roofline.hpp"

#include "core/input_error.hpp"
#include "core/json_reader.hpp"
#include "core/statistics.hpp"
#include "kernel_features.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

namespace cleave::predict {

namespace {

constexpr double kCpuLaunchUs = 5;
constexpr double kGpuLaunchUs = 10;

// Feature columns the roofline reads, in kernel_feature_names() order.
struct Columns {
    std::size_t flops = 0;
    std::vector<std::size_t> bytes;
};

const Columns& columns() {
    static const Columns c = [] {
        Columns out;
        const auto& names = kernel_feature_names();
        for (std::size_t j = 0; j < names.size(); ++j) {
            if (names[j] == "flops")
                out.flops = j;
            if (names[j] == "bytes_in" || names[j] == "bytes_out" || names[j] == "weight_bytes")
                out.bytes.push_back(j);
        }
        return out;
    }();
    return c;
}

// Microseconds at full efficiency, launch excluded.
double roof_us(const RooflineParameters& p, const double* row) {
    double bytes = 0;
    for (const auto j : columns().bytes)
        bytes += row[j];
    const double compute = p.peak_gflops > 0 ? row[columns().flops] / (p.peak_gflops * 1e3) : 0;
    const double memory = p.bandwidth_gbs > 0 ? bytes / (p.bandwidth_gbs * 1e3) : 0;
    return std::max(compute, memory);
}

// Uncalibrated efficiencies: shares of peak that CPU and GPU libraries commonly reach per kind of
// kernel (dense convolutions and matrix products well, depthwise and grouped ones poorly).
double default_efficiency(const std::string& cls) {
    if (cls.ends_with("/depthwise"))
        return 0.05;
    if (cls.ends_with("/grouped"))
        return 0.2;
    if (cls.ends_with("/1x1"))
        return 0.4;
    if (cls.ends_with("/kxk"))
        return 0.5;
    if (cls.ends_with("/gemm"))
        return 0.6;
    return 0.5;
}

} // namespace

void RooflineRegressor::fit(const RegressionSamples& samples, unsigned) {
    const auto p = samples.feature_names.size();
    if (samples.rows == 0 || samples.x.size() != samples.rows * p ||
        samples.y.size() != samples.rows)
        throw std::invalid_argument("roofline: no samples, or sample sizes that do not match");
    RooflineParameters at_roof = parameters_;
    at_roof.efficiency = 1;
    std::vector<double> ratios;
    for (std::size_t i = 0; i < samples.rows; ++i) {
        const double roof = roof_us(at_roof, &samples.x[i * p]);
        const double work = samples.y[i] - parameters_.launch_us;
        if (roof > 0 && work > 0)
            ratios.push_back(roof / work);
    }
    if (ratios.empty())
        return;
    parameters_.efficiency = std::clamp(median(ratios), 1e-4, 1.0);
}

double RooflineRegressor::predict(const double* features) const {
    return parameters_.launch_us + roof_us(parameters_, features) / parameters_.efficiency;
}

std::string RooflineRegressor::save() const {
    return nlohmann::ordered_json{{"peak_gflops", parameters_.peak_gflops},
                                  {"bandwidth_gbs", parameters_.bandwidth_gbs},
                                  {"efficiency", parameters_.efficiency},
                                  {"launch_us", parameters_.launch_us}}
        .dump();
}

void RooflineRegressor::load(const std::string& text, std::size_t) {
    const JsonReader reader("");
    const auto doc = reader.parse(text, "a roofline model");
    reader.expect_object(doc, "",
                         "an object with peak_gflops, bandwidth_gbs, efficiency, launch_us");
    RooflineParameters p;
    p.peak_gflops = reader.number(doc, "", "peak_gflops", true, "GFLOP/s", true).value();
    p.bandwidth_gbs = reader.number(doc, "", "bandwidth_gbs", true, "GB/s", true).value();
    p.efficiency = reader.number(doc, "", "efficiency", true, "a share").value();
    p.launch_us = reader.number(doc, "", "launch_us", true, "us", true).value();
    if (p.efficiency > 1)
        reader.fail("/efficiency", "expected a share in (0, 1]");
    if (p.peak_gflops <= 0 && p.bandwidth_gbs <= 0)
        reader.fail("/peak_gflops", "expected a peak rate or a bandwidth above 0");
    parameters_ = p;
}

RooflineParameters roofline_of(const device::DeviceSpec& device, const std::string& pe_name) {
    const auto figures = [&](const device::ProcessingElement& pe) {
        RooflineParameters p;
        p.peak_gflops = pe.peak_gflops.fp32.value_or(0);
        p.bandwidth_gbs = device::memory_bandwidth_gbs(device, pe).value_or(0);
        p.launch_us = pe.kind == device::PeKind::gpu ? kGpuLaunchUs : kCpuLaunchUs;
        return p;
    };
    // Unnamed: the fastest PE, where a device-level prediction would run (a Jetson's GPU, though
    // its CPU, listed first, has figures too).
    bool named = false;
    std::optional<RooflineParameters> best;
    for (const auto& pe : device.processing_elements) {
        if (!pe_name.empty() && pe.name != pe_name)
            continue;
        named = true;
        const auto p = figures(pe);
        if (p.peak_gflops > 0 && p.bandwidth_gbs > 0 &&
            (!best || p.peak_gflops > best->peak_gflops))
            best = p;
    }
    if (best)
        return *best;
    if (!named)
        throw InputError(device.file, "/processing_elements",
                         "no processing element named '" + pe_name + "' in device " + device.id);
    throw InputError(
        device.file, "/processing_elements",
        "device " + device.id +
            (pe_name.empty()
                 ? " has no processing element with both a peak FP32 rate and a memory bandwidth"
                 : ": its processing element " + pe_name +
                       " lacks a peak FP32 rate or a memory bandwidth") +
            ", which a roofline predictor needs both of" +
            (device.measurement ? "; it is a measured device: train a predictor from its data "
                                  "(cleave train --device " +
                                      device.id + ")"
                                : ""));
}

Predictor roofline_predictor(const device::DeviceSpec& device, const std::string& rules,
                             const std::string& pe) {
    const auto base = roofline_of(device, pe);
    Predictor p;
    p.device = device.id;
    p.kind = "roofline";
    p.rules = !rules.empty() ? rules : base.launch_us == kGpuLaunchUs ? "tensorrt-like" : "ort-cpu";
    p.features = kernel_feature_names();
    for (const char* cls : {"*", "Conv/depthwise", "Conv/grouped", "Conv/1x1", "Conv/kxk",
                            "Gemm/gemm", "MatMul/gemm"}) {
        auto parameters = base;
        parameters.efficiency = default_efficiency(cls);
        p.classes.emplace(cls, ClassModel{std::make_shared<RooflineRegressor>(parameters), 0});
    }
    return p;
}

} // namespace cleave::predict
