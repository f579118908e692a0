#include "device_library.hpp"

#include "../input_error.hpp"
#include "this_machine.hpp"

namespace cleave::device {

// Defined in the file CMake generates from resources/devices/*.json.
extern const std::vector<std::pair<std::string, std::string>> kBuiltinDevices;

namespace {
DeviceSpec builtin(const std::string& id, const std::string& text) {
    DeviceSpec device = parse_device_spec(text, "resources/devices/" + id + ".json");
    device.file = "built-in";
    return device;
}
} // namespace

std::vector<std::string> library_device_ids() {
    std::vector<std::string> ids;
    for (const auto& [id, _] : kBuiltinDevices)
        ids.push_back(id);
    ids.push_back(kThisMachine);
    return ids;
}

std::vector<DeviceSpec> library_devices() {
    std::vector<DeviceSpec> devices;
    for (const auto& [id, text] : kBuiltinDevices)
        devices.push_back(builtin(id, text));
    return devices;
}

std::optional<DeviceSpec> library_device(const std::string& id) {
    if (id == kThisMachine)
        return detect_this_machine();
    for (const auto& [name, text] : kBuiltinDevices)
        if (name == id)
            return builtin(name, text);
    return std::nullopt;
}

bool is_device_file(const std::string& reference) {
    return reference.find('/') != std::string::npos || reference.ends_with(".json");
}

DeviceSpec find_device(const std::string& reference, const std::string& where) {
    if (auto device = library_device(reference))
        return *device;
    if (is_device_file(reference))
        return load_device_spec(reference);
    std::string ids;
    for (const auto& id : library_device_ids())
        ids += (ids.empty() ? "" : ", ") + id;
    throw InputError(where, reference,
                     "no such device; expected one of " + ids + " or a device file (.json)");
}

} // namespace cleave::device
