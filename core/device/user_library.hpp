// The user's device library: devices calibrated on this or another machine (cleave calibrate,
// cleave devices import), kept under ${XDG_DATA_HOME:-~/.local/share}/cleave/ as devices/ID.json
// and predictors/ID.json.xz. Every command and the studio read them like built-in devices;
// nothing is ever written into the install tree.
#pragma once

#include "device_spec.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cleave::device {

// Whether XDG_DATA_HOME or HOME says where the library is; without either, it is empty.
bool user_library_known();
// ${XDG_DATA_HOME}/cleave, else $HOME/.local/share/cleave. Throws InputError when neither
// variable is set.
std::filesystem::path user_data_folder();
std::filesystem::path user_devices_folder();                      // devices/
std::filesystem::path user_predictors_folder();                   // predictors/
std::filesystem::path user_device_file(const std::string& id);    // devices/ID.json
std::filesystem::path user_predictor_file(const std::string& id); // predictors/ID.json.xz

// The user's devices by id; empty when the folder does not exist. A file that is not a device
// file throws its InputError, naming it.
std::vector<DeviceSpec> user_devices();
std::optional<DeviceSpec> user_device(const std::string& id);

// Whether an id can name a user device: lower-case kebab case, and neither a built-in id nor
// this-machine (a calibration describes what was measured, not a datasheet). Throws
// InputError(where, id, ...) saying why not.
void check_user_device_id(const std::string& id, const std::string& where);

// Writes the device and its predictor (the predictor file's JSON text, stored xz-compressed)
// into the library, creating its folders: each file atomically, the predictor first, so the
// device never appears without it. Replaces a device of the same id. An empty predictor removes
// the id's old one: the device is then costed from its datasheet figures (a roofline).
void install_user_device(const DeviceSpec& device, std::string_view predictor_json);

// Removes a user device and its predictor; false when there was none.
bool remove_user_device(const std::string& id);

} // namespace cleave::device
