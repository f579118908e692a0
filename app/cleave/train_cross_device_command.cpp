// cleave train-cross-device: the base model of cross-device predictors (core/predict/
// cross_device_base.hpp) from the kernels of several measured devices; `cleave train --kind
// cross-device` and `cleave calibrate` adapt it to a device from that device's own kernels.
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/predict/cross_device_base.hpp"
#include "measured_devices.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <cstdio>

namespace cleave::cli {

namespace {

struct TrainCrossDeviceOptions {
    std::vector<std::string> data;
    std::vector<std::string> models;
    predict::CrossDeviceTrainingOptions training;
    std::string out;
    bool json = false;
};

int run_train_cross_device(const TrainCrossDeviceOptions& options) {
    check_file_can_be_written(options.out);
    predict::make_regressor(options.training.kind, "--kind"); // a missing plugin fails first
    const auto loaded = load_measured_devices(options.data, options.models);
    std::vector<predict::CrossDeviceDevice> devices;
    for (const auto& d : loaded.devices)
        devices.push_back({d.label, d.figures, predict::ProfiledKernels::of(d.runs)});
    Progress().line("training on " + std::to_string(devices.size()) + " devices");
    const auto base = predict::train_cross_device_base(devices, options.training);
    predict::save_cross_device_base(base, options.out);

    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& d : base.devices) {
        nlohmann::ordered_json descriptor = nlohmann::ordered_json::object();
        const auto& names = predict::device_descriptor_names();
        for (std::size_t j = 0; j < names.size(); ++j)
            descriptor[names[j]] = d.descriptor[j];
        rows.push_back({{"device", d.id}, {"kernels", d.kernels}, {"descriptor", descriptor}});
    }
    if (options.json) {
        emit_json({{"base", options.out},
                   {"kind", base.kind},
                   {"rules", base.rules},
                   {"features", base.features.size()},
                   {"devices", rows}},
                  true, "");
        return 0;
    }
    std::printf("base       %s (%s over %zu columns and the device descriptor, %s kernels)\n",
                options.out.c_str(), base.kind.c_str(), base.features.size(), base.rules.c_str());
    std::printf("  %-44s %8s %8s %8s %8s %8s %8s\n", "device", "kernels", "threads", "speed",
                "conv", "grouped", "matrix");
    for (const auto& d : base.devices)
        std::printf("  %-44s %8d %8.0f %8.3f %8.3f %8.3f %8.3f\n", d.id.c_str(), d.kernels,
                    d.descriptor[0], d.descriptor[predict::kDeviceSpeedColumn],
                    d.descriptor[predict::kDeviceSpeedColumn + 1],
                    d.descriptor[predict::kDeviceSpeedColumn + 2],
                    d.descriptor[predict::kDeviceSpeedColumn + 3]);
    return 0;
}

} // namespace

Action add_train_cross_device_command(CLI::App& app) {
    auto options = std::make_shared<TrainCrossDeviceOptions>();
    auto* command = app.add_subcommand(
        "train-cross-device",
        "Train the base model of cross-device predictors on several measured devices");
    add_measured_device_options(*command, options->data, options->models);
    command->add_option("--kind", options->training.kind, "The regressor: gbdt or mlp")
        ->capture_default_str();
    command
        ->add_option("--rules", options->training.rules,
                     "Fusion method the predictors' kernels come from (recorded)")
        ->capture_default_str();
    command
        ->add_option("--min-class-samples", options->training.min_class_samples,
                     "A cost class or type with fewer kernels gets no indicator column")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    command->add_option("--seed", options->training.seed, "Seed of the fit and the KMeans choice")
        ->capture_default_str();
    command->add_option("--out", options->out, "The base model file to write (atomically)")
        ->required();
    command->add_flag("--json", options->json, "Print the training summary as JSON");
    return [options] { return run_train_cross_device(*options); };
}

} // namespace cleave::cli
