#include "nsga2_search.hpp"

#include "core/input_error.hpp"
#include "mapping_problem.hpp"
#include "pareto_front.hpp"
#include "stage_seeds.hpp"

#include <cmath>
#include <map>
#include <pagmo/algorithms/nsga2.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <random>
#include <set>
#include <string>

namespace cleave::dse {

namespace {

// pagmo's defaults for the distribution indices of SBX crossover and polynomial mutation; with
// integer genes only they are unused (pagmo crosses and mutates integers its own way).
constexpr double kCrossoverIndex = 10.0;
constexpr double kMutationIndex = 50.0;

int stage_count(const SearchSettings& settings, int pe_count) {
    if (settings.stages == 1)
        return 1;
    return static_cast<int>(std::ceil(std::log2(static_cast<double>(pe_count)) - 1e-12));
}

} // namespace

void SearchControl::cancel() {
    {
        const std::lock_guard lock(mutex_);
        cancelled_ = true;
    }
    changed_.notify_all();
}

void SearchControl::pause() {
    const std::lock_guard lock(mutex_);
    paused_ = true;
}

void SearchControl::resume() {
    {
        const std::lock_guard lock(mutex_);
        paused_ = false;
    }
    changed_.notify_all();
}

bool SearchControl::proceed() const {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !paused_ || cancelled_; });
    return !cancelled_;
}

std::vector<StagePlan> plan_search(const SearchSettings& settings, int pe_count) {
    const int stages = stage_count(settings, pe_count);
    const std::int64_t population = settings.population;
    const std::int64_t budget =
        settings.evaluation_budget > 0
            ? settings.evaluation_budget
            : population * (static_cast<std::int64_t>(settings.generations) + 1);
    // Stage k gets a share of the budget in proportion to the PEs it maps onto.
    const auto pes_of = [&](int stage) {
        return stages == 1 || stage == stages ? pe_count : std::min(1 << stage, pe_count);
    };
    std::int64_t all_pes = 0;
    for (int stage = 1; stage <= stages; ++stage)
        all_pes += pes_of(stage);
    std::vector<StagePlan> plan;
    std::int64_t carry = 0, given = 0;
    for (int stage = 1; stage <= stages; ++stage) {
        const int pes = pes_of(stage);
        const std::int64_t stage_budget = stage == stages ? budget - given : budget * pes / all_pes;
        given += stage_budget;
        const std::int64_t replay_budget =
            settings.levels == 2
                ? std::llround(static_cast<double>(stage_budget) * settings.level2_share)
                : 0;
        for (int level = 1; level <= settings.levels; ++level) {
            const std::int64_t target =
                (level == 1 ? stage_budget - replay_budget : replay_budget) + carry;
            StagePlan phase;
            phase.stage = stage;
            phase.pes = pes;
            phase.level = level == 1 ? Level::analytical : Level::replay;
            phase.generations = static_cast<int>(target / population - 1);
            phase.evaluations = population * (phase.generations + 1);
            carry = target - phase.evaluations;
            plan.push_back(phase);
        }
    }
    return plan;
}

void check_settings(const SearchSettings& settings, int pe_count, int kernel_count) {
    if (settings.population < 8 || settings.population % 4 != 0)
        throw InputError("", "--population",
                         "pagmo's NSGA-II needs a population of at least 8 and a multiple of 4, "
                         "not " +
                             std::to_string(settings.population));
    if (settings.generations < 1)
        throw InputError("", "--generations", "at least 1 generation");
    if (!(settings.crossover >= 0 && settings.crossover < 1))
        throw InputError("", "--crossover", "a crossover probability in [0, 1)");
    if (!(settings.mutation >= 0 && settings.mutation <= 1))
        throw InputError("", "--mutation", "a mutation probability in [0, 1]");
    if (settings.stages != 0 && settings.stages != 1)
        throw InputError("", "--stages", "auto (ceil(log2 N) stages) or 1");
    if (settings.levels != 1 && settings.levels != 2)
        throw InputError("", "--levels", "1 (analytical) or 2 (analytical, then the replay)");
    if (settings.levels == 2 && !(settings.level2_share > 0 && settings.level2_share < 1))
        throw InputError("", "--level2-share", "a share of each stage's evaluations in (0, 1)");
    if (settings.evaluation_budget < 0)
        throw InputError("", "--budget", "0 (population x (generations + 1)) or more evaluations");
    if (settings.stage_patience < 0)
        throw InputError("", "--stage-patience",
                         "0 (run every phase as planned) or more generations");
    if (pe_count < 0 || kernel_count < 0)
        return;
    if (pe_count < 2)
        throw InputError("", "--cluster",
                         "the search needs at least 2 PEs with kernel latencies, found " +
                             std::to_string(pe_count));
    if (kernel_count < 2)
        throw InputError("", "MODEL",
                         "the model has " + std::to_string(kernel_count) +
                             " kernel(s): nothing to split");
    for (const auto& phase : plan_search(settings, pe_count))
        if (phase.generations < 1)
            throw InputError("", settings.evaluation_budget > 0 ? "--budget" : "--generations",
                             "the budget leaves stage " + std::to_string(phase.stage) + " level " +
                                 std::to_string(static_cast<int>(phase.level)) +
                                 " less than 2 x the population (" +
                                 std::to_string(2 * settings.population) +
                                 " evaluations); raise it or lower --population");
}

SearchResult run_search(const MappingSpace& space, const SearchSettings& settings,
                        const GenerationCallback& on_generation, const SearchControl* control) {
    const auto& costs = space.costs();
    const int pe_count = static_cast<int>(space.pes().size());
    check_settings(settings, pe_count, costs.kernel_count());
    const auto objective_count = static_cast<std::size_t>(space.objectives().count());

    SearchResult result;
    result.plan = plan_search(settings, pe_count);
    result.reference_point = settings.reference_point.empty()
                                 ? std::vector<double>(objective_count, 2.0)
                                 : settings.reference_point;
    if (result.reference_point.size() != objective_count)
        throw InputError("", "reference_point",
                         std::to_string(objective_count) + " values, one per objective");
    const std::int64_t budget = [&] {
        std::int64_t total = 0;
        for (const auto& phase : result.plan)
            total += phase.evaluations;
        return total;
    }();

    std::mt19937 random(settings.seed);
    struct Origin {
        int stage;
        Level level;
        int serial;
    };
    std::map<std::string, Origin> first_seen;
    std::map<std::string, int> first_evaluated; // with report_population
    int serial = 0;
    std::vector<std::vector<double>> carried;
    GeneLayout carried_layout;
    std::int64_t unspent = 0; // evaluations a phase that ended early left to the next
    for (std::size_t index = 0; index < result.plan.size(); ++index) {
        StagePlan& phase = result.plan[index];
        const bool last_phase = index + 1 == result.plan.size();
        phase.generations += static_cast<int>(unspent / settings.population);
        phase.evaluations = settings.population * (phase.generations + 1);
        const GeneLayout layout{settings.encoding, costs.kernel_count(), phase.pes,
                                settings.assign_pes};
        const std::vector<int> stage_pes(space.pes().begin(), space.pes().begin() + phase.pes);
        const MappingProblem problem(space, layout, stage_pes, phase.level);
        const unsigned phase_seed = settings.seed * 7919u + static_cast<unsigned>(index);

        // Seeds: the previous level's whole population, or the previous stage's Pareto set, as it
        // is and refined onto the PEs this stage adds.
        std::vector<std::vector<double>> seeds;
        std::set<std::vector<double>> seen;
        const auto seed_with = [&](std::vector<double> genes) {
            if (static_cast<int>(seeds.size()) < settings.population && seen.insert(genes).second)
                seeds.push_back(std::move(genes));
        };
        const bool new_stage = phase.level == Level::analytical && !carried.empty();
        for (const auto& genes : carried)
            seed_with(new_stage ? widen_genes(carried_layout, genes, layout, random) : genes);
        if (new_stage && settings.refine_seeds && settings.encoding == Encoding::spe &&
            settings.assign_pes) {
            const std::vector<int> carried_pes(space.pes().begin(),
                                               space.pes().begin() + carried_layout.pes);
            for (const auto balance : {Balance::compute, Balance::memory})
                for (const auto& genes : carried)
                    seed_with(encode_spe(layout,
                                         split_longest_segments(
                                             space, decode_spe(carried_layout, genes, carried_pes),
                                             carried_layout.pes, phase.pes, balance),
                                         stage_pes, random));
        }
        while (static_cast<int>(seeds.size()) < settings.population)
            seeds.push_back(random_genes(layout, random));
        pagmo::population population{pagmo::problem{problem}, 0u, phase_seed};
        for (const auto& genes : seeds)
            population.push_back(genes);
        pagmo::nsga2 nsga2(1u, settings.crossover, kCrossoverIndex, settings.mutation,
                           kMutationIndex, phase_seed);

        // The hypervolume's best so far in this phase and the generation that reached it.
        double best_hypervolume = -1;
        int best_generation = 0;
        const auto report = [&](int generation) {
            Generation step;
            step.phase = &phase;
            step.phase_index = static_cast<int>(index);
            step.phases = static_cast<int>(result.plan.size());
            step.generation = generation;
            step.serial = serial++;
            step.evaluations = result.evaluations +
                               static_cast<std::int64_t>(population.get_problem().get_fevals());
            step.budget = budget;
            const auto& f = population.get_f();
            const auto& x = population.get_x();
            std::vector<std::vector<double>> feasible;
            std::vector<std::size_t> which;
            for (std::size_t i = 0; i < f.size(); ++i)
                if (f[i][0] < kInfeasiblePenalty) {
                    feasible.push_back(f[i]);
                    which.push_back(i);
                }
            std::set<std::string> listed;
            for (const std::size_t i : non_dominated(feasible)) {
                Solution solution;
                solution.mapping = problem.mapping(x[which[i]]);
                const auto key = mapping_id(solution.mapping);
                if (!listed.insert(key).second)
                    continue;
                const auto origin =
                    first_seen.try_emplace(key, Origin{phase.stage, phase.level, step.serial})
                        .first->second;
                solution.stage = origin.stage;
                solution.level = origin.level;
                solution.generation = origin.serial;
                solution.normalised = feasible[i];
                for (std::size_t j = 0; j < objective_count; ++j)
                    solution.objectives.push_back(feasible[i][j] * space.best_single_pe()[j]);
                solution.throughput_per_s = 1000.0 / solution.objectives[0];
                step.front.push_back(std::move(solution));
            }
            std::vector<std::vector<double>> points;
            for (const auto& s : step.front)
                points.push_back(s.normalised);
            step.hypervolume = hypervolume(points, result.reference_point);
            if (step.hypervolume > best_hypervolume * (1 + 1e-9)) {
                best_hypervolume = step.hypervolume;
                best_generation = generation;
            }
            const bool stalled = !last_phase && settings.stage_patience > 0 &&
                                 generation - best_generation >= settings.stage_patience;
            step.phase_end = generation == phase.generations || stalled;
            if (stalled)
                phase.generations = generation; // what the next phase is told ran
            if (settings.report_population) {
                std::set<std::string> distinct;
                for (std::size_t i = 0; i < f.size(); ++i) {
                    Solution solution;
                    solution.mapping = problem.mapping(x[i]);
                    const auto key = mapping_id(solution.mapping);
                    if (!distinct.insert(key).second)
                        continue;
                    solution.stage = phase.stage;
                    solution.level = phase.level;
                    solution.generation =
                        first_evaluated.try_emplace(key, step.serial).first->second;
                    solution.feasible = f[i][0] < kInfeasiblePenalty;
                    if (solution.feasible) {
                        solution.normalised = f[i];
                        for (std::size_t j = 0; j < objective_count; ++j)
                            solution.objectives.push_back(f[i][j] * space.best_single_pe()[j]);
                    } else {
                        // The penalty hides the figures; work them out again (not counted).
                        solution.objectives = space.raw_objectives(problem.figures(x[i]));
                        solution.normalised = space.normalised(solution.objectives);
                    }
                    solution.throughput_per_s = 1000.0 / solution.objectives[0];
                    step.population.push_back(std::move(solution));
                }
            }
            result.history.push_back(
                {phase.stage, phase.level, generation, step.evaluations, step.hypervolume});
            if (on_generation)
                on_generation(step);
            return step.front;
        };

        const std::int64_t phase_budget = phase.evaluations;
        result.front = report(0);
        for (int generation = 1; generation <= phase.generations; ++generation) {
            if (control && !control->proceed()) {
                result.cancelled = true;
                break;
            }
            population = nsga2.evolve(population);
            result.front = report(generation);
        }
        const auto spent = static_cast<std::int64_t>(population.get_problem().get_fevals());
        result.evaluations += spent;
        if (result.cancelled)
            break;
        phase.evaluations = spent;
        unspent = phase_budget - spent;

        carried.clear();
        carried_layout = layout;
        const bool next_is_replay =
            index + 1 < result.plan.size() && result.plan[index + 1].level == Level::replay;
        if (next_is_replay) {
            carried = population.get_x();
        } else {
            for (const std::size_t i : non_dominated(population.get_f()))
                carried.push_back(population.get_x()[i]);
        }
    }
    return result;
}

std::string empty_front_explanation(Encoding encoding) {
    return "the search met no mapping that can run: each overflowed a device's memory or had PEs "
           "waiting on each other (a PE running kernels before and after another PE's)" +
           std::string(encoding == Encoding::naive
                           ? "; with --encoding naive that is the rule on models of many kernels "
                             "(docs/dse.md), --encoding spe searches whole segments"
                           : "");
}

} // namespace cleave::dse
