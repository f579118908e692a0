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
    double engine_ms = 0; // the engine's own time (ONNX Runtime's session.run); 0 when not given
    double receive_wait_ms = 0;
    double send_wait_ms = 0;
    double wall_ms = 0;
    double peak_rss_kib = 0;
};

// What `run-partition --cluster` adds beside the measurement (for a decode run the throughput is
// the decode steps' tokens per second); NaN where a ratio has no measurement.
struct PredictedRun {
    double throughput_ips = 0;
    double measured_over_predicted = 0;
    std::optional<double> ttft_ms, tpot_ms; // a decode run's
};

// A decode run's figures (`run-partition --generate`).
struct DecodeRun {
    int prompt_tokens = 0;
    int generate = 0;
    int sequences = 1;
    double ttft_ms = 0;
    double tpot_ms = 0;
    double tokens_per_s = 0;
    std::optional<double> decode_tokens_per_s; // null with one token per sequence
    std::optional<double> hop_ms;              // one sequence only
    std::optional<int> token_mismatches;       // with the check
    std::optional<int> near_ties;              // with the check: tokens that differ at a tie
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
    std::optional<DecodeRun> decode;
};

// Reads run-summary.json's text; an InputError names `file`, the JSON pointer and what was
// expected there.
RunSummary parse_run_summary(const std::string& text, const std::string& file);

} // namespace cleave::autodice
