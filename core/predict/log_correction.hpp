// How a model trained on other devices is corrected for a new one from a few of its kernels: in
// log space, log(measured / predicted) = offset + slope x (log nominal time, standardised) + an
// offset per indicator column the kernel has (its cost class and type), samples weighted. A
// ridge penalty pulls the slope and the per-column offsets toward 0, so a few kernels give one
// factor and a few hundred give each kind of kernel its own; the penalties are chosen by
// leave-one-out error (closed form for ridge regression).
#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace cleave::predict {

struct CorrectionSample {
    double log_ratio = 0;      // log(measured / predicted)
    double log_nominal_us = 0; // log of the nominal roofline time (baseline.hpp): the kernel's size
    std::vector<std::size_t> columns; // the indicator columns set in its row
    double weight = 1;                // > 0; weights are relative (penalties count samples)
};

struct LogCorrection {
    double offset = 0;
    double slope = 0;  // per standard deviation of log_nominal_us over the samples
    double center = 0; // their mean log_nominal_us
    double scale = 1;  // their standard deviation
    std::vector<std::pair<std::size_t, double>> column_offsets; // by indicator column, ascending
    double column_penalty = 0, slope_penalty = 0;               // as chosen, for the record

    // log(corrected / predicted) for a kernel whose row is `row`.
    double log_factor(const double* row, double log_nominal_us) const;

    // Fewer than 3 samples get the mean log ratio alone. Throws std::invalid_argument without
    // samples.
    static LogCorrection fit(const std::vector<CorrectionSample>& samples);

    void write(nlohmann::json& doc) const;
    // Throws std::runtime_error ("at /columns/2/column: expected ...") for a column at or beyond
    // `feature_count`, or anything else it did not write.
    static LogCorrection read(const nlohmann::json& doc, std::size_t feature_count);
};

} // namespace cleave::predict
