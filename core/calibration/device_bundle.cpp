#include "device_bundle.hpp"

#include "core/atomic_file.hpp"
#include "core/device/user_library.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/predict/predictor.hpp"
#include "core/xz_codec.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>

namespace cleave::calibration {

namespace {

constexpr const char* kFormat = "cleave-device-bundle";
constexpr int kVersion = 1;
constexpr const char* kExpected =
    "a device bundle (cleave devices export) or a device file (\"format\": \"cleave-device\")";

// The device document at `at` of `file`, its errors placed there.
device::DeviceSpec device_at(const nlohmann::json& document, const std::string& file,
                             const std::string& at) {
    try {
        auto d = device::parse_device_spec(document.dump(), file);
        d.file = file;
        return d;
    } catch (const InputError& e) {
        rethrow_under(e, file, at);
    }
}

} // namespace

void export_device_bundle(const std::string& id, const std::filesystem::path& file) {
    const auto device = device::user_device(id);
    if (!device)
        throw InputError("", id,
                         "is not in the user library (" + device::user_devices_folder().string() +
                             "); expected a device written by cleave calibrate or imported");
    const auto predictor_path = device::user_predictor_file(id).string();
    nlohmann::ordered_json bundle{
        {"format", kFormat},
        {"version", kVersion},
        {"device", nlohmann::ordered_json::parse(device::device_spec_json(*device))}};
    std::error_code error;
    if (std::filesystem::exists(predictor_path, error))
        bundle["predictor"] = read_ordered_json_file(predictor_path, "a predictor file");
    const std::string text = bundle.dump(1) + "\n";
    write_file_atomically(file, file.extension() == ".xz" ? xz_compress(text) : text);
}

device::DeviceSpec import_device(const std::string& file, const std::string& predictor_file) {
    const auto document = read_ordered_json_file(file, kExpected);
    const JsonReader reader(file);
    if (!document.is_object()) // kept in order: written back as it came
        reader.fail("", std::string("expected ") + kExpected);
    const auto at = [&](const char* key) { // a member, or null
        const auto it = document.find(key);
        return it == document.end() ? nlohmann::ordered_json() : *it;
    };
    const auto format_value = at("format");
    const std::string format =
        format_value.is_string() ? format_value.get<std::string>() : std::string();
    device::DeviceSpec device;
    nlohmann::ordered_json predictor_document;
    std::string predictor_place; // the file and pointer its errors name
    if (format == kFormat) {
        if (const auto version = at("version");
            !version.is_number_integer() || version.get<std::int64_t>() != kVersion)
            reader.fail("/version", "expected " + std::to_string(kVersion));
        if (!document.contains("device") || !document["device"].is_object())
            reader.fail("/device", "expected a device file's object");
        device = device_at(nlohmann::json(document["device"]), file, "/device");
        if (!predictor_file.empty())
            throw InputError(predictor_file, "--predictor",
                             "a bundle carries its own predictor; give the bundle alone");
        if (document.contains("predictor")) {
            predictor_document = document["predictor"];
            predictor_place = "/predictor";
        }
    } else if (format == "cleave-device") {
        device = device_at(nlohmann::json(document), file, "");
        if (!predictor_file.empty())
            predictor_document = read_ordered_json_file(predictor_file, "a predictor file");
    } else {
        reader.fail("/format", std::string("expected \"") + kFormat + "\" or \"cleave-device\" (" +
                                   kExpected + ")");
    }
    device::check_user_device_id(device.id, file);
    std::string predictor_text;
    if (!predictor_document.is_null()) {
        const std::string where = predictor_place.empty() ? predictor_file : file;
        const auto predictor =
            predict::parse_predictor(nlohmann::json(predictor_document), where, predictor_place);
        if (predictor.device != device.id)
            throw InputError(where, predictor_place + "/device",
                             "the predictor is for device '" + predictor.device + "', not '" +
                                 device.id + "'");
        predictor_text = predictor_document.dump(1) + "\n";
    }
    device::install_user_device(device, predictor_text);
    auto installed = device::user_device(device.id);
    return installed ? *installed : device;
}

} // namespace cleave::calibration
