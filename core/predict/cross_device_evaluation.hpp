// Leave one device out: for each measured device, a cross-device base trained on the others is
// adapted with n of the device's kernels chosen by KMeans (as a new device would be profiled)
// and scored on the rest of its kernels and end to end on its runs, next to what the same n
// kernels give without the other devices (train_predictor_on_samples) and, where the device's
// spec has the figures, the uncalibrated roofline. `cleave evaluate-cross-device` reports it.
#pragma once

#include "core/device/device_spec.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/task_control.hpp"
#include "cross_device_base.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cleave::predict {

struct EvaluatedDevice {
    std::string id; // as reported ("xeon-ort-4t", "this-machine (OpenCV ..., 1 thread)")
    DeviceFigures figures;
    std::optional<device::DeviceSpec> spec; // for the roofline; its PEs' peaks as a whole
    std::vector<const RunData*> runs;
    // The hardware it ran on (a dataset's processor or GPU): the thread counts of one machine are
    // left out together, since each teaches the others the machine. Empty: a machine of its own.
    std::string machine;
};

struct CrossDeviceEvaluationOptions {
    std::vector<int> samples{5, 20, 50, 200}; // kernels profiled on the held-out device
    int seeds = 3;                            // KMeans seeds 1..seeds per sample count
    std::string device_only_kind = "gbdt";    // the predictor from the samples alone
    std::vector<std::string> held_out; // the devices to leave out in turn; empty: every one
    CrossDeviceTrainingOptions base;
    const TaskControl* control = nullptr; // told a lasting line per step, where a cancel stops
};

struct Spread {
    double mean = 0;
    double sd = 0; // over the seeds
};

struct MethodScore {
    Spread kernel_mape; // kernels not profiled
    Spread e2e_mape;
};

struct SamplesScore {
    int samples = 0;
    MethodScore cross_device;    // adapted: descriptor and correction
    MethodScore descriptor_only; // the descriptor from the samples, no correction
    MethodScore device_only;     // trained on the samples alone
};

struct DeviceEvaluation {
    std::string id;
    int runs = 0;
    int timed_kernels = 0;
    int distinct_kernels = 0;
    std::string machine;                  // as given, or the id where none was
    std::vector<std::string> trained_on;  // the devices of the other machines
    std::optional<SampledScore> roofline; // where the spec has the figures
    std::vector<SamplesScore> rows;
};

// Throws InputError with fewer than three devices (a base needs two), where leaving a machine out
// leaves fewer than two devices, or for a held-out id that is none of them.
std::vector<DeviceEvaluation> evaluate_cross_device(const std::vector<EvaluatedDevice>& devices,
                                                    const fusion::FusionMethod& method,
                                                    const CrossDeviceEvaluationOptions& options);

} // namespace cleave::predict
