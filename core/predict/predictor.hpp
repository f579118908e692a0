// A latency predictor for one device (one processing element): a regression model (lasso,
// gbdt, mlp: regressor.hpp) per kernel cost class with fallbacks to the kernel type and to one
// model over every kernel, plus the device's overhead beyond its kernels (Li et al.'s
// T_overhead: measured end-to-end time minus the summed kernel times, here a fixed part, a part
// per kernel, a share of the kernels' time and a part per byte of the graph's outputs:
// inference_overhead.hpp). Stored as JSON ("cleave-predictor", version 1, docs/predictors.md),
// written atomically.
#pragma once

#include "core/device/memory_probe.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "regressor.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace cleave::predict {

inline constexpr const char* kAllKernels = "*"; // the class every other one falls back to
// Indicator columns after the kernel features: "class=Conv/kxk" is 1 for kernels of that
// cost class, "type=FusedConv" for kernels of that type.
inline constexpr const char* kClassColumn = "class=";
inline constexpr const char* kTypeColumn = "type=";

struct ClassModel {
    std::shared_ptr<const Regressor> model;
    int samples = 0;
};

struct Predictor {
    std::string device; // the device id it predicts for ("xeon-ort-4t")
    std::string kind;   // the regressor kind: "lasso", "gbdt", ...
    std::string rules;  // the fusion method whose kernels it was trained and is meant for
    // The columns every class model reads: kernel_feature_names(), then indicator columns.
    std::vector<std::string> features;
    std::map<std::string, ClassModel> classes; // by cost class, cost type and kAllKernels
    double overhead_ms = 0;            // per inference
    double overhead_per_kernel_us = 0; // per kernel the inference runs
    double overhead_kernel_time_share = 0; // of the kernels' predicted time
    double overhead_per_output_mb_us = 0;  // per 1e6 bytes of graph outputs
    double overhead_per_mapped_output_mb_us = 0; // more per 1e6 bytes of outputs over 32 MiB
    double overhead_per_io_mb_us = 0;    // per 1e6 bytes of graph inputs and outputs (older files)
    std::vector<std::string> trained_on; // "resnet50 1x3x224x224", one per run
    // The device's read bandwidth by working set, measured at the threads it was trained at
    // (memory_probe.hpp); empty where none was. With it, no kernel is predicted faster than its
    // bytes read at the bandwidth of the model's working set (its weights and caches): the
    // measured networks may all have fitted in the caches, which a model that outgrows them no
    // longer does (a language model's decode step streams every weight).
    std::vector<device::BandwidthPoint> memory_curve;
    // The runtime's rate streaming weights from memory over the probe's (calibration's
    // measure_streaming): the floor reads at memory_efficiency x the curve's bandwidth.
    double memory_efficiency = 1;
    std::string file; // where it was read from
};

// The row a predictor's models read for a kernel of `cost_class` with these kernel features.
std::vector<double> feature_row(const Predictor& predictor, const std::vector<double>& features,
                                const std::string& cost_class);

struct KernelLatency {
    double us = 0;
    std::string model_class; // the class whose model gave it ("Conv/kxk", "Conv", "*")
    bool memory_bound = false; // its bytes at the working set's bandwidth (memory_curve) gave it
};

// One launch of a kernel of `cost_class` with these kernel features.
KernelLatency predict_features(const Predictor& predictor, const std::vector<double>& features,
                               const std::string& cost_class);

// Many kernels at once (features[i] of cost class classes[i]), one call per class model: what a
// library such as XGBoost needs to be fast.
std::vector<KernelLatency> predict_features(const Predictor& predictor,
                                            const std::vector<std::vector<double>>& features,
                                            const std::vector<std::string>& classes);

struct ModelLatency {
    std::vector<KernelLatency> kernels; // per kernel of the graph, launches included
    double kernels_ms = 0;
    double overhead_ms = 0;
    double total_ms = 0; // kernels plus the device's overhead
};

ModelLatency predict_model(const Predictor& predictor, const graph::Model& model,
                           const fusion::KernelGraph& kernels);

// The predictor file's JSON text; save_predictor writes it, xz-compressed for a path ending in
// ".xz".
std::string predictor_json(const Predictor& predictor);
void save_predictor(const Predictor& predictor, const std::filesystem::path& path);
// Throws InputError (file, JSON pointer, expected) for anything but a predictor this version
// reads, and for a kind whose regressor is not installed (a plugin).
Predictor load_predictor(const std::string& path);
// The same for a predictor document found at JSON pointer `at` of `file` (a device bundle).
Predictor parse_predictor(const nlohmann::json& document, const std::string& file,
                          const std::string& at = "");

// The "features" array of a document at `prefix` of `file`: the kernel features this version
// computes, in order, then indicator columns; InputError (file, JSON pointer) otherwise.
std::vector<std::string> read_feature_columns(const nlohmann::json& document,
                                              const std::string& file,
                                              const std::string& prefix = "");

// regressor.load(model, feature_count), its errors as InputError at `pointer` of `file` plus the
// place the regressor names (/weights/3).
void load_regressor(Regressor& regressor, const nlohmann::json& model, std::size_t feature_count,
                    const std::string& file, const std::string& pointer);

} // namespace cleave::predict
