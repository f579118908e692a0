#include "ui/document/dse_runner.hpp"

#include "core/dse/decoder_search.hpp"
#include "core/dse/exploration_inputs.hpp"
#include "core/input_error.hpp"

#include <QMetaObject>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <numeric>
#include <unordered_map>

namespace cleave::ui {

dse::SearchSpaceChoice dse_space_inputs(const PartitionInputs& inputs, bool latency_objective) {
    const auto& cluster = *inputs.request.cluster;
    std::vector<int> pes;
    std::vector<std::string> notes;
    for (int pe = 0; pe < inputs.peCount(); ++pe) {
        if (inputs.hasLatencies(pe))
            pes.push_back(pe);
        else
            notes.push_back(cluster.pes[static_cast<std::size_t>(pe)].key +
                            " has no latencies: " + inputs.pe_errors[static_cast<std::size_t>(pe)]);
    }
    auto choice = dse::choose_search_space(cluster, std::move(pes), inputs.kernel_ms,
                                           inputs.costs.get(), latency_objective);
    notes.insert(notes.end(), choice.notes.begin(), choice.notes.end());
    choice.notes = std::move(notes);
    return choice;
}

DseRunner::DseRunner(QObject* parent) : QObject(parent) {}

DseRunner::~DseRunner() {
    if (thread_) {
        control_->cancel();
        thread_->wait();
    }
}

namespace {

// The decoder's plan context over the inputs: the model as bound is the decode step.
partition::DecoderPlanContext decoder_context(const PartitionInputs& inputs,
                                              const std::vector<int>& pes,
                                              const partition::LlmWorkload& workload) {
    partition::DecoderPlanContext context;
    context.decode = {inputs.request.model.get(), inputs.request.kernels.get(), inputs.costs.get()};
    context.cluster = inputs.request.cluster.get();
    context.usable = pes;
    std::sort(context.usable.begin(), context.usable.end());
    context.workload = workload;
    return context;
}

// The exact optima of the layer plans, as solutions of `space`.
std::vector<dse::Solution> exact_points(const dse::DecoderSpace& decoder) {
    std::vector<dse::Solution> out;
    dse::MappingSpace::Scratch scratch;
    for (const auto objective :
         {partition::PlanObjective::TimePerToken, partition::PlanObjective::Bottleneck})
        if (const auto plan = partition::best_layer_plan(decoder.input, objective)) {
            const auto figures =
                decoder.space->figures(plan->mapping, dse::Level::analytical, scratch);
            dse::Solution s;
            s.mapping = plan->mapping;
            s.objectives = decoder.space->raw_objectives(figures);
            s.normalised = decoder.space->normalised(s.objectives);
            s.throughput_per_s = figures.throughput_per_s;
            s.feasible = figures.feasible();
            out.push_back(std::move(s));
        }
    return out;
}

// A decoder's search: the exact plans' objectives (and the largest stage's memory), analytical.
void hold_to_layers(dse::SearchSpaceChoice& choice, dse::SearchSettings& settings) {
    choice.objectives = {false, true, true};
    settings.levels = 1;
    choice.notes.push_back("a decoder: the search is held to its layers, one stage per host, at "
                           "level 1; the exact optima are given beside its front");
}

// What the worker searches: a decoder's space held to its layers, with its exact optima, or the
// kernels' space.
struct Spaces {
    std::optional<dse::DecoderSpace> decoder;
    std::unique_ptr<dse::MappingSpace> kernels;
    std::vector<dse::Solution> exact;

    Spaces(const PartitionInputs& inputs, dse::SearchSpaceChoice choice,
           const std::optional<partition::LlmWorkload>& workload) {
        if (workload) {
            decoder = dse::decoder_space(decoder_context(inputs, choice.pes, *workload),
                                         choice.objectives);
            exact = exact_points(*decoder);
        } else {
            kernels = std::make_unique<dse::MappingSpace>(
                *inputs.costs, choice.pes, std::move(choice.capacities), choice.objectives);
        }
    }
    const dse::MappingSpace& space() const { return decoder ? *decoder->space : *kernels; }
};

} // namespace

bool DseRunner::start(PartitionInputsPtr inputs, const dse::SearchSettings& searched,
                      bool latency_objective, std::optional<partition::LlmWorkload> workload) {
    if (thread_ || !inputs || !inputs->costs)
        return false;
    const std::uint64_t run = ++run_;
    inputs_ = std::move(inputs);
    result_ = {};
    tail_.clear();
    exact_.clear();
    error_.clear();
    auto space_inputs = dse_space_inputs(*inputs_, latency_objective);
    auto settings = searched;
    if (workload)
        hold_to_layers(space_inputs, settings);
    notes_ = space_inputs.notes;
    objectives_ = space_inputs.objectives;
    objectiveNames_ = dse::objective_names(objectives_);
    control_ = std::make_shared<TaskControl>();

    // The worker holds its own references: the inputs (and so the costs) outlive the search.
    auto work = [this, run, inputs = inputs_, control = control_, settings, workload,
                 space_inputs = std::move(space_inputs)]() mutable {
        dse::SearchResult result;
        std::vector<dse::Solution> exact;
        QString error;
        // The populations' mappings since the last step, each once with its latest figures.
        std::vector<dse::Solution> evaluated;
        std::unordered_map<std::string, std::size_t> evaluatedAt;
        try {
            const Spaces spaces(*inputs, std::move(space_inputs), workload);
            exact = spaces.exact;
            const dse::MappingSpace& space = spaces.space();
            using Clock = std::chrono::steady_clock;
            auto last = Clock::now() - std::chrono::seconds(1);
            std::vector<dse::HypervolumeStep> pending;
            const auto report = [&](const dse::Generation& generation) {
                pending.push_back({generation.phase->stage, generation.phase->level,
                                   generation.generation, generation.evaluations,
                                   generation.hypervolume});
                for (const auto& s : generation.population) {
                    const auto [at, added] =
                        evaluatedAt.try_emplace(dse::mapping_id(s.mapping), evaluated.size());
                    if (added)
                        evaluated.push_back(s);
                    else
                        evaluated[at->second] = s;
                }
                const auto now = Clock::now();
                const bool edge = generation.generation == 0 || generation.phase_end;
                if (!edge && now - last < std::chrono::milliseconds(50))
                    return;
                last = now;
                DseStep step;
                step.stage = generation.phase->stage;
                step.pes = generation.phase->pes;
                step.level = generation.phase->level;
                step.phase_index = generation.phase_index;
                step.phases = generation.phases;
                step.generation = generation.generation;
                step.generations = generation.phase->generations;
                step.evaluations = generation.evaluations;
                step.budget = generation.budget;
                step.hypervolume = generation.hypervolume;
                step.front = generation.front;
                step.history = std::move(pending);
                pending.clear();
                step.evaluated = std::move(evaluated);
                evaluated.clear();
                evaluatedAt.clear();
                QMetaObject::invokeMethod(
                    this,
                    [this, run, step = std::move(step)] {
                        if (run == run_)
                            emit stepped(step);
                    },
                    Qt::QueuedConnection);
            };
            auto withPopulation = settings;
            withPopulation.report_population = true;
            result = dse::run_search(space, withPopulation, report, control.get());
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, run, result = std::move(result), tail = std::move(evaluated),
             exact = std::move(exact), error]() mutable {
                finish(run, std::move(result), std::move(tail), std::move(exact), error);
            },
            Qt::QueuedConnection);
    };
    thread_.reset(QThread::create(std::move(work)));
    thread_->setObjectName("dse search");
    thread_->start();
    emit started();
    return true;
}

void DseRunner::finish(std::uint64_t run, dse::SearchResult result, std::vector<dse::Solution> tail,
                       std::vector<dse::Solution> exact, QString error) {
    if (run != run_ || !thread_)
        return;
    thread_->wait(); // it has posted this and is returning
    thread_.reset();
    result_ = std::move(result);
    tail_ = std::move(tail);
    exact_ = std::move(exact);
    error_ = std::move(error);
    emit finished();
}

void DseRunner::pause() {
    if (!thread_ || control_->paused())
        return;
    control_->pause();
    emit pausedChanged(true);
}

void DseRunner::resume() {
    if (!thread_ || !control_->paused())
        return;
    control_->resume();
    emit pausedChanged(false);
}

void DseRunner::cancel() {
    if (thread_)
        control_->cancel();
}

} // namespace cleave::ui
