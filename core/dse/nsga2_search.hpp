// The multi-stage hierarchical NSGA-II search of AutoDiCE's DSE on pagmo2's nsga2: K =
// ceil(log2 N) stages, stage k mapping onto the first 2^k of the N PEs (all N in the last) with
// its population seeded from stage k-1's Pareto set, each stage in two levels (1: analytical
// objectives; 2: the replay simulator, seeded from level 1's population). Every evaluation counts
// once against one budget whatever its level, so runs compare at equal evaluations. Each
// generation is reported with its front and hypervolume; a TaskControl pauses or cancels the
// search between generations from another thread (a Qt panel runs run_search on a worker).
#pragma once

#include "core/task_control.hpp"
#include "mapping_space.hpp"
#include "split_point_encoding.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace cleave::dse {

struct SearchSettings {
    Encoding encoding = Encoding::spe;
    bool assign_pes = true; // SPE: PE genes per segment; else segment s runs on PE s
    // The defaults of the AutoDiCE DSE paper.
    int population = 100;
    int generations = 400;
    double crossover = 0.5;
    double mutation = 0.2;
    int stages = 0; // 0: ceil(log2 N) stages; 1: one stage over all N PEs
    int levels = 2; // 1: analytical only; 2: analytical, then the replay
    // Evaluations over the whole search, every level alike; 0: population x (generations + 1),
    // what one stage of one level with these settings uses.
    std::int64_t evaluation_budget = 0;
    double level2_share = 0.2; // of each stage's evaluations, with 2 levels
    // Multi-stage: a phase before the last ends once its hypervolume has not grown for this many
    // generations, and what it leaves of its evaluations passes to the next phase; 0: every phase
    // runs the generations planned for it.
    int stage_patience = 20;
    // Multi-stage, SPE with PE genes: a stage is also seeded with the previous stage's Pareto
    // mappings refined onto the PEs it adds (stage_seeds.hpp).
    bool refine_seeds = true;
    unsigned seed = 1;
    // In normalised objectives (1 = the best single PE); empty: 2 for each objective.
    std::vector<double> reference_point;
    // Also report every distinct mapping of each generation's population (Generation::population),
    // infeasible ones included; costs a decode per individual, for a view of what was explored.
    bool report_population = false;
};

// Throws InputError naming the flag (--population, --generations, --stages, --levels, ...) for
// settings the search cannot run: population < 8 or not a multiple of 4 (pagmo's nsga2), fewer
// than 2 PEs or 2 kernels, a budget too small for the stages and levels. A negative count is
// not known yet (flags checked before the model is read) and not checked.
void check_settings(const SearchSettings& settings, int pe_count = -1, int kernel_count = -1);

struct Solution {
    partition::Mapping mapping;     // cluster PEs
    std::vector<double> objectives; // raw, minimised: bottleneck ms, bytes, mJ, latency ms
    std::vector<double> normalised; // divided by MappingSpace::best_single_pe()
    double throughput_per_s = 0;
    int stage = 0; // where the mapping first appeared on a front
    Level level = Level::analytical;
    // Generation::serial of the generation where the mapping first appeared on a front (front
    // entries) or in a population (Generation::population entries).
    int generation = 0;
    // False when it overflows a device's memory: objectives are then its figures unpenalised.
    bool feasible = true;
};

struct StagePlan {
    int stage = 0; // 1-based
    int pes = 0;   // the first `pes` of MappingSpace::pes()
    Level level = Level::analytical;
    int generations = 0;
    std::int64_t evaluations = 0; // population x (generations + 1)
};

// The stages and levels the settings give for N PEs, with each one's generations. A phase that
// ends early (SearchSettings::stage_patience) passes its unspent evaluations to the next one, so
// the phases run can differ from the plan (SearchResult::plan is what ran).
std::vector<StagePlan> plan_search(const SearchSettings& settings, int pe_count);

struct Generation {
    const StagePlan* phase = nullptr;
    int phase_index = 0;
    int phases = 0;
    int generation = 0;           // within the phase; 0 is the initial population
    bool phase_end = false;       // the phase's last generation
    int serial = 0;               // generations reported before this one, all phases
    std::int64_t evaluations = 0; // so far, all phases
    std::int64_t budget = 0;
    std::vector<Solution> front; // feasible, non-dominated, one per mapping
    double hypervolume = 0;      // of the front's normalised objectives
    // With SearchSettings::report_population: the population's distinct mappings, at this
    // phase's level, feasible or not (stage and level: this phase's).
    std::vector<Solution> population;
};

struct HypervolumeStep {
    int stage = 0;
    Level level = Level::analytical;
    int generation = 0;
    std::int64_t evaluations = 0;
    double hypervolume = 0;
};

struct SearchResult {
    std::vector<Solution> front; // of the last phase run
    std::vector<HypervolumeStep> history;
    std::vector<StagePlan> plan; // the phases as they ran (a cancelled search: as planned)
    std::vector<double> reference_point;
    std::int64_t evaluations = 0;
    bool cancelled = false;
};

using GenerationCallback = std::function<void(const Generation&)>;

// Checks the settings first (check_settings). `control` is told of every generation (the
// evaluations' share of the budget, and a line like the CLI's: a phase's first and last
// generations lasting) and may pause the search or cancel it between generations from another
// thread: a cancelled search returns the front so far (SearchResult::cancelled), not Cancelled.
SearchResult run_search(const MappingSpace& space, const SearchSettings& settings,
                        const GenerationCallback& on_generation = {},
                        const TaskControl* control = nullptr);

// Why a search that ran to its end found no front: every mapping it met overflowed a device's
// memory or had PEs waiting on each other; with the naive encoding, why that is the rule.
std::string empty_front_explanation(Encoding encoding);

} // namespace cleave::dse
