#include "baseline.hpp"

#include "core/json_reader.hpp"

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
    const JsonReader reader("");
    const int last = static_cast<int>(feature_count) - 1;
    NominalRoofline b;
    b.macs = reader.whole_number(doc, "", "baseline_macs", true, -1, last).value();
    const auto* columns =
        reader.array(doc, "", "baseline_bytes", true, "an array of feature columns");
    for (std::size_t j = 0; j < columns->size(); ++j)
        b.bytes.push_back(
            reader.whole_number_at((*columns)[j], child_pointer("/baseline_bytes", j), 0, last));
    return b;
}

} // namespace cleave::predict
