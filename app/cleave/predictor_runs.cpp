#include "predictor_runs.hpp"

#include "core/input_error.hpp"

#include <iostream>
#include <set>

namespace cleave::cli {

void add_data_options(CLI::App& command, std::vector<std::string>& data, std::string& models) {
    command.add_option("--data", data, "Measured dataset(s) (.json or .json.xz)")->required();
    command.add_option("--models", models, "Folder holding the ONNX files the data names")
        ->required();
}

PredictorRuns load_predictor_runs(const std::vector<std::string>& data, const std::string& models,
                                  int threads) {
    PredictorRuns out;
    out.models = std::make_unique<profile::RunModels>(models, true);
    for (const auto& file : data)
        out.datasets.push_back(profile::load_measured_dataset(file));
    for (const auto& dataset : out.datasets)
        for (const auto& run : dataset.runs) {
            if (threads != 0 && run.threads != threads)
                continue;
            if (const auto* model = out.models->find(run))
                out.runs.push_back(predict::prepare_run(*model, run));
        }
    for (const auto& m : out.models->missing())
        std::cerr << "cleave: warning: " << models << ": no " << m
                  << ".onnx; its runs were skipped\n";
    if (out.runs.empty())
        throw InputError(data.empty() ? "--data" : data.front(), "",
                         "no run matched: expected runs" +
                             (threads ? " at " + std::to_string(threads) + " threads" : "") +
                             " whose models are in " + models);
    return out;
}

std::vector<int> run_threads(const std::vector<profile::MeasuredDataset>& datasets) {
    std::set<int> threads;
    for (const auto& d : datasets)
        for (const auto& r : d.runs)
            threads.insert(r.threads);
    return {threads.begin(), threads.end()};
}

} // namespace cleave::cli
