#include "user_library.hpp"

#include "../atomic_file.hpp"
#include "../input_error.hpp"
#include "../xz_codec.hpp"
#include "device_library.hpp"
#include "this_machine.hpp"

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace cleave::device {

namespace fs = std::filesystem;

namespace {

void create_folder(const fs::path& folder) {
    std::error_code error;
    fs::create_directories(folder, error);
    if (error)
        throw InputError(folder.string(), "",
                         "cannot create the user library folder (" + error.message() + ")");
}

} // namespace

bool user_library_known() {
    const char* xdg = std::getenv("XDG_DATA_HOME");
    const char* home = std::getenv("HOME");
    return (xdg && *xdg && fs::path(xdg).is_absolute()) || (home && *home);
}

fs::path user_data_folder() {
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg && fs::path(xdg).is_absolute())
        return fs::path(xdg) / "cleave";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".local" / "share" / "cleave";
    throw InputError("", "$HOME",
                     "neither XDG_DATA_HOME nor HOME is set; the user library needs one of them");
}

fs::path user_devices_folder() {
    return user_data_folder() / "devices";
}

fs::path user_predictors_folder() {
    return user_data_folder() / "predictors";
}

fs::path user_device_file(const std::string& id) {
    return user_devices_folder() / (id + ".json");
}

fs::path user_predictor_file(const std::string& id) {
    return user_predictors_folder() / (id + ".json.xz");
}

std::vector<DeviceSpec> user_devices() {
    std::vector<DeviceSpec> devices;
    if (!user_library_known())
        return devices;
    std::error_code error;
    const fs::path folder = user_devices_folder();
    if (!fs::is_directory(folder, error))
        return devices;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
        const auto& path = entry.path();
        if (path.extension() != ".json" || path.filename().string().starts_with("."))
            continue;
        DeviceSpec device = load_device_spec(path.string());
        if (device.id != path.stem().string())
            throw InputError(path.string(), "/id",
                             "expected \"" + path.stem().string() +
                                 "\", the file's name: a user device file is named for its id");
        devices.push_back(std::move(device));
    }
    std::sort(devices.begin(), devices.end(),
              [](const DeviceSpec& a, const DeviceSpec& b) { return a.id < b.id; });
    return devices;
}

std::optional<DeviceSpec> user_device(const std::string& id) {
    if (!user_library_known())
        return std::nullopt;
    std::error_code error;
    const fs::path path = user_device_file(id);
    if (id.empty() || id.find('/') != std::string::npos || !fs::is_regular_file(path, error))
        return std::nullopt;
    return load_device_spec(path.string());
}

void check_user_device_id(const std::string& id, const std::string& where) {
    if (id.size() > kMaxDeviceIdLength)
        throw InputError(where, id.substr(0, 16) + "...",
                         "expected a device id of at most " + std::to_string(kMaxDeviceIdLength) +
                             " characters, found " + std::to_string(id.size()));
    if (!is_device_id(id))
        throw InputError(where, id,
                         "expected a device id in lower-case kebab case, such as "
                         "\"my-laptop-ort-1t\"");
    if (is_builtin_device(id))
        throw InputError(where, id,
                         "is a built-in device of the library; calibrate under an id of "
                         "your own, such as \"" +
                             id + "-ort-1t\"");
    if (id == kThisMachine)
        throw InputError(where, id,
                         "names the detected machine; calibrate under an id of your own, such as "
                         "\"this-machine-ort-1t\"");
}

void install_user_device(const DeviceSpec& device, std::string_view predictor_json) {
    create_folder(user_devices_folder());
    std::error_code error;
    if (predictor_json.empty()) {
        fs::remove(user_predictor_file(device.id), error);
    } else {
        create_folder(user_predictors_folder());
        write_file_atomically(user_predictor_file(device.id), xz_compress(predictor_json));
    }
    write_file_atomically(user_device_file(device.id), device_spec_json(device));
}

bool remove_user_device(const std::string& id) {
    std::error_code error;
    const bool had = fs::remove(user_device_file(id), error);
    fs::remove(user_predictor_file(id), error);
    return had;
}

} // namespace cleave::device
