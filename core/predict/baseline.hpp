// A nominal roofline over kernel features: a launch, MACs at 50 GMAC/s, bytes at 10 GB/s, and for
// the classes whose products have one row, their own fitted law. Learned regressors (gbdt, mlp)
// predict a kernel's time as a ratio to it: that ratio levels off for big kernels, where the
// time itself keeps growing beyond what a model saw.
#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace cleave::predict {

struct NominalRoofline {
    int macs = -1;          // column of "macs", -1 when absent
    std::vector<int> bytes; // columns of "bytes_in", "bytes_out", "weight_bytes"

    // The own roofline of a class whose products have one row (the "/gemv" classes: a batch-1
    // classifier head, a decode step's projections and its attention over the cache), fitted:
    // launch + MACs x us_per_mac + bytes x us_per_byte for the rows whose indicator column is
    // set. Such a kernel reads every weight or cached key and value for a single row, and ONNX
    // Runtime's CPU attention runs its MACs at a few GMAC/s where a convolution runs at tens, so
    // against the nominal roofline its ratio varies with the mix of MACs and bytes, which trees
    // cannot carry to shapes they never saw; its class's law carries it. Other classes keep the
    // nominal roofline: a fitted law for every class left the rows of a class too rare for one
    // measured against another scale than the rest (a held-out family's LayerNormalization came
    // out 6x too slow).
    struct ClassLaw {
        int column = -1;
        double launch_us = 0, us_per_mac = 0, us_per_byte = 0;
    };
    std::vector<ClassLaw> laws; // the one whose column is set applies; none: the nominal one
    // Columns of the bytes a law counts: those read and written ("bytes_in", "bytes_out"), where
    // a weight is read once and a rotary table only in the rows read; files whose laws were
    // fitted before have none, and their laws count `bytes`.
    std::vector<int> law_bytes;

    static NominalRoofline of(const std::vector<std::string>& feature_names);
    // Fits a law for each "class=.../gemv" column with at least `min_rows` rows: the
    // non-negative parts that minimise the squared relative error.
    void fit(const std::vector<std::string>& feature_names, const std::vector<double>& x,
             const std::vector<double>& y, std::size_t min_rows = 12);
    double us(const double* row) const;
    double moved(const double* row) const; // the row's bytes: the sum of the `bytes` columns
    double law_moved(const double* row) const; // the sum of the `law_bytes` columns

    // As "baseline_macs", "baseline_bytes" and (where fitted) "baseline_laws" and
    // "baseline_law_bytes" fields of a
    // regressor's JSON, and back; read throws InputError (place "/baseline_bytes/1", "expected
    // ...") on columns out of range or parts that are negative.
    void write(nlohmann::json& doc) const;
    static NominalRoofline read(const nlohmann::json& doc, std::size_t feature_count);
};

} // namespace cleave::predict
