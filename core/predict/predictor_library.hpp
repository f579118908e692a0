// Which predictor a device gets: a file the user names, else the user library's for its id
// (cleave calibrate), else the one shipped in resources/predictors/ (<id>.json or <id>.json.xz),
// else an uncalibrated roofline from its spec.
#pragma once

#include "core/device/device_spec.hpp"
#include "predictor.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cleave::predict {

// In search order: $CLEAVE_PREDICTOR_DIR, the user library's predictors folder, then
// <the executable's folder>/../share/cleave/predictors (installed, or in the build tree a link to
// the source tree's resources/predictors).
std::vector<std::filesystem::path> predictor_folders();

// The user library's or shipped predictor file for a device id, if there is one.
std::optional<std::filesystem::path> shipped_predictor(const std::string& device_id);

// `file` empty: shipped, else roofline. A file trained for another device is refused
// (InputError naming the file and /device) unless `any_device`.
Predictor predictor_for(const device::DeviceSpec& device, const std::string& file,
                        const std::string& rules, bool any_device = false);

} // namespace cleave::predict
