#include "predictor_library.hpp"

#include "core/device/user_library.hpp"
#include "core/input_error.hpp"
#include "roofline.hpp"

#include <cstdlib>
#include <system_error>

namespace cleave::predict {

std::vector<std::filesystem::path> predictor_folders() {
    std::vector<std::filesystem::path> folders;
    if (const char* dir = std::getenv("CLEAVE_PREDICTOR_DIR"); dir && *dir)
        folders.emplace_back(dir);
    if (device::user_library_known())
        folders.push_back(device::user_predictors_folder());
    std::error_code error;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error)
        folders.push_back(exe.parent_path().parent_path() / "share" / "cleave" / "predictors");
    return folders;
}

std::optional<std::filesystem::path> shipped_predictor(const std::string& device_id) {
    for (const auto& folder : predictor_folders())
        for (const char* extension : {".json", ".json.xz"}) {
            const auto path = folder / (device_id + extension);
            std::error_code error;
            if (std::filesystem::is_regular_file(path, error))
                return path;
        }
    return std::nullopt;
}

Predictor predictor_for(const device::DeviceSpec& device, const std::string& file,
                        const std::string& rules, bool any_device) {
    if (file.empty()) {
        if (const auto shipped = shipped_predictor(device.id))
            return load_predictor(shipped->string());
        return roofline_predictor(device, rules);
    }
    auto predictor = load_predictor(file);
    if (!any_device && predictor.device != device.id)
        throw InputError(file, "/device",
                         "the predictor is for device '" + predictor.device + "', not '" +
                             device.id + "'; train one for " + device.id +
                             " (cleave train --device " + device.id + ")");
    return predictor;
}

} // namespace cleave::predict
