#include "measured_run_summary.hpp"

#include "core/graph/model.hpp"
#include "core/statistics.hpp"

#include <algorithm>
#include <cstdio>

namespace cleave::cli {

namespace {

constexpr std::size_t kListedKernels = 10;

double kernel_sum_ms(const profile::MeasuredRun& run) {
    double sum = 0;
    for (const auto& k : run.kernels)
        sum += k.us.value_or(0) / 1000;
    return sum;
}

} // namespace

nlohmann::ordered_json measured_run_json(const profile::MeasuredDataset& data,
                                         const profile::MeasuredRun& run, const std::string& out) {
    return {{"out", out},
            {"runtime", data.runtime},
            {"cpu", data.device},
            {"model", run.model},
            {"threads", run.threads},
            {"input_shape", run.input_shape},
            {"dims", graph::dim_bindings_text(run.dims)},
            {"runs", run.e2e_ms.size()},
            {"median_ms", cleave::median(run.e2e_ms)},
            {"cv", run.cv.value_or(0)},
            {"kernels", run.kernels.size()},
            {"kernel_sum_ms", kernel_sum_ms(run)},
            {"runs_in_file", data.runs.size()}};
}

void print_measured_run(const profile::MeasuredDataset& data, const profile::MeasuredRun& run,
                        const std::string& out) {
    const std::string threads =
        run.threads == 0 ? "threads not known"
                         : std::to_string(run.threads) + " thread" + (run.threads == 1 ? "" : "s");
    const std::string dims =
        run.dims.empty() ? "" : " (" + graph::dim_bindings_text(run.dims) + ")";
    std::printf("%s %s%s, %s: median %.3f ms of %zu runs (cv %.1f%%), %zu kernels summing to "
                "%.3f ms\n",
                run.model.c_str(), graph::shape_to_string(run.input_shape).c_str(), dims.c_str(),
                threads.c_str(), cleave::median(run.e2e_ms), run.e2e_ms.size(),
                100 * run.cv.value_or(0), run.kernels.size(), kernel_sum_ms(run));
    auto slowest = run.kernels;
    std::stable_sort(slowest.begin(), slowest.end(), [](const auto& a, const auto& b) {
        return a.us.value_or(0) > b.us.value_or(0);
    });
    slowest.resize(std::min(slowest.size(), kListedKernels));
    std::printf("\n%-16s %10s %6s  %s\n", "op", "us", "nodes", "kernel");
    for (const auto& k : slowest)
        std::printf("%-16s %10.1f %6zu  %s\n", k.op.c_str(), k.us.value_or(0), k.covers.size(),
                    k.name.c_str());
    std::printf("\nwrote %s: %zu run%s of %s on %s\n", out.c_str(), data.runs.size(),
                data.runs.size() == 1 ? "" : "s", data.runtime.c_str(),
                data.device.empty() ? "a device not named" : data.device.c_str());
}

} // namespace cleave::cli
