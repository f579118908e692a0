#include "measured_devices.hpp"

#include "core/device/device_library.hpp"
#include "core/grouping/device_vectors.hpp"
#include "core/input_error.hpp"
#include "progress.hpp"

#include <filesystem>
#include <map>
#include <set>

namespace cleave::cli {

namespace {

// The runtime as a short phrase: "ONNX Runtime 1.30.0, CPU execution provider" -> its first part.
// "ONNX Runtime 1.30.0 (CPUExecutionProvider), onnxruntime-node, ..." -> "ONNX Runtime 1.30.0".
std::string runtime_name(const std::string& runtime) {
    const auto end = runtime.find_first_of(",(");
    auto name = runtime.substr(0, end);
    while (!name.empty() && name.back() == ' ')
        name.pop_back();
    return name.empty() ? "unnamed runtime" : name;
}

} // namespace

void add_measured_device_options(CLI::App& command, std::vector<std::string>& data,
                                 std::vector<std::string>& models) {
    command
        .add_option("--data", data,
                    "Measured dataset(s): FILE for every library device measured in it, "
                    "DEVICE=FILE for all of FILE's runs as that library device")
        ->required();
    command
        .add_option("--models", models,
                    "Folder(s) holding the ONNX files the data names, searched in order")
        ->required();
}

MeasuredDevices load_measured_devices(const std::vector<std::string>& data,
                                      const std::vector<std::string>& models) {
    MeasuredDevices out;
    std::map<std::string, profile::RunModels*> by_folder;
    const auto folder_models = [&](const std::string& folder) {
        auto& found = by_folder[folder];
        if (!found) {
            out.models.push_back(std::make_unique<profile::RunModels>(folder, true));
            found = out.models.back().get();
        }
        return found;
    };
    std::vector<profile::RunModels*> given;
    for (const auto& folder : models)
        given.push_back(folder_models(folder));
    std::vector<std::string> named;
    for (const auto& item : data) {
        const auto eq = item.find('=');
        std::string device, file = item;
        if (eq != std::string::npos && !device::is_device_file(item.substr(0, eq))) {
            device = item.substr(0, eq);
            file = item.substr(eq + 1);
            device::find_device(device, "--data " + item); // an unknown id is an error here
        }
        out.datasets.push_back(profile::load_measured_dataset(file));
        named.push_back(device);
    }
    const auto library = device::library_devices();
    std::set<std::string> missing;
    for (std::size_t i = 0; i < out.datasets.size(); ++i) {
        const auto& dataset = out.datasets[i];
        std::vector<grouping::DeviceRuns> found;
        if (!named[i].empty()) {
            // One thread count; the dtypes may differ (a calibration's int64-input networks
            // run on the same float32 device).
            std::set<int> threads;
            grouping::DeviceRuns runs{named[i], dataset.file, {}};
            for (const auto& run : dataset.runs) {
                threads.insert(run.threads);
                runs.runs.push_back(&run);
            }
            if (threads.size() > 1)
                throw InputError(dataset.file, "/runs",
                                 "runs at several thread counts cannot all stand for one device " +
                                     named[i] +
                                     "; give the file without DEVICE= so each library device "
                                     "measured in it gets its runs");
            found.push_back(std::move(runs));
        } else {
            found = grouping::measured_devices(dataset, library);
            if (found.empty())
                throw InputError(dataset.file, "",
                                 "no library device is measured in this file (a device's "
                                 "measurement.data names the file it stands for); give it as "
                                 "DEVICE=FILE");
        }
        // A "models" folder beside the data (as cleave calibrate --keep writes them) first: its
        // generated networks are named alike from one calibration to the next.
        std::vector<profile::RunModels*> search;
        std::error_code error;
        const auto beside = std::filesystem::path(dataset.file).parent_path() / "models";
        if (std::filesystem::is_directory(beside, error))
            search.push_back(folder_models(beside.string()));
        search.insert(search.end(), given.begin(), given.end());
        for (const auto& d : found) {
            MeasuredDevice device;
            device.id = d.device;
            device.label = d.device;
            device.file = dataset.file;
            device.spec = device::find_device(d.device);
            std::map<int, int> threads;
            for (const auto* run : d.runs) {
                const graph::Model* model = nullptr;
                for (auto* folder : search)
                    if ((model = folder->find(*run)))
                        break;
                if (!model) {
                    missing.insert(run->model);
                    continue;
                }
                device.runs.push_back(predict::prepare_run(*model, *run));
                ++threads[run->threads];
            }
            if (device.runs.empty())
                throw InputError(dataset.file, "",
                                 "no run of " + d.device +
                                     " has its model in the models folders");
            int most = 0, count = 0;
            for (const auto& [t, n] : threads)
                if (n > count) {
                    most = t;
                    count = n;
                }
            device.figures = predict::device_figures(device.spec, most);
            const std::string label = " (" + runtime_name(dataset.runtime) + ", " +
                                      std::to_string(most) + " thread" + (most == 1 ? "" : "s") +
                                      ")";
            device.label += label;
            out.devices.push_back(std::move(device));
        }
    }
    // A device's id is its label where it is the only one of that id.
    std::map<std::string, int> per_id;
    for (const auto& d : out.devices)
        ++per_id[d.id];
    for (auto& d : out.devices)
        if (per_id[d.id] == 1)
            d.label = d.id;
    for (const auto& m : missing)
        warn("no " + m + ".onnx in the models folders; its runs were skipped");
    return out;
}

} // namespace cleave::cli
