// Measuring a mapping for real from outside MPI: write its package, start
// `mpirun ... cleave run-partition PACKAGE --model MODEL` as a child process, wait for it (with a
// time limit that kills the whole job), and read the run-summary.json rank 0 wrote. The DSE's
// measured level 2 (`cleave dse --measure mpi`) and the studio's Measure button use it
// (docs/autodice.md, "Measuring from the DSE and the studio").
#pragma once

#include "core/device/cluster.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/graph/model.hpp"
#include "core/partition/mapping.hpp"
#include "core/task_control.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace cleave::autodice {

struct MpiLaunch {
    std::string mpirun = "mpirun";  // Open MPI's launcher, a path or a name on PATH
    std::filesystem::path cleave;   // the cleave executable every rank runs
    int inputs = 8;                 // inputs streamed through the pipeline per measurement
    int threads = 1;                // the engine's threads per rank
    // A decoder's generation instead of `inputs` (when generate > 0): run-partition
    // --prompt-tokens --generate --sequences.
    int prompt_tokens = 0;
    int generate = 0;
    int sequences = 1;
    double rank_timeout_s = 30;     // run-partition's --timeout-s: one buffer's longest wait
    double job_timeout_s = 300;     // the whole job; past it the job is killed
    // false: `-np R --oversubscribe --bind-to none`, every rank on this machine; true: the
    // package's rankfile (`-rf PACKAGE/rankfile`), ranks on the cluster's hosts.
    bool use_rankfile = false;
    // Checked while the job runs: once it is cancelled, the job is killed and measure_package
    // throws cleave::Cancelled.
    const TaskControl* control = nullptr;
};

// The command line (argv, launcher first) that runs `package` with `ranks` ranks.
std::vector<std::string> mpirun_command(const MpiLaunch& launch,
                                        const std::filesystem::path& package,
                                        const std::filesystem::path& model, int ranks);

struct PackageMeasurement {
    int ranks = 0;
    double throughput_ips = 0;
    double max_abs_diff = 0;
    double wall_ms = 0;
    std::string summary; // run-summary.json as written
};

// Runs the exported `package` (ranks = its mapping's PE keys) and reads its run-summary.json.
// Throws InputError (place --measure) when the launcher cannot be started, and std::runtime_error
// with the job's last output lines when the job fails, is killed past job_timeout_s, or leaves no
// summary; cleave::Cancelled once launch.control is cancelled.
PackageMeasurement measure_package(const MpiLaunch& launch, const std::filesystem::path& package,
                                   const std::filesystem::path& model, int ranks);

// Writes the package of `assignment` (sub-models included) into a fresh folder under `work_dir`,
// measures it with measure_package and removes the folder again (a failed run keeps it).
PackageMeasurement measure_assignment(const MpiLaunch& launch, const graph::Model& model,
                                      const fusion::KernelGraph& kernels,
                                      const partition::KernelAssignment& assignment,
                                      const device::Cluster& cluster,
                                      const std::filesystem::path& work_dir);

} // namespace cleave::autodice
