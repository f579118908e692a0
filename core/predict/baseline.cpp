#include "baseline.hpp"

#include "core/json_reader.hpp"
#include "nonnegative_least_squares.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
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
        if (names[j] == "bytes_in" || names[j] == "bytes_out")
            b.law_bytes.push_back(static_cast<int>(j));
    }
    return b;
}

void NominalRoofline::fit(const std::vector<std::string>& names, const std::vector<double>& x,
                          const std::vector<double>& y, std::size_t min_rows) {
    laws.clear();
    const std::size_t columns = names.size();
    const std::size_t rows = columns ? x.size() / columns : 0;
    for (std::size_t column = 0; column < columns; ++column) {
        if (!names[column].starts_with("class=") || !names[column].ends_with("/gemv"))
            continue;
        std::vector<std::size_t> members;
        for (std::size_t i = 0; i < rows; ++i)
            if (y[i] > 0 && x[i * columns + column] > 0)
                members.push_back(i);
        if (members.size() < min_rows)
            continue;
        // Relative error: each row divided by its time; each column scaled to at most 1, so that
        // the solver's sweeps see parts of like size.
        Eigen::MatrixXd a(static_cast<Eigen::Index>(members.size()), 3);
        for (std::size_t k = 0; k < members.size(); ++k) {
            const double* row = &x[members[k] * columns];
            a.row(static_cast<Eigen::Index>(k)) << 1.0, macs >= 0 ? row[macs] : 0.0, law_moved(row);
            a.row(static_cast<Eigen::Index>(k)) /= y[members[k]];
        }
        const Eigen::Vector3d scale = a.cwiseAbs().colwise().maxCoeff().cwiseMax(1e-300);
        const Eigen::VectorXd ones = Eigen::VectorXd::Ones(a.rows());
        const Eigen::Vector3d chosen =
            nonnegative_least_squares(a * scale.cwiseInverse().asDiagonal(), ones, ones,
                                      Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero())
                .cwiseQuotient(scale);
        if (!chosen.allFinite() || chosen.isZero())
            continue;
        laws.push_back({static_cast<int>(column), chosen(0), chosen(1), chosen(2)});
    }
}

namespace {

double sum_of(const std::vector<int>& columns, const double* row) {
    double sum = 0;
    for (const int j : columns)
        sum += row[j];
    return sum;
}

// A list of feature columns at `key`: nullopt where it is absent and may be.
std::optional<std::vector<int>> read_columns(const JsonReader& reader, const nlohmann::json& doc,
                                             const char* key, bool required, int last) {
    const auto* columns = reader.array(doc, "", key, required, "an array of feature columns");
    if (!columns)
        return std::nullopt;
    std::vector<int> list;
    for (std::size_t j = 0; j < columns->size(); ++j)
        list.push_back(reader.whole_number_at((*columns)[j],
                                              child_pointer(std::string("/") + key, j), 0, last));
    return list;
}

} // namespace

double NominalRoofline::moved(const double* row) const {
    return sum_of(bytes, row);
}

double NominalRoofline::law_moved(const double* row) const {
    return sum_of(law_bytes, row);
}

double NominalRoofline::us(const double* row) const {
    const double work = macs >= 0 ? row[macs] : 0;
    for (const auto& law : laws)
        if (row[law.column] > 0) {
            const double t =
                law.launch_us + work * law.us_per_mac + law_moved(row) * law.us_per_byte;
            if (t > 0)
                return t;
        }
    return kLaunchUs + work / kMacsPerUs + moved(row) / kBytesPerUs;
}

void NominalRoofline::write(nlohmann::json& doc) const {
    doc["baseline_macs"] = macs;
    doc["baseline_bytes"] = bytes;
    if (laws.empty())
        return;
    auto list = nlohmann::json::array();
    for (const auto& law : laws)
        list.push_back({law.column, law.launch_us, law.us_per_mac, law.us_per_byte});
    doc["baseline_laws"] = list;
    doc["baseline_law_bytes"] = law_bytes;
}

NominalRoofline NominalRoofline::read(const nlohmann::json& doc, std::size_t feature_count) {
    const JsonReader reader("");
    const int last = static_cast<int>(feature_count) - 1;
    NominalRoofline b;
    b.macs = reader.whole_number(doc, "", "baseline_macs", true, -1, last).value();
    b.bytes = *read_columns(reader, doc, "baseline_bytes", true, last);
    if (const auto* laws = reader.array(doc, "", "baseline_laws", false,
                                        "an array of [column, launch, per MAC, per byte]")) {
        for (std::size_t k = 0; k < laws->size(); ++k) {
            const std::string at = child_pointer("/baseline_laws", k);
            const auto& entry = (*laws)[k];
            if (!entry.is_array() || entry.size() != 4)
                reader.fail(at, "expected [column, launch, per MAC, per byte]");
            ClassLaw law;
            law.column = reader.whole_number_at(entry[0], child_pointer(at, 0), 0, last);
            double* parts[] = {&law.launch_us, &law.us_per_mac, &law.us_per_byte};
            for (std::size_t p = 0; p < 3; ++p) {
                const auto& v = entry[p + 1];
                if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
                    reader.fail(child_pointer(at, p + 1), "expected a number >= 0");
                *parts[p] = v.get<double>();
            }
            b.laws.push_back(law);
        }
    }
    b.law_bytes = read_columns(reader, doc, "baseline_law_bytes", false, last).value_or(b.bytes);
    return b;
}

} // namespace cleave::predict
