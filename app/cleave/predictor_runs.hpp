// The measured runs train and evaluate read: every run of the data files whose model is in the
// models folder, at every measured input size, for one device (its thread count and dtype) or all.
#pragma once

#include "core/predict/predictor_training.hpp"
#include "core/profile/run_models.hpp"

#include <CLI/CLI.hpp>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cleave::cli {

struct PredictorRuns {
    std::vector<profile::MeasuredDataset> datasets;
    std::unique_ptr<profile::RunModels> models;
    std::vector<predict::RunData> runs; // in file order
};

// --data FILE... and --models DIR, both required.
void add_data_options(CLI::App& command, std::vector<std::string>& data, std::string& models);

// Which runs stand for one device: its thread count ("xeon-ort-4t") and element type (a measured
// device's spec says it: h100-cudnn-fp16 is the float16 runs). 0 and empty select every run.
struct RunSelection {
    int threads = 0;
    std::string dtype;

    bool selects(const profile::MeasuredRun& run) const;
    std::string label() const; // "4 threads", "float16", "runs"
    auto operator<=>(const RunSelection&) const = default;
};

// A device id's selection; an id the library does not know selects by its -Nt suffix alone.
RunSelection run_selection(const std::string& device);

// Warns on stderr about models missing from the folder; InputError when no run is left.
PredictorRuns load_predictor_runs(const std::vector<std::string>& data, const std::string& models,
                                  const RunSelection& selection);

// Throws InputError on --hold-out when a family given there names no run of `present` (the
// families of the runs selected), listing those: a misspelt family would hold nothing out.
void check_held_out(const std::vector<std::string>& held, const std::set<std::string>& present);

// The thread counts and dtypes the runs were measured at, ascending.
std::vector<RunSelection> run_selections(const std::vector<profile::MeasuredDataset>& datasets);

} // namespace cleave::cli
