// run-summary.json, what rank 0 of a partition run writes into its package (docs/autodice.md),
// read in one place for everyone who reads it: the run-partition command that prints it and
// the measurements of the DSE and the studio.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cleave::autodice {

struct RankSummary {
    int rank = 0;
    std::string key; // the PE key the rank ran on
    std::string host;
    double compute_ms = 0;
    double compute_ms_per_input = 0;
    double receive_wait_ms = 0;
    double send_wait_ms = 0;
    double wall_ms = 0;
    double peak_rss_kib = 0;
};

// What `run-partition --cluster` adds beside the measurement.
struct PredictedRun {
    double throughput_ips = 0;
    double measured_over_predicted = 0;
};

struct RunSummary {
    std::string runtime;
    int ranks = 0;
    int inputs = 0;
    double wall_ms = 0;
    double throughput_ips = 0;
    std::optional<double> max_abs_diff; // null: run without the whole model's check
    std::vector<RankSummary> per_rank; // one per rank, in rank order
    std::optional<PredictedRun> predicted;
};

// Reads run-summary.json's text; an InputError names `file`, the JSON pointer and what was
// expected there.
RunSummary parse_run_summary(const std::string& text, const std::string& file);

} // namespace cleave::autodice
