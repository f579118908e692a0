// A calibrated device in one file, to carry it from the machine it was measured on to the
// workstation that plans with it (cleave devices export / import): {"format":
// "cleave-device-bundle", "version": 1, "device": a device file, "predictor": a predictor file},
// xz-compressed when its name ends in ".xz".
#pragma once

#include "core/device/device_spec.hpp"

#include <filesystem>
#include <string>

namespace cleave::calibration {

// The user library's device `id` and its predictor as a bundle, written atomically. Throws
// InputError when `id` is not in the user library.
void export_device_bundle(const std::string& id, const std::filesystem::path& file);

// Puts a device into the user library: from a bundle, or from a device file alone (a datasheet
// device of the user's own, costed by a roofline) with an optional predictor file for it.
// Everything is checked before anything is written: the formats (errors name the file and the
// JSON pointer), the id (device::check_user_device_id), the predictor's device. Returns the
// device as installed.
device::DeviceSpec import_device(const std::string& file, const std::string& predictor_file = "");

} // namespace cleave::calibration
