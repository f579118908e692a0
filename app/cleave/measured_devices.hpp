// The measured devices train-cross-device and evaluate-cross-device read: --data [DEVICE=]FILE...,
// a bare file standing for every library device measured in it (as device-vector reads it:
// ort-cpu-xeon.json.xz gives xeon-ort-1t ... xeon-ort-16t), DEVICE=FILE for every run of FILE as
// one library device (this-machine=examples/data/opencv-xeon-2cpu.json.xz); --models DIR...,
// searched in order for the models the runs name, after a "models" folder beside the data file
// where there is one (cleave calibrate --keep writes its data and networks so).
#pragma once

#include "core/predict/cross_device_evaluation.hpp"
#include "core/profile/run_models.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

namespace cleave::cli {

struct MeasuredDevice {
    std::string id;    // the library device
    std::string label; // the id, or where ids repeat "this-machine (OpenCV 4.6.0 DNN, 1 thread)"
    std::string file;
    std::string machine; // the dataset's processor or GPU
    predict::DeviceFigures figures;
    device::DeviceSpec spec;
    std::vector<predict::RunData> runs;
};

struct MeasuredDevices {
    std::vector<profile::MeasuredDataset> datasets;
    std::vector<std::unique_ptr<profile::RunModels>> models;
    std::vector<MeasuredDevice> devices;
};

// --data and --models, both required and repeatable.
void add_measured_device_options(CLI::App& command, std::vector<std::string>& data,
                                 std::vector<std::string>& models);

// Warns on stderr about models in no folder; InputError for an unknown device id, a DEVICE=FILE
// whose runs have several thread counts, a file no library device is measured in, or
// a device with no run left.
MeasuredDevices load_measured_devices(const std::vector<std::string>& data,
                                      const std::vector<std::string>& models);

} // namespace cleave::cli
