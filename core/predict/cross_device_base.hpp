// The model a cross-device predictor adapts (cross_device.hpp): one regressor (gbdt) over the
// kernel features, indicator columns of cost classes and types, and the device descriptor
// (device_descriptor.hpp), trained on the distinct kernels of several measured devices. Each
// device's times are divided by its overall speed, so the trees learn how a device's kernels
// differ from one another (big convolutions gain from threads, small elementwise ones do not)
// rather than how fast the device is, which a few of its kernels tell. Stored as JSON
// ("cleave-cross-device-base", docs/predictors.md); the one installed is found like a shipped
// predictor, as resources/predictors/cross-device-cpu.json.xz.
#pragma once

#include "device_descriptor.hpp"
#include "predictor.hpp"
#include "profiled_kernels.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cleave::predict {

inline constexpr const char* kCrossDeviceBaseName = "cross-device-cpu";

// A measured device to train on.
struct CrossDeviceDevice {
    std::string id; // "xeon-ort-4t", "this-machine (OpenCV 4.6.0 DNN, 1 thread)"
    DeviceFigures figures;
    ProfiledKernels kernels;
};

struct CrossDeviceBase {
    struct Member {
        std::string id;
        int kernels = 0;                // distinct kernels trained on
        std::vector<double> descriptor; // from all of them
    };

    std::string kind = "gbdt";
    std::string rules = "ort-cpu";
    // The kernel features and indicator columns: what a predictor adapted from it reads. The
    // model reads these, then device_descriptor_names().
    std::vector<std::string> features;
    std::vector<Member> devices;
    std::shared_ptr<const Regressor> model;
    std::string file; // where it was read from
};

// A base model's prediction for `count` rows of `columns` (row-major: the kernel features and
// indicator columns) on a device of this descriptor, as the time on a device whose overall speed
// is 1: divide by the descriptor's device_speed for the device's own.
void predict_on_device(const Regressor& model, const double* rows, std::size_t count,
                       std::size_t columns, const std::vector<double>& descriptor, double* out);

// The kinds a base can be: one regressor over every kernel.
bool is_cross_device_base_kind(const std::string& kind);

struct CrossDeviceTrainingOptions {
    std::string kind = "gbdt"; // a regressor over every kernel (regressor_kinds())
    std::string rules = "ort-cpu";
    int min_class_samples = 12;
    unsigned seed = 1;
    // A training device's rows take their descriptor in turn from its KMeans-chosen kernels at
    // each of these budgets and from all of them, so the trees meet descriptors as noisy as a
    // new device's few samples give.
    std::vector<int> descriptor_budgets{5, 20, 50, 200};
};

// Throws InputError with fewer than two devices or a device without timed kernels, or for a
// kind that is not installed.
CrossDeviceBase train_cross_device_base(const std::vector<CrossDeviceDevice>& devices,
                                        const CrossDeviceTrainingOptions& options);

std::string cross_device_base_json(const CrossDeviceBase& base);
// Atomically, xz-compressed for a path ending in ".xz".
void save_cross_device_base(const CrossDeviceBase& base, const std::filesystem::path& path);
// Throws InputError (file, JSON pointer, expected) for anything else.
CrossDeviceBase load_cross_device_base(const std::string& path);

// The installed base (predictor_folders(), named kCrossDeviceBaseName), if there is one.
std::optional<std::filesystem::path> installed_cross_device_base();

} // namespace cleave::predict
