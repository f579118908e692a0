// A nominal roofline over kernel features: a launch, MACs at 50 GMAC/s, bytes at 10 GB/s.
// Learned regressors (gbdt, mlp) predict a kernel's time as a ratio to it: that ratio levels
// off for big kernels, where the time itself keeps growing beyond what a model saw.
#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace cleave::predict {

struct NominalRoofline {
    int macs = -1;          // column of "macs", -1 when absent
    std::vector<int> bytes; // columns of "bytes_in", "bytes_out", "weight_bytes"

    static NominalRoofline of(const std::vector<std::string>& feature_names);
    double us(const double* row) const;

    // As "baseline_macs" and "baseline_bytes" fields of a regressor's JSON, and back; read
    // throws InputError (place "/baseline_bytes/1", "expected ...") on columns out of range.
    void write(nlohmann::json& doc) const;
    static NominalRoofline read(const nlohmann::json& doc, std::size_t feature_count);
};

} // namespace cleave::predict
