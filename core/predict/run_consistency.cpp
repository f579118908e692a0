#include "run_consistency.hpp"

#include "core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace cleave::predict {

ConsistencySummary run_consistency(const std::vector<const RunData*>& runs) {
    using Signature = std::pair<std::string, std::vector<double>>;
    std::map<Signature, std::vector<std::pair<std::size_t, double>>> twins; // run index, us
    ConsistencySummary summary;
    for (std::size_t r = 0; r < runs.size(); ++r)
        for (const auto& s : runs[r]->samples) {
            twins[{s.model_class, s.features}].push_back({r, s.us});
            ++summary.timed_kernels;
        }
    summary.distinct_kernels = static_cast<int>(twins.size());

    double error_sum = 0;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const RunData* run = runs[r];
        RunConsistency c;
        c.run = run;
        double kernel_us = 0, twin_us = 0, oracle_us = 0, log_ratio = 0;
        for (const auto& s : run->samples) {
            std::vector<double> elsewhere;
            for (const auto& [other, us] : twins[{s.model_class, s.features}])
                if (other != r)
                    elsewhere.push_back(us);
            kernel_us += s.us;
            if (elsewhere.empty()) {
                oracle_us += s.us; // no twin elsewhere: the oracle knows its time
                continue;
            }
            const double median_us = cleave::median(elsewhere);
            oracle_us += median_us;
            twin_us += s.us;
            log_ratio += s.us * std::log(s.us / median_us);
        }
        if (kernel_us <= 0 || run->e2e_ms <= 0)
            continue;
        c.twin_share = twin_us / kernel_us;
        c.speed_factor = twin_us > 0 ? std::exp(log_ratio / twin_us) : 1.0;
        // The oracle keeps the run's measured time outside its timed kernels as it is.
        c.oracle_error = (oracle_us - kernel_us) / 1000.0 / run->e2e_ms;
        error_sum += std::abs(c.oracle_error);
        summary.runs.push_back(c);
    }
    if (!summary.runs.empty())
        summary.oracle_mape = error_sum / static_cast<double>(summary.runs.size());
    return summary;
}

SizeConsistency size_consistency(const std::vector<const RunData*>& runs) {
    std::map<std::string, std::vector<double>> by_model; // e2e medians, ms
    for (const RunData* r : runs)
        if (r->e2e_ms > 0)
            by_model[r->name.substr(0, r->name.find(' '))].push_back(r->e2e_ms);
    SizeConsistency out;
    double others_sum = 0, single_sum = 0;
    for (const auto& [model, times] : by_model) {
        if (times.size() < 2)
            continue;
        ++out.models;
        for (std::size_t i = 0; i < times.size(); ++i) {
            std::vector<double> others = times;
            others.erase(others.begin() + static_cast<long>(i));
            others_sum += std::abs(cleave::median(others) - times[i]) / times[i];
        }
        // The error is piecewise linear in the one time, so its minimum lies at a measured one.
        double best = std::numeric_limits<double>::infinity();
        for (const double candidate : times) {
            double sum = 0;
            for (const double t : times)
                sum += std::abs(candidate - t) / t;
            best = std::min(best, sum);
        }
        single_sum += best;
        out.runs += static_cast<int>(times.size());
    }
    if (out.runs > 0) {
        out.other_sizes_mape = others_sum / out.runs;
        out.best_single_time_mape = single_sum / out.runs;
    }
    return out;
}

} // namespace cleave::predict
