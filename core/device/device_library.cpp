#include "device_library.hpp"

#include "../input_error.hpp"
#include "this_machine.hpp"
#include "user_library.hpp"

namespace cleave::device {

// Defined in the file CMake generates from resources/devices/*.json.
extern const std::vector<std::pair<std::string, std::string>> kBuiltinDevices;

namespace {

constexpr const char* kBuiltIn = "built-in";

DeviceSpec builtin(const std::string& id, const std::string& text) {
    DeviceSpec device = parse_device_spec(text, "resources/devices/" + id + ".json");
    device.file = kBuiltIn;
    return device;
}

} // namespace

std::vector<std::string> library_device_ids() {
    std::vector<std::string> ids;
    for (const auto& [id, _] : kBuiltinDevices)
        ids.push_back(id);
    for (const auto& device : user_devices())
        ids.push_back(device.id);
    ids.push_back(kThisMachine);
    return ids;
}

std::vector<DeviceSpec> library_devices() {
    std::vector<DeviceSpec> devices;
    for (const auto& [id, text] : kBuiltinDevices)
        devices.push_back(builtin(id, text));
    for (auto& device : user_devices())
        devices.push_back(std::move(device));
    return devices;
}

std::optional<DeviceSpec> library_device(const std::string& id) {
    if (id == kThisMachine)
        return detect_this_machine();
    for (const auto& [name, text] : kBuiltinDevices)
        if (name == id)
            return builtin(name, text);
    return user_device(id);
}

bool is_builtin_device(const std::string& id) {
    for (const auto& [name, _] : kBuiltinDevices)
        if (name == id)
            return true;
    return false;
}

std::string device_origin(const DeviceSpec& device) {
    if (device.file == kBuiltIn)
        return kBuiltIn;
    if (device.file == "detected")
        return "detected";
    std::error_code error;
    if (!device.file.empty() && !device.id.empty() &&
        std::filesystem::equivalent(device.file, user_device_file(device.id), error))
        return "user";
    return "file";
}

bool is_device_file(const std::string& reference) {
    return reference.find('/') != std::string::npos || reference.ends_with(".json");
}

DeviceSpec find_device(const std::string& reference, const std::string& where) {
    if (!is_device_file(reference))
        if (auto device = library_device(reference))
            return *device;
    if (is_device_file(reference))
        return load_device_spec(reference);
    std::string ids;
    for (const auto& id : library_device_ids())
        ids += (ids.empty() ? "" : ", ") + id;
    throw InputError(where, reference,
                     "no such device; expected one of " + ids +
                         ", a device calibrated with cleave calibrate, or a device file (.json)");
}

} // namespace cleave::device
