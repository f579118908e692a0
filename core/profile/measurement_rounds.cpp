#include "measurement_rounds.hpp"

#include "core/statistics.hpp"

#include <cstdio>
#include <string>

namespace cleave::profile {

namespace {

std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
    return text;
}

std::string milliseconds(double ms) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f ms", ms);
    return text;
}

} // namespace

MeasuredRounds measure_rounds(const ProfileOptions& options,
                              const std::function<double(int timed_run)>& run) {
    auto say = [&](const std::string& line) { report_line(options.control, line); };
    const auto run_once = [&](int timed_run) {
        checkpoint(options.control);
        return run(timed_run);
    };
    say(std::to_string(options.warmups) + " warm-up runs, " + std::to_string(options.threads) +
        " thread" + (options.threads == 1 ? "" : "s"));
    for (int i = 0; i < options.warmups; ++i)
        run_once(-1);

    MeasuredRounds best;
    int timed = 0;
    for (int round = 1; round <= options.max_rounds; ++round) {
        MeasuredRounds current;
        current.round = round;
        current.first_run = timed;
        for (int i = 0; i < options.repeats; ++i)
            current.e2e_ms.push_back(run_once(timed++));
        current.cv = coefficient_of_variation(current.e2e_ms);
        const bool steady = current.cv <= options.max_cv;
        const std::string over = " > " + percent(options.max_cv);
        say("round " + std::to_string(round) + ": " + std::to_string(options.repeats) +
            " runs, median " + milliseconds(median(current.e2e_ms)) + ", cv " +
            percent(current.cv) +
            (steady                       ? ""
             : round < options.max_rounds ? over + ", again"
                                          : over + ", keeping the steadiest round"));
        if (best.e2e_ms.empty() || current.cv < best.cv)
            best = std::move(current);
        best.rounds = round;
        if (steady)
            break;
    }
    return best;
}

} // namespace cleave::profile
