// How every profiler measures: untimed warm-up runs, then rounds of timed runs until one round's
// end-to-end times are steady (coefficient of variation at most ProfileOptions::max_cv) or
// max_rounds rounds have run, in which case the steadiest round is reported.
#pragma once

#include "profiler.hpp"

#include <functional>
#include <vector>

namespace cleave::profile {

struct MeasuredRounds {
    std::vector<double> e2e_ms; // the reported round's times
    double cv = 0;              // their coefficient of variation
    int round = 0;              // the reported round, from 1
    int rounds = 0;             // rounds measured
    int first_run = 0;          // the reported round's first run, counting timed runs from 0
};

// `run(i)` runs the model once and returns its wall-clock time in ms; i counts the timed runs
// from 0 and is -1 for a warm-up. Progress lines go to options.control, which is checked
// before each run.
MeasuredRounds measure_rounds(const ProfileOptions& options,
                              const std::function<double(int timed_run)>& run);

} // namespace cleave::profile
