// The measured runs train and evaluate read: every run of the data files whose model is in the
// models folder, at every measured input size, for one device (its thread count) or all.
#pragma once

#include "core/predict/predictor_training.hpp"
#include "core/profile/run_models.hpp"

#include <CLI/CLI.hpp>

#include <memory>
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

// threads 0: every run. Warns on stderr about models missing from the folder; InputError when
// no run is left.
PredictorRuns load_predictor_runs(const std::vector<std::string>& data, const std::string& models,
                                  int threads);

// The thread counts the runs were measured at, ascending.
std::vector<int> run_threads(const std::vector<profile::MeasuredDataset>& datasets);

} // namespace cleave::cli
