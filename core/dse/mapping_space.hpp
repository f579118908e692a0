// What the DSE searches: the PEs a mapping may use, each host's memory capacity, and the
// objectives of a mapping (throughput, the largest per-device memory and energy, optionally the
// pipeline latency) at level 1 (the analytical sums of MappingCosts) or level 2 (the replay
// simulator), normalised by the best single PE. docs/dse.md has the formulas.
#pragma once

#include "core/device/cluster.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/graph/model.hpp"
#include "core/partition/layer_plan.hpp"
#include "core/partition/mapping_costs.hpp"
#include "core/partition/replay.hpp"
#include "core/partition/waiting_cycle.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cleave::dse {

// Level 1: MappingCosts (AutoDiCE's analytical models); level 2: partition::replay, or a measured
// run (MappingSpace::set_measurement).
enum class Level { analytical = 1, replay = 2 };

// Every PE of the cluster that has kernel latencies, in cluster order, with the latencies
// MappingCosts is built from; PEs left out (no usable predictor and no peak figures for a roofline,
// like the Jetson Xavier NX's Carmel CPU) get a note each.
struct SearchablePes {
    std::vector<int> pes;                       // indices into Cluster::pes
    std::vector<std::vector<double>> kernel_ms; // per cluster PE; empty rows for PEs left out
    std::vector<std::string> notes;
};

// `predictor_file` (may be empty) predicts for the PEs of the device it was trained for; the
// others use their shipped predictor, else a roofline from their figures. Throws InputError
// (place --predictor) when no PE of the cluster is that file's device.
SearchablePes predict_searchable_pes(const graph::Model& model, const fusion::KernelGraph& kernels,
                                     const device::Cluster& cluster, const std::string& rules,
                                     const std::string& predictor_file);

// The raw figures of one mapping.
struct MappingFigures {
    double throughput_per_s = 0;
    double bottleneck_ms = 0;         // 1000 / throughput
    std::int64_t max_memory_bytes = 0; // the largest sum over one host's PEs
    double max_energy_mj = 0;         // likewise; NaN when a used PE has no power figure
    double latency_ms = 0;            // level 1: the pipeline latency L; level 2: the first input's
    double memory_excess = 0;         // sum over hosts of (memory - capacity) / capacity, if > 0
    // Its PEs would wait on each other (a PE runs two segments with another PE's in between, the
    // later needing the other's tensors and the other the earlier's): AutoDiCE's sub-models, one
    // per PE, cannot run it, and the export refuses it. Infeasible like a memory overflow.
    bool waits_on_each_other = false;
    int surplus_segments = 0; // when PEs wait: segments beyond one per PE used (>= 1); else 0
    // Held to a decoder's layers: a host runs two stages (the exact plans give each host one), or
    // a cut falls inside a layer; surplus_segments counts the extra stages.
    bool breaks_layer_plan = false;
    bool feasible() const {
        return memory_excess <= 0 && !waits_on_each_other && !breaks_layer_plan;
    }
};

// Level 2 measured instead of replayed (cleave dse --measure mpi): a real run of a kernel
// assignment. `failed` (the run could not be made) makes the mapping infeasible.
struct MeasuredThroughput {
    double throughput_per_s = 0;
    bool failed = false;
};
using MeasureAssignment = std::function<MeasuredThroughput(const partition::KernelAssignment&)>;

// What a search minimises, in the order a solution holds them: the bottleneck (ms), then, when
// searched, the largest memory of a host (bytes), the largest energy of a host (mJ) and the
// latency (ms; a decoder's time per output token). Front ends read them by name through
// ObjectiveSet, never by position.
enum class Objective { bottleneck_ms, max_memory_bytes, max_energy_mj, latency_ms };

struct ObjectiveSet {
    bool energy = true;
    bool latency = false;
    bool memory = true;
    int count() const { return 1 + (memory ? 1 : 0) + (energy ? 1 : 0) + (latency ? 1 : 0); }
    // Where `objective` sits in a solution's objectives; -1 when it is not searched.
    int index(Objective objective) const;
    // values[index(objective)]; NaN when it is not searched.
    double value(const std::vector<double>& values, Objective objective) const;
};

// The objectives' names in order, for output: bottleneck_ms, max_memory_bytes, max_energy_mj,
// latency_ms (those selected).
std::vector<std::string> objective_names(const ObjectiveSet& objectives);

// The objectives a comma-separated list names (--objectives): bottleneck (or tokens-per-s),
// memory, energy, latency (or time-per-token), in any order; the bottleneck is always searched.
// Throws InputError (place `place`) for an unknown or repeated name.
ObjectiveSet parse_objectives(const std::string& list, const std::string& place);

class MappingSpace {
public:
    // `costs` must outlive the space. `pes`: the PEs mappings may use, in the order stages take
    // them (stage k uses the first 2^k); each must have latencies. `capacity_bytes`: per cluster
    // host, nullopt for no limit. Throws InputError (place --cluster) for an empty list.
    MappingSpace(const partition::MappingCosts& costs, std::vector<int> pes,
                 std::vector<std::optional<std::int64_t>> capacity_bytes, ObjectiveSet objectives,
                 int replay_inputs = 16);

    const partition::MappingCosts& costs() const { return *costs_; }
    const std::vector<int>& pes() const { return pes_; }
    const ObjectiveSet& objectives() const { return objectives_; }
    int replay_inputs() const { return replay_inputs_; }
    const std::vector<std::optional<std::int64_t>>& capacities() const { return capacity_; }

    // Holds mappings to a decoder's layers (docs/dse.md, "A decoder's layers"): cuts only where a
    // layer starts (input.cuts), each host one stage at most, and memory by the exact plans' count
    // (LayerPlanInput::memory_bytes of a stage's layers against its PE's room) instead of the
    // kernels' bytes per host. Every PE of pes() must be one of input.pes.
    void hold_to_layers(partition::LayerPlanInput input);
    // The kernels a cut may fall before (0 .. K); empty when not held.
    const std::vector<int>& layer_cuts() const;
    // Level 2 takes its throughput from `measure` (memory and energy stay analytical, the latency
    // the replay's); empty: the replay's throughput.
    void set_measurement(MeasureAssignment measure) { measure_ = std::move(measure); }
    bool measured() const { return static_cast<bool>(measure_); }

    // Reuses `evaluation` and `host_sums` between calls.
    struct Scratch {
        partition::Evaluation evaluation;
        std::vector<double> host_memory;
        std::vector<double> host_energy;
        std::vector<std::pair<int, int>> waits;
        std::vector<int> runs;
        partition::WaitingScratch waiting;
    };
    MappingFigures figures(const partition::Mapping& mapping, Level level, Scratch& scratch) const;
    MappingFigures figures(const partition::KernelAssignment& assignment, Level level,
                           Scratch& scratch) const;

    // Objective values to minimise, in objective order: bottleneck ms, max memory, max energy,
    // latency ms (those selected).
    std::vector<double> raw_objectives(const MappingFigures& figures) const;
    // The best value of each objective over the single-PE mappings of `pes` at level 1:
    // what normalised objectives are divided by.
    const std::vector<double>& best_single_pe() const { return best_single_; }
    std::vector<double> normalised(const std::vector<double>& raw) const;

private:
    static void take_replay(const partition::Replay& replayed, MappingFigures& figures);
    MappingFigures sum_hosts(const partition::Evaluation& evaluation, Scratch& scratch) const;
    void hold_figures(const partition::Mapping& mapping, MappingFigures& figures,
                      Scratch& scratch) const;
    void find_best_single();

    const partition::MappingCosts* costs_;
    std::vector<int> pes_;
    std::vector<std::optional<std::int64_t>> capacity_;
    ObjectiveSet objectives_;
    int replay_inputs_;
    std::vector<double> best_single_;
    MeasureAssignment measure_;
    std::optional<partition::LayerPlanInput> layers_;
    std::vector<int> layer_pe_; // per cluster PE: its index in layers_->pes, or -1
};

// A mapping's identity by PE index, for deduplication: "12,40,|3,5,7,".
std::string mapping_id(const partition::Mapping& mapping);

// A mapping's key for deduplication and display: "12,40|nx01_gpu,nx02_gpu,nx03_gpu".
std::string mapping_key(const partition::Mapping& mapping, const device::Cluster& cluster);

} // namespace cleave::dse
