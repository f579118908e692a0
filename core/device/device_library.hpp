// The device library: the built-in devices (resources/devices/*.json, compiled into the
// program), the user's calibrated devices (user_library.hpp) and `this-machine`; wherever a
// device id is accepted, a path to a user's device file is too.
#pragma once

#include "device_spec.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cleave::device {

// The built-in ids in library order, then the user library's, then "this-machine".
std::vector<std::string> library_device_ids();
// The built-in devices in library order, then the user library's (without this-machine).
std::vector<DeviceSpec> library_devices();
// A built-in device, a user device or this-machine; nullopt for any other id.
std::optional<DeviceSpec> library_device(const std::string& id);
bool is_builtin_device(const std::string& id);

// Where a device of the library comes from: "built-in", "user" (calibrated, in the user
// library), "detected" (this-machine), or "file" for a device file given by path.
std::string device_origin(const DeviceSpec& device);

// Whether a device reference names a file rather than a library id (it has a '/' or ends in
// ".json").
bool is_device_file(const std::string& reference);

// A library id or a device file. Throws InputError(where, reference, ...) listing the known ids
// for an unknown id; a bad file's own error names that file.
DeviceSpec find_device(const std::string& reference, const std::string& where = "");

} // namespace cleave::device
