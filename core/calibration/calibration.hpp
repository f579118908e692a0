// Calibrating a device in one step (cleave calibrate): measures this machine through a profiler
// back end on networks Cleave writes itself (the benchmark suite, simulation models) and the
// example models, chosen first to cover the kernels' feature space (KMeans) and then where a
// predictor errs most (network_choice.hpp), until the time budget's measuring share is spent;
// then scores every installed predictor kind on the measured networks, each family held out in
// turn, trains the best on everything and describes the device it stands for.
#pragma once

#include "core/device/device_spec.hpp"
#include "core/predict/predictor.hpp"
#include "core/predict/predictor_training.hpp"
#include "core/profile/measured_dataset.hpp"
#include "core/profile/profiler.hpp"
#include "core/task_control.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace cleave::calibration {

struct CalibrationOptions {
    std::string device_id; // the id it is stored under (device::check_user_device_id)
    int threads = 1;
    double minutes = 10; // the whole budget: measuring, training and scoring
    std::string rules = "ort-cpu";
    unsigned seed = 1;
    std::vector<std::filesystem::path> example_models; // .onnx or .onnx.xz
    std::filesystem::path work_folder; // generated and unpacked models; the caller removes it
    // false: each generated network's file is removed once measured (the networks of a 10-minute
    // calibration take several GB); true: they stay in the work folder beside the data.
    bool keep_networks = false;
    // Where the measured data is written as soon as measuring ends (before the kinds are scored
    // and trained, so that a failure there loses none of it); empty: nowhere.
    std::filesystem::path data_file;
    std::vector<std::string> kinds;    // predictor kinds to score; empty: every installed one
    // Decoders of the decoder space to start the pool with (6 steps each); -1: as the budget
    // allows (3 a minute, up to 45).
    int decoders = -1;
    // Told each step as a lasting line for people; checked often, a cancel stops the
    // calibration with cleave::Cancelled.
    const TaskControl* control = nullptr;
    // Seconds on the clock the budget is kept by; empty: the steady clock. Tests pass their own.
    std::function<double()> clock;
    // The machine's read bandwidth by working set at `threads` (device::probe_memory_curve, which
    // it is when empty): the device's bandwidth and the predictor's memory floor. Tests whose
    // profiler is not this machine pass their own.
    std::vector<device::BandwidthPoint> memory_curve;
};

struct MeasuredNetwork {
    std::string name;
    graph::DimBindings dims; // a decoder step's phase, else empty
    std::string family;
    std::string phase; // "coverage" or "error"
    double e2e_ms = 0;
    int kernels = 0;
    double seconds = 0; // spent measuring it
};

struct FamilyError {
    std::string family;
    int runs = 0;
    predict::ErrorSummary e2e; // end to end, each run predicted with its family held out
};

struct KindScore {
    std::string kind;
    bool scored = false;
    std::string not_scored;    // why not: "the budget ran out", or what was wrong with the kind
    predict::ErrorSummary e2e; // pooled over every held-out family
    std::vector<FamilyError> families;
    double seconds = 0;
};

// The machine's own speed during the calibration, from a probe network timed between the
// others: on a shared host (a VM whose cores other tenants also run on) a network can run 1.5x
// slower for seconds to minutes at a time, and not every network by the same factor. A network
// goes back to the pool, to be measured again, when the probes around it disagree by more than
// kSlowState (the speed changed while it was measured) or ran more than kSlowState times slower
// than the fast state; otherwise its times are scaled to the fast state by their ratio.
struct MachineSpeed {
    std::string probe;                             // the probe network's name
    std::vector<std::pair<double, double>> probes; // (seconds into the calibration, its ms)
    double fastest_ms = 0; // the fast state: the 10th percentile of the probes
    double slowest_ms = 0;
    int remeasured = 0; // networks measured again after a slow spell or a change of speed
    int left_out = 0;   // runs of slow spells left out: not measured again, or judged slow by
                        // the fast state found after them
    int scaled = 0;     // networks kept whose times were scaled down by more than 5%
};
inline constexpr double kSlowState = 1.15;

struct CalibrationResult {
    device::DeviceSpec device;
    predict::Predictor predictor;
    profile::MeasuredDataset data; // every run measured
    std::vector<MeasuredNetwork> networks;
    std::vector<KindScore> kinds; // in the order scored; predictor.kind is the best
    int pool_networks = 0;
    int kernel_clusters = 0;
    MachineSpeed speed;
    double measuring_seconds = 0;
    double seconds = 0;
};

// Throws InputError for options it cannot run (no kind installed, a budget too small to
// measure one network), Cancelled once options.control is cancelled.
CalibrationResult calibrate(profile::Profiler& profiler, const CalibrationOptions& options);

// The calibrated device: this machine's CPU as one PE of `threads` cores running `runtime`, its
// memory bandwidth the last point of `memory` (probe_memory_curve at those threads) where given.
device::DeviceSpec calibrated_device(const std::string& id, const std::string& runtime, int threads,
                                     int networks, double minutes,
                                     const std::vector<device::BandwidthPoint>& memory = {});

} // namespace cleave::calibration
