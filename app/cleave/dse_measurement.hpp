// `cleave dse --measure mpi`: level 2 of the search measures each mapping it meets with Open MPI
// (autodice::measure_assignment) instead of replaying it. Each distinct kernel assignment runs
// once; every measurement is kept with the analytical and replayed prediction of the same mapping
// for the JSON document's "measurements".
#pragma once

#include "core/autodice/mpi_measurement.hpp"
#include "core/dse/exploration_inputs.hpp"

#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cleave::cli {

class DseMeasurement {
public:
    // `launch.cleave` is filled in with this executable. Packages are written under a fresh
    // temporary folder, removed with this object.
    DseMeasurement(const dse::ExplorationInputs& inputs, autodice::MpiLaunch launch, bool verbose);
    ~DseMeasurement();
    DseMeasurement(const DseMeasurement&) = delete;
    DseMeasurement& operator=(const DseMeasurement&) = delete;

    dse::MeasuredThroughput measure(const partition::KernelAssignment& assignment);

    // [{"points", "pes", "measured_throughput_per_s", "predicted_throughput_per_s",
    //   "replayed_throughput_per_s", "measured_over_predicted", "max_abs_diff", "ranks",
    //   "wall_ms"} or {"points", "pes", "error"}], in the order they were measured.
    nlohmann::ordered_json json() const;

private:
    struct Record {
        partition::KernelAssignment assignment;
        dse::MeasuredThroughput result;
        double predicted = 0;
        double replayed = 0;
        autodice::PackageMeasurement measurement;
        std::string error;
    };

    const dse::ExplorationInputs& inputs_;
    autodice::MpiLaunch launch_;
    bool verbose_;
    std::filesystem::path work_dir_;
    std::map<std::vector<int>, std::size_t> index_;
    std::vector<Record> records_;
    mutable std::mutex mutex_;
};

} // namespace cleave::cli
