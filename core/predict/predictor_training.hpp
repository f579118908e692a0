// Training latency predictors from measured runs and scoring them on runs they never saw:
// kernel level against the runtime's own kernel times, end to end against the median of the
// measured runs (overhead included), per model family and pooled.
#pragma once

#include "core/device/device_spec.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/profile/measured_dataset.hpp"
#include "core/task_control.hpp"
#include "inference_overhead.hpp"
#include "predictor.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cleave::predict {

struct KernelSample {
    std::string model_class; // cost_class of the runtime's kernel
    std::vector<double> features;
    double us = 0;
};

// One measured run prepared for training and testing.
struct RunData {
    std::string name;   // "resnet50 1x3x224x224"
    std::string family; // profile::model_family
    int threads = 0;
    std::string dtype; // "float32", "float16"; empty when the data does not say
    const graph::Model* model = nullptr;
    double e2e_ms = 0;             // median of the measured end-to-end times
    double kernels_ms = 0;         // sum of every timed kernel of the run
    int kernel_count = 0;          // kernels the run's node groups form
    GraphIoBytes io;               // graph inputs and outputs (inference_overhead.hpp)
    std::vector<KernelSample> samples; // the runtime's kernels that map onto node groups, timed
    // Every timed kernel the run lists, as the runtime named it, in launch order: where kernels
    // map onto no node (the H100 runs), their names still say what ran.
    std::vector<std::pair<std::string, double>> launched_us;
};

RunData prepare_run(const graph::Model& model, const profile::MeasuredRun& run);

// A device id's thread count: "xeon-ort-4t" -> 4; 0 when the id names none (every run counts).
int device_threads(const std::string& device);

struct PredictorTrainingOptions {
    std::string device;
    std::string kind = "lasso";    // the regressor (regressor_kinds())
    std::string rules = "ort-cpu"; // recorded: the fusion method the predictor is meant for
    int min_class_samples = 12;    // a cost class or type with fewer falls back to a wider one
    unsigned seed = 1;
    // Kind "cross-device" (cross_device.hpp): the base model it adapts (empty: the installed
    // one), and the device's figures where the library does not know `device` (yet).
    std::string cross_device_base;
    std::optional<device::DeviceSpec> device_spec;
    // Told before each class model is fitted, where a cancel stops the training.
    const TaskControl* control = nullptr;
    // The device's read bandwidth by working set, measured at the runs' threads, that the
    // predictor keeps (Predictor::memory_curve); empty where the runs were measured elsewhere.
    std::vector<device::BandwidthPoint> memory_curve;
    double memory_efficiency = 1; // Predictor::memory_efficiency
};

// The rows a predictor's models read (its features: kernel features, then indicator columns) for
// these samples, their times as targets.
RegressionSamples regression_samples(const Predictor& predictor,
                                     const std::vector<const KernelSample*>& samples);

// The device's overhead over the runs' end-to-end times minus their timed kernels
// (inference_overhead.hpp); zero without such runs.
void fit_overhead(Predictor& predictor, const std::vector<const RunData*>& runs);

// The indicator columns of a model over every kernel (kClassColumn, kTypeColumn): the cost
// classes and types with at least `min_class_samples` samples, in name order.
std::vector<std::string> indicator_columns(const std::vector<const KernelSample*>& samples,
                                           int min_class_samples);

// Lasso, roofline and launch-bound fit one model per cost class and type with enough samples
// (Li et al.: one predictor per kernel type); other kinds fit one model over every kernel with
// indicator columns for those classes and types, so trees and networks share what kernels have
// in common. The overhead is fitted over runs as fixed + per kernel, both >= 0. Where no run has
// timed kernels, launch-bound is fitted to the end-to-end times (launch_bound_training.hpp).
// Throws InputError when no run has timed kernels (end-to-end times, for launch-bound), or for
// a kind that is not installed.
Predictor train_predictor(const std::vector<const RunData*>& runs,
                          const PredictorTrainingOptions& options);

// A predictor from kernels profiled one by one (kernel_sampling.hpp) rather than whole runs:
// the class models from `samples` alone, the overhead fitted over `overhead_runs` (end-to-end
// times are cheap to measure on a new device; kernel times are what costs).
Predictor train_predictor_on_samples(const std::vector<KernelSample>& samples,
                                     const std::vector<const RunData*>& overhead_runs,
                                     const PredictorTrainingOptions& options);

struct ErrorSummary {
    int count = 0;
    double mape = 0;  // mean absolute percentage error, as a fraction
    double rmspe = 0; // root mean squared percentage error, as a fraction
    double within_5 = 0, within_10 = 0, within_15 = 0; // shares of predictions that close
    double max_error = 0;
};

// Relative errors (predicted - measured) / measured.
ErrorSummary summarise_errors(const std::vector<double>& relative_errors);

struct RunPrediction {
    const RunData* run = nullptr;
    double predicted_ms = 0;                // the method's kernels, predicted, plus overhead
    std::vector<double> kernel_errors;      // relative, per timed runtime kernel
};

// One launch of each sample's kernel, predicted in batches (predict_features).
std::vector<double> predict_samples(const Predictor& predictor,
                                    const std::vector<KernelSample>& samples);

RunPrediction evaluate_run(const Predictor& predictor, const fusion::FusionMethod& method,
                           const RunData& run);

struct FamilyResult {
    std::string family;
    std::vector<RunPrediction> runs;
};

// Trains on every family but one and predicts that one, for each family in `runs`. With
// `folds` > 0 the families are dealt into that many folds (in name order, round robin) and each
// fold's families are predicted by a predictor trained on the other folds: every run is still
// predicted without its family, for `folds` fits instead of one per family. `control` is told
// before each fold ("holding out " the family, or the fold's families, comma-separated); the fits
// themselves report to options.control.
std::vector<FamilyResult> leave_family_out(const std::vector<RunData>& runs,
                                           const fusion::FusionMethod& method,
                                           const PredictorTrainingOptions& options,
                                           const TaskControl* control = nullptr, int folds = 0);

// For data with end-to-end times only (the H100 runs): one non-negative lasso, squared
// percentage error objective, from the kernel features summed over the model's kernels, and the
// kernel count, to the end-to-end time. Each family is predicted by a model trained on the
// others.
const std::vector<std::string>& summed_feature_names();
std::vector<double> summed_kernel_features(const graph::Model& model,
                                           const fusion::KernelGraph& kernels);
std::vector<FamilyResult> leave_family_out_totals(const std::vector<RunData>& runs,
                                                  const fusion::FusionMethod& method,
                                                  const TaskControl* control = nullptr);

} // namespace cleave::predict
