#include "nsga2_search.hpp"

#include "core/input_error.hpp"
#include "mapping_problem.hpp"
#include "pareto_front.hpp"
#include "stage_seeds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
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

namespace {

// Where a mapping was first met, for the solutions reported: its stage, level and generation.
struct Origin {
    int stage;
    Level level;
    int serial;
};

// One search across its phases: what is kept from phase to phase, and each phase's steps.
class SearchRun {
public:
    SearchRun(const MappingSpace& space, const SearchSettings& settings,
              const GenerationCallback& on_generation, const TaskControl* control,
              SearchResult& result)
        : space_(space), settings_(settings), on_generation_(on_generation), control_(control),
          result_(result), objective_count_(static_cast<std::size_t>(space.objectives().count())),
          random_(settings.seed) {
        for (const auto& phase : result_.plan)
            budget_ += phase.evaluations;
    }

    void run() {
        for (std::size_t index = 0; index < result_.plan.size(); ++index)
            if (!run_phase(index))
                break;
    }

private:
    // The phase under way: its NSGA-II population and the hypervolume's best so far.
    struct Phase {
        std::size_t index;
        StagePlan& plan;
        const MappingProblem& problem;
        pagmo::population population;
        double best_hypervolume = -1;
        int best_generation = 0;
    };

    // False when the search was cancelled.
    bool run_phase(std::size_t index) {
        StagePlan& plan = result_.plan[index];
        plan.generations += static_cast<int>(unspent_ / settings_.population);
        plan.evaluations = settings_.population * (plan.generations + 1);
        const auto& costs = space_.costs();
        const GeneLayout layout{settings_.encoding, costs.kernel_count(), plan.pes,
                                settings_.assign_pes, space_.layer_cuts()};
        const std::vector<int> stage_pes(space_.pes().begin(), space_.pes().begin() + plan.pes);
        const MappingProblem problem(space_, layout, stage_pes, plan.level);
        const unsigned phase_seed = settings_.seed * 7919u + static_cast<unsigned>(index);
        Phase phase{index, plan, problem,
                    pagmo::population{pagmo::problem{problem}, 0u, phase_seed}};
        for (const auto& genes : seeds(layout, plan, stage_pes))
            phase.population.push_back(genes);
        pagmo::nsga2 nsga2(1u, settings_.crossover, kCrossoverIndex, settings_.mutation,
                           kMutationIndex, phase_seed);

        const std::int64_t phase_budget = plan.evaluations;
        try {
            report(phase, 0);
            for (int generation = 1; generation <= plan.generations; ++generation) {
                checkpoint(control_);
                phase.population = nsga2.evolve(phase.population);
                report(phase, generation);
            }
        } catch (const Cancelled&) {
            result_.cancelled = true; // the front of the last generation reported stays
        }
        const auto spent = static_cast<std::int64_t>(phase.population.get_problem().get_fevals());
        result_.evaluations += spent;
        if (result_.cancelled)
            return false;
        plan.evaluations = spent;
        unspent_ = phase_budget - spent;
        carry(phase, layout);
        return true;
    }

    // Seeds: the previous level's whole population, or the previous stage's Pareto set, as it
    // is and refined onto the PEs this stage adds; random genes for the rest.
    std::vector<std::vector<double>> seeds(const GeneLayout& layout, const StagePlan& plan,
                                           const std::vector<int>& stage_pes) {
        std::vector<std::vector<double>> seeds;
        std::set<std::vector<double>> seen;
        const auto seed_with = [&](std::vector<double> genes) {
            if (static_cast<int>(seeds.size()) < settings_.population && seen.insert(genes).second)
                seeds.push_back(std::move(genes));
        };
        const bool new_stage = plan.level == Level::analytical && !carried_.empty();
        for (const auto& genes : carried_)
            seed_with(new_stage ? widen_genes(carried_layout_, genes, layout, random_) : genes);
        if (new_stage && settings_.refine_seeds && settings_.encoding == Encoding::spe &&
            settings_.assign_pes) {
            const std::vector<int> carried_pes(space_.pes().begin(),
                                               space_.pes().begin() + carried_layout_.pes);
            for (const auto balance : {Balance::compute, Balance::memory})
                for (const auto& genes : carried_)
                    seed_with(encode_spe(layout,
                                         split_longest_segments(
                                             space_,
                                             decode_spe(carried_layout_, genes, carried_pes),
                                             carried_layout_.pes, plan.pes, balance),
                                         stage_pes, random_));
        }
        while (static_cast<int>(seeds.size()) < settings_.population)
            seeds.push_back(random_genes(layout, random_));
        return seeds;
    }

    // What the next phase starts from: a replay level the whole population, a new stage the
    // Pareto set.
    void carry(const Phase& phase, const GeneLayout& layout) {
        carried_.clear();
        carried_layout_ = layout;
        const bool next_is_replay = phase.index + 1 < result_.plan.size() &&
                                    result_.plan[phase.index + 1].level == Level::replay;
        if (next_is_replay) {
            carried_ = phase.population.get_x();
            return;
        }
        for (const std::size_t i : non_dominated(phase.population.get_f()))
            carried_.push_back(phase.population.get_x()[i]);
    }

    // A generation reported: its front (and population), hypervolume and whether the phase ends;
    // the front is the search's so far. Throws Cancelled once the control is cancelled.
    void report(Phase& phase, int generation) {
        StagePlan& plan = phase.plan;
        Generation step;
        step.phase = &plan;
        step.phase_index = static_cast<int>(phase.index);
        step.phases = static_cast<int>(result_.plan.size());
        step.generation = generation;
        step.serial = serial_++;
        step.evaluations = result_.evaluations +
                           static_cast<std::int64_t>(phase.population.get_problem().get_fevals());
        step.budget = budget_;
        step.front = front(phase, step.serial);
        std::vector<std::vector<double>> points;
        for (const auto& s : step.front)
            points.push_back(s.normalised);
        step.hypervolume = hypervolume(points, result_.reference_point);
        if (step.hypervolume > phase.best_hypervolume * (1 + 1e-9)) {
            phase.best_hypervolume = step.hypervolume;
            phase.best_generation = generation;
        }
        const bool last_phase = phase.index + 1 == result_.plan.size();
        const bool stalled = !last_phase && settings_.stage_patience > 0 &&
                             generation - phase.best_generation >= settings_.stage_patience;
        step.phase_end = generation == plan.generations || stalled;
        if (stalled)
            plan.generations = generation; // what the next phase is told ran
        if (settings_.report_population)
            step.population = population(phase, step.serial);
        result_.history.push_back(
            {plan.stage, plan.level, generation, step.evaluations, step.hypervolume});
        if (on_generation_)
            on_generation_(step);
        const std::string stage = describe(step);
        result_.front = std::move(step.front);
        // A phase's first and last generations are lasting steps; the ones between pass.
        report_progress(control_, {.fraction = std::min(1.0, static_cast<double>(step.evaluations) /
                                                                 static_cast<double>(budget_)),
                                   .stage = stage,
                                   .lasting = generation == 0 || step.phase_end});
    }

    // "stage 2 (4 PEs) level 1 (analytical) generation 7/40: 1400/10000 evaluations, front 5,
    // hypervolume 0.3120"
    std::string describe(const Generation& step) const {
        const char* level = step.phase->level == Level::analytical ? "analytical"
                            : space_.measured()                    ? "measured"
                                                                   : "replay";
        char text[256];
        std::snprintf(text, sizeof text,
                      "stage %d (%d PEs) level %d (%s) generation %d/%d: %lld/%lld evaluations, "
                      "front %zu, hypervolume %.4f",
                      step.phase->stage, step.phase->pes, static_cast<int>(step.phase->level),
                      level, step.generation, step.phase->generations,
                      static_cast<long long>(step.evaluations), static_cast<long long>(step.budget),
                      step.front.size(), step.hypervolume);
        return text;
    }

    // The population's feasible Pareto set, each mapping once, with where it was first met.
    std::vector<Solution> front(const Phase& phase, int serial) {
        const auto& f = phase.population.get_f();
        const auto& x = phase.population.get_x();
        std::vector<std::vector<double>> feasible;
        std::vector<std::size_t> which;
        for (std::size_t i = 0; i < f.size(); ++i)
            if (f[i][0] < kInfeasiblePenalty) {
                feasible.push_back(f[i]);
                which.push_back(i);
            }
        std::vector<Solution> front;
        std::set<std::string> listed;
        for (const std::size_t i : non_dominated(feasible)) {
            Solution solution;
            solution.mapping = phase.problem.mapping(x[which[i]]);
            const auto key = mapping_id(solution.mapping);
            if (!listed.insert(key).second)
                continue;
            const auto origin =
                first_seen_.try_emplace(key, Origin{phase.plan.stage, phase.plan.level, serial})
                    .first->second;
            solution.stage = origin.stage;
            solution.level = origin.level;
            solution.generation = origin.serial;
            solution.normalised = feasible[i];
            for (std::size_t j = 0; j < objective_count_; ++j)
                solution.objectives.push_back(feasible[i][j] * space_.best_single_pe()[j]);
            solution.throughput_per_s = 1000.0 / solution.objectives[0];
            front.push_back(std::move(solution));
        }
        return front;
    }

    // Every distinct mapping of the population (report_population), infeasible ones with the
    // figures the penalty hides.
    std::vector<Solution> population(const Phase& phase, int serial) {
        const auto& f = phase.population.get_f();
        const auto& x = phase.population.get_x();
        std::vector<Solution> all;
        std::set<std::string> distinct;
        for (std::size_t i = 0; i < f.size(); ++i) {
            Solution solution;
            solution.mapping = phase.problem.mapping(x[i]);
            const auto key = mapping_id(solution.mapping);
            if (!distinct.insert(key).second)
                continue;
            solution.stage = phase.plan.stage;
            solution.level = phase.plan.level;
            solution.generation = first_evaluated_.try_emplace(key, serial).first->second;
            solution.feasible = f[i][0] < kInfeasiblePenalty;
            if (solution.feasible) {
                solution.normalised = f[i];
                for (std::size_t j = 0; j < objective_count_; ++j)
                    solution.objectives.push_back(f[i][j] * space_.best_single_pe()[j]);
            } else {
                // The penalty hides the figures; work them out again (not counted).
                solution.objectives = space_.raw_objectives(phase.problem.figures(x[i]));
                solution.normalised = space_.normalised(solution.objectives);
            }
            solution.throughput_per_s = 1000.0 / solution.objectives[0];
            all.push_back(std::move(solution));
        }
        return all;
    }

    const MappingSpace& space_;
    const SearchSettings& settings_;
    const GenerationCallback& on_generation_;
    const TaskControl* control_;
    SearchResult& result_;
    std::size_t objective_count_;
    std::int64_t budget_ = 0;
    std::mt19937 random_;
    std::map<std::string, Origin> first_seen_;
    std::map<std::string, int> first_evaluated_; // with report_population
    int serial_ = 0;
    std::vector<std::vector<double>> carried_;
    GeneLayout carried_layout_;
    std::int64_t unspent_ = 0; // evaluations a phase that ended early left to the next
};

} // namespace

SearchResult run_search(const MappingSpace& space, const SearchSettings& settings,
                        const GenerationCallback& on_generation, const TaskControl* control) {
    const int pe_count = static_cast<int>(space.pes().size());
    check_settings(settings, pe_count, space.costs().kernel_count());
    if (!space.layer_cuts().empty() && settings.encoding == Encoding::naive)
        throw InputError("", "--encoding",
                         "spe: a decoder's search is held to its layers, which split points keep");
    const auto objective_count = static_cast<std::size_t>(space.objectives().count());
    SearchResult result;
    result.plan = plan_search(settings, pe_count);
    result.reference_point = settings.reference_point.empty()
                                 ? std::vector<double>(objective_count, 2.0)
                                 : settings.reference_point;
    if (result.reference_point.size() != objective_count)
        throw InputError("", "reference_point",
                         std::to_string(objective_count) + " values, one per objective");
    SearchRun(space, settings, on_generation, control, result).run();
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
