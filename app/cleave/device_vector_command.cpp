// cleave device-vector: Arch2End's HP, HE and HA vectors of measured devices, from data files in
// the shared format; the file it writes feeds `cleave group --features hp|he|ha --vectors`.
#include "commands.hpp"
#include "core/device/device_library.hpp"
#include "core/grouping/device_vectors.hpp"
#include "core/input_error.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <cstdio>
#include <memory>
#include <set>

namespace cleave::cli {

namespace {

struct DeviceVectorOptions {
    std::vector<std::string> data;
    std::string models;
    std::size_t max_features = grouping::DeviceVectorOptions{}.max_features;
    std::string rules = "ort-cpu";
    bool json = false;
    std::string out;
};

int run_device_vector(const DeviceVectorOptions& options) {
    std::vector<profile::MeasuredDataset> datasets;
    std::vector<std::string> named; // device id given as DEVICE=FILE, else empty
    for (const auto& item : options.data) {
        const auto eq = item.find('=');
        std::string device, file = item;
        if (eq != std::string::npos && !device::is_device_file(item.substr(0, eq))) {
            device = item.substr(0, eq);
            file = item.substr(eq + 1);
            device::find_device(device, "--data " + item); // an unknown id is an error here
        }
        datasets.push_back(profile::load_measured_dataset(file));
        named.push_back(device);
    }
    const auto library = device::library_devices();
    std::vector<grouping::DeviceRuns> devices;
    for (std::size_t i = 0; i < datasets.size(); ++i) {
        const auto& data = datasets[i];
        if (!named[i].empty()) {
            std::set<std::pair<int, std::string>> kinds;
            grouping::DeviceRuns runs{named[i], data.file, {}};
            for (const auto& run : data.runs) {
                kinds.emplace(run.threads, run.dtype);
                runs.runs.push_back(&run);
            }
            if (kinds.size() > 1)
                throw InputError(data.file, "/runs",
                                 "runs at several thread counts or dtypes cannot all stand for "
                                 "one device " +
                                     named[i] +
                                     "; give the file without DEVICE= so each library device "
                                     "measured in it gets its runs");
            devices.push_back(std::move(runs));
            continue;
        }
        auto found = grouping::measured_devices(data, library);
        if (found.empty())
            throw InputError(data.file, "",
                             "no library device is measured in this file (a device's "
                             "measurement.data names the file it stands for); give it as "
                             "DEVICE=FILE");
        for (auto& d : found)
            devices.push_back(std::move(d));
    }
    profile::RunModels models(options.models, true);
    grouping::DeviceVectorOptions vector_options;
    vector_options.max_features = options.max_features;
    vector_options.rules = options.rules;
    const auto vectors = grouping::compute_device_vectors(devices, models, vector_options);
    for (const auto& m : models.missing())
        warn(options.models + ": no " + m + ".onnx; its benchmarks were left out");

    if (!options.out.empty())
        grouping::save_device_vectors(vectors, options.out);
    if (options.json) {
        std::fputs(grouping::device_vectors_json(vectors).c_str(), stdout);
        return 0;
    }
    std::printf("%zu devices, %zu benchmark runs measured on all of them\n", vectors.devices.size(),
                vectors.benchmarks.size());
    std::printf("HE features (share of the fitted latency at the mean benchmark):");
    for (const auto& f : vectors.he_features)
        std::printf(" %s", f.c_str());
    std::printf("\n%-18s %10s %10s  HE shares\n", "device", "HP mean ms", "fit MAPE");
    for (std::size_t d = 0; d < vectors.devices.size(); ++d) {
        double mean = 0;
        for (const double ms : vectors.hp_ms[d])
            mean += ms;
        mean /= static_cast<double>(vectors.hp_ms[d].size());
        std::printf("%-18s %10.3f %9.1f%% ", vectors.devices[d].c_str(), mean,
                    vectors.he_fit_mape[d]);
        for (const double s : vectors.he[d])
            std::printf(" %.2f", s);
        std::printf("\n");
    }
    for (const auto& note : vectors.notes)
        std::printf("note: %s\n", note.c_str());
    return 0;
}

} // namespace

Action add_device_vector_command(CLI::App& app) {
    auto options = std::make_shared<DeviceVectorOptions>();
    auto* command =
        app.add_subcommand("device-vector", "Arch2End device vectors (HP latencies, HE key-feature "
                                            "weights, HA both) from measured data");
    command
        ->add_option("--data", options->data,
                     "Measured dataset(s) (.json or .json.xz); DEVICE=FILE when no library "
                     "device names the file (e.g. this-machine=opencv.json)")
        ->required();
    command
        ->add_option("--models", options->models,
                     "Folder holding the ONNX files the data names (.onnx, .onnx.xz or .onnx.gz)")
        ->required();
    command->add_option("--max-features", options->max_features,
                        "HE model features kept by the greedy Pearson selection (default 4)");
    command->add_option("--rules", options->rules,
                        "Fusion method behind the model features (default ort-cpu)");
    command->add_flag("--json", options->json, "Print the vectors file as JSON");
    command->add_option("--out", options->out,
                        "Write the vectors file (for cleave group --vectors), atomically");
    return [options] { return run_device_vector(*options); };
}

} // namespace cleave::cli
