#include "predictor_runs.hpp"

#include "core/device/device_library.hpp"
#include "core/input_error.hpp"
#include "progress.hpp"

#include <iostream>
#include <set>

namespace cleave::cli {

void add_data_options(CLI::App& command, std::vector<std::string>& data, std::string& models) {
    command.add_option("--data", data, "Measured dataset(s) (.json or .json.xz)")->required();
    command
        .add_option("--models", models,
                    "Folder holding the ONNX files the data names (.onnx, .onnx.xz or .onnx.gz)")
        ->required();
}

bool RunSelection::selects(const profile::MeasuredRun& run) const {
    return (threads == 0 || run.threads == threads) && (dtype.empty() || run.dtype == dtype);
}

std::string RunSelection::label() const {
    std::string out =
        threads > 0 ? std::to_string(threads) + " thread" + (threads == 1 ? "" : "s") : "";
    if (!dtype.empty())
        out += (out.empty() ? "" : ", ") + dtype;
    return out.empty() ? "runs" : out;
}

RunSelection run_selection(const std::string& device) {
    RunSelection selection{predict::device_threads(device), ""};
    if (device.empty())
        return selection;
    try {
        if (const auto measured = device::find_device(device).measurement) {
            selection.threads = measured->threads.value_or(selection.threads);
            selection.dtype = measured->dtype;
        }
    } catch (const InputError&) {
        // Not a library device: a predictor may be trained for any id.
    }
    return selection;
}

PredictorRuns load_predictor_runs(const std::vector<std::string>& data, const std::string& models,
                                  const RunSelection& selection) {
    PredictorRuns out;
    out.models = std::make_unique<profile::RunModels>(models, true);
    for (const auto& file : data)
        out.datasets.push_back(profile::load_measured_dataset(file));
    for (const auto& dataset : out.datasets)
        for (const auto& run : dataset.runs) {
            if (!selection.selects(run))
                continue;
            if (const auto* model = out.models->find(run))
                out.runs.push_back(predict::prepare_run(*model, run));
        }
    for (const auto& m : out.models->missing())
        warn(models + ": no " + m + ".onnx; its runs were skipped");
    if (out.runs.empty())
        throw InputError(data.empty() ? "--data" : data.front(), "",
                         "no run matched: expected runs" +
                             (selection.threads || !selection.dtype.empty()
                                  ? " of " + selection.label()
                                  : std::string()) +
                             " whose models are in " + models);
    return out;
}

void check_held_out(const std::vector<std::string>& held, const std::set<std::string>& present) {
    for (const auto& family : held) {
        if (present.count(family))
            continue;
        std::string names;
        for (const auto& p : present)
            names += (names.empty() ? "" : ", ") + p;
        throw InputError("", "--hold-out",
                         "no run of the family '" + family +
                             "' to hold out; the runs' families: " + names);
    }
}

std::vector<RunSelection> run_selections(const std::vector<profile::MeasuredDataset>& datasets) {
    std::set<RunSelection> selections;
    for (const auto& d : datasets)
        for (const auto& r : d.runs)
            selections.insert({r.threads, r.dtype});
    return {selections.begin(), selections.end()};
}

} // namespace cleave::cli
