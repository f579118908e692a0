#include "baseline.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace cleave::predict {

namespace {

constexpr double kLaunchUs = 2;
constexpr double kMacsPerUs = 50e3;
constexpr double kBytesPerUs = 10e3;

} // namespace

NominalRoofline NominalRoofline::of(const std::vector<std::string>& names) {
    NominalRoofline b;
    for (std::size_t j = 0; j < names.size(); ++j) {
        if (names[j] == "macs")
            b.macs = static_cast<int>(j);
        if (names[j] == "bytes_in" || names[j] == "bytes_out" || names[j] == "weight_bytes")
            b.bytes.push_back(static_cast<int>(j));
    }
    return b;
}

double NominalRoofline::us(const double* row) const {
    double moved = 0;
    for (const int j : bytes)
        moved += row[j];
    return kLaunchUs + (macs >= 0 ? row[macs] / kMacsPerUs : 0) + moved / kBytesPerUs;
}

void NominalRoofline::write(nlohmann::json& doc) const {
    doc["baseline_macs"] = macs;
    doc["baseline_bytes"] = bytes;
}

NominalRoofline NominalRoofline::read(const nlohmann::json& doc, std::size_t feature_count) {
    const auto column = [&](const nlohmann::json& value, const std::string& pointer) {
        if (!value.is_number_integer() || value.get<long long>() < -1 ||
            value.get<long long>() >= static_cast<long long>(feature_count))
            throw std::runtime_error("at " + pointer + ": expected a feature column or -1");
        return value.get<int>();
    };
    NominalRoofline b;
    b.macs = column(doc.value("baseline_macs", nlohmann::json()), "/baseline_macs");
    const auto columns = doc.value("baseline_bytes", nlohmann::json());
    if (!columns.is_array())
        throw std::runtime_error("at /baseline_bytes: expected an array of feature columns");
    for (std::size_t j = 0; j < columns.size(); ++j)
        b.bytes.push_back(column(columns[j], "/baseline_bytes/" + std::to_string(j)));
    return b;
}

} // namespace cleave::predict
