// What `cleave profile` and `cleave import-profile` print about the run they added to a dataset:
// the same summary, slowest kernels and JSON fields for both.
#pragma once

#include "core/profile/measured_dataset.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace cleave::cli {

// {"out", "runtime", "cpu", "model", "threads", "input_shape", "runs", "median_ms", "cv",
//  "kernels", "kernel_sum_ms", "runs_in_file"}
nlohmann::ordered_json measured_run_json(const profile::MeasuredDataset& data,
                                         const profile::MeasuredRun& run, const std::string& out);

// One summary line, the ten slowest kernels, the file written.
void print_measured_run(const profile::MeasuredDataset& data, const profile::MeasuredRun& run,
                        const std::string& out);

} // namespace cleave::cli
