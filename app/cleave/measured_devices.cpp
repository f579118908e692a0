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

// The models folders searched, each opened once and kept in `owner`.
class ModelFolders {
public:
    explicit ModelFolders(std::vector<std::unique_ptr<profile::RunModels>>& owner)
        : owner_(owner) {}

    profile::RunModels* at(const std::string& folder) {
        auto& found = by_folder_[folder];
        if (!found) {
            owner_.push_back(std::make_unique<profile::RunModels>(folder, true));
            found = owner_.back().get();
        }
        return found;
    }

private:
    std::vector<std::unique_ptr<profile::RunModels>>& owner_;
    std::map<std::string, profile::RunModels*> by_folder_;
};

// The devices a dataset stands for: all its runs as the device named (DEVICE=FILE, one thread
// count; the dtypes may differ, as a calibration's int64-input networks run on the same float32
// device), else every library device measured in it.
std::vector<grouping::DeviceRuns> devices_of(const profile::MeasuredDataset& dataset,
                                             const std::string& named,
                                             const std::vector<device::DeviceSpec>& library) {
    std::vector<grouping::DeviceRuns> found;
    if (!named.empty()) {
        std::set<int> threads;
        grouping::DeviceRuns runs{named, dataset.file, {}};
        for (const auto& run : dataset.runs) {
            threads.insert(run.threads);
            runs.runs.push_back(&run);
        }
        if (threads.size() > 1)
            throw InputError(dataset.file, "/runs",
                             "runs at several thread counts cannot all stand for one device " +
                                 named +
                                 "; give the file without DEVICE= so each library device "
                                 "measured in it gets its runs");
        found.push_back(std::move(runs));
        return found;
    }
    found = grouping::measured_devices(dataset, library);
    if (found.empty())
        throw InputError(dataset.file, "",
                         "no library device is measured in this file (a device's "
                         "measurement.data names the file it stands for); give it as "
                         "DEVICE=FILE");
    return found;
}

// One device's runs prepared with their models (found in `search`, in order; a run whose model
// none has is skipped, its model added to `missing`), labelled with the runtime and the thread
// count most of its runs used.
MeasuredDevice prepared_device(const grouping::DeviceRuns& d,
                               const profile::MeasuredDataset& dataset,
                               const std::vector<profile::RunModels*>& search,
                               std::set<std::string>& missing) {
    MeasuredDevice device;
    device.id = d.device;
    device.label = d.device;
    device.file = dataset.file;
    device.machine = !dataset.device.empty() ? dataset.device : dataset.file;
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
                         "no run of " + d.device + " has its model in the models folders");
    int most = 0, count = 0;
    for (const auto& [t, n] : threads)
        if (n > count) {
            most = t;
            count = n;
        }
    device.figures = predict::device_figures(device.spec, most);
    const std::string label = " (" + runtime_name(dataset.runtime) + ", " + std::to_string(most) +
                              " thread" + (most == 1 ? "" : "s") + ")";
    device.label += label;
    return device;
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
        .add_option(
            "--models", models,
            "Folder(s) holding the ONNX files the data names (.onnx, .onnx.xz or .onnx.gz), "
            "searched in order")
        ->required();
}

MeasuredDevices load_measured_devices(const std::vector<std::string>& data,
                                      const std::vector<std::string>& models) {
    MeasuredDevices out;
    ModelFolders folders(out.models);
    std::vector<profile::RunModels*> given;
    for (const auto& folder : models)
        given.push_back(folders.at(folder));
    std::vector<std::string> named; // per dataset, the device given for it, or empty
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
        const auto found = devices_of(dataset, named[i], library);
        // A "models" folder beside the data (as cleave calibrate --keep writes them) first: its
        // generated networks are named alike from one calibration to the next.
        std::vector<profile::RunModels*> search;
        std::error_code error;
        const auto beside = std::filesystem::path(dataset.file).parent_path() / "models";
        if (std::filesystem::is_directory(beside, error))
            search.push_back(folders.at(beside.string()));
        search.insert(search.end(), given.begin(), given.end());
        for (const auto& d : found)
            out.devices.push_back(prepared_device(d, dataset, search, missing));
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
