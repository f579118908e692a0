// A device's predicted latency as the studio shows it: per kernel of the kernel graph on screen
// and in total, by the predictor `cleave predict` would use; with a measured run of the model,
// also the runtime's own kernels predicted and measured side by side.
#pragma once

#include "core/predict/predictor.hpp"
#include "core/profile/measured_dataset.hpp"
#include "ui/document/core_ptrs.hpp"

#include <memory>
#include <string>
#include <vector>

namespace cleave::ui {

struct LatencyRequest {
    ModelPtr model;
    KernelGraphPtr kernels;
    // A library id or a device file; empty: the first library device with a shipped predictor
    // that loads, else the first whose spec gives a roofline (the report names the one taken).
    std::string device;
    std::string rules;       // the fusion method the kernels came from
    MeasuredRunPtr measured; // a run of this model; may be null
};

// One kernel the runtime timed, mapped onto the model's nodes.
struct MeasuredKernelPoint {
    std::string name;
    std::string type;
    double measured_ms = 0;
    double predicted_ms = 0;
};

struct LatencyReport {
    LatencyRequest request;
    std::string device_name;       // "NVIDIA Jetson Xavier NX"
    std::string source;            // "roofline (uncalibrated)", "gbdt, xeon-ort-1t.json.xz"
    std::string predictor_rules;   // the kernels the predictor was made for
    std::string error;             // why there are no figures; empty when there are
    predict::ModelLatency latency; // one entry per kernel of request.kernels

    // With request.measured: its timed kernels, both end-to-end times, or why there are none.
    std::vector<MeasuredKernelPoint> measured_kernels;
    double measured_total_ms = 0;  // median of the run's end-to-end times
    double predicted_total_ms = 0; // the run's kernels predicted, overhead included
    std::string measured_error;

    bool hasFigures() const { return error.empty(); }
    // "12.3 ms on jetson-xavier-nx, roofline (uncalibrated)", or the error; for a decoder, then
    // its phase, context and tokens per second ("; decode of 1 token at context 1025 ...").
    std::string summary() const;
};
using LatencyReportPtr = std::shared_ptr<const LatencyReport>;

LatencyReport predict_latency(const LatencyRequest& request);

} // namespace cleave::ui

Q_DECLARE_METATYPE(cleave::ui::LatencyReportPtr)
