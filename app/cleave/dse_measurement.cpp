#include "dse_measurement.hpp"

#include "core/input_error.hpp"
#include "core/partition/replay.hpp"

#include <cstdio>
#include <unistd.h>

namespace cleave::cli {

DseMeasurement::DseMeasurement(const dse::ExplorationInputs& inputs, autodice::MpiLaunch launch,
                               bool verbose)
    : inputs_(inputs), launch_(std::move(launch)), verbose_(verbose) {
    if (launch_.cleave.empty())
        // Each rank runs `cleave run-partition`: cleave sits beside this program, cleave-dse.
        launch_.cleave = std::filesystem::read_symlink("/proc/self/exe").parent_path() / "cleave";
    if (launch_.inputs < 1)
        throw InputError("", "--measure-inputs", "at least 1 input");
    if (!(launch_.job_timeout_s > 0))
        throw InputError("", "--measure-timeout-s", "a time above 0 s");
    work_dir_ = std::filesystem::temp_directory_path() /
                ("cleave-dse-" + std::to_string(::getpid()));
    std::filesystem::create_directories(work_dir_);
}

DseMeasurement::~DseMeasurement() {
    std::error_code ignored;
    std::filesystem::remove_all(work_dir_, ignored);
}

dse::MeasuredThroughput DseMeasurement::measure(const partition::KernelAssignment& assignment) {
    const std::lock_guard lock(mutex_);
    if (const auto found = index_.find(assignment.pe_of_kernel); found != index_.end())
        return records_[found->second].result;
    Record record;
    record.assignment = assignment;
    const auto& costs = *inputs_.costs;
    record.predicted = costs.evaluate(assignment).throughput_per_s;
    record.replayed =
        partition::replay(costs, assignment, {inputs_.space->replay_inputs(), 0.0}).throughput_per_s;
    const auto key = dse::mapping_key(partition::runs_of(assignment), inputs_.cluster);
    try {
        record.measurement = autodice::measure_assignment(launch_, inputs_.model, inputs_.kernels,
                                                          assignment, inputs_.cluster, work_dir_);
        record.result.throughput_per_s = record.measurement.throughput_ips;
        if (verbose_)
            std::fprintf(stderr, "measured %s: %.2f inputs/s (predicted %.2f)\n", key.c_str(),
                         record.result.throughput_per_s, record.predicted);
    } catch (const std::runtime_error& e) {
        const auto* input = dynamic_cast<const InputError*>(&e);
        if (input && input->place() == "--measure")
            throw; // no launcher: no measurement will run
        // One mapping that cannot run does not end the search: it counts as infeasible.
        record.result.failed = true;
        record.error = e.what();
        if (verbose_)
            std::fprintf(stderr,
                         "cleave: note: measuring %s failed; it counts as infeasible: %s\n",
                         key.c_str(), e.what());
    }
    index_.emplace(assignment.pe_of_kernel, records_.size());
    records_.push_back(std::move(record));
    return records_.back().result;
}

nlohmann::ordered_json DseMeasurement::json() const {
    const std::lock_guard lock(mutex_);
    auto list = nlohmann::ordered_json::array();
    for (const auto& r : records_) {
        const auto mapping = partition::runs_of(r.assignment);
        auto pes = nlohmann::ordered_json::array();
        for (const int pe : mapping.pes)
            pes.push_back(inputs_.cluster.pes[static_cast<std::size_t>(pe)].key);
        nlohmann::ordered_json entry{{"points", mapping.points}, {"pes", pes}};
        if (r.result.failed) {
            entry["error"] = r.error;
        } else {
            entry["measured_throughput_per_s"] = r.result.throughput_per_s;
            entry["predicted_throughput_per_s"] = r.predicted;
            entry["replayed_throughput_per_s"] = r.replayed;
            entry["measured_over_predicted"] = r.result.throughput_per_s / r.predicted;
            entry["max_abs_diff"] = r.measurement.max_abs_diff;
            entry["ranks"] = r.measurement.ranks;
            entry["wall_ms"] = r.measurement.wall_ms;
        }
        list.push_back(entry);
    }
    return list;
}

} // namespace cleave::cli
