// cleave dse: the Pareto front of a model's mappings onto a cluster (throughput, the largest
// per-device memory and energy, optionally latency) by pagmo2's NSGA-II, multi-stage and
// hierarchical as in AutoDiCE's DSE; progress on stderr, the front and the hypervolume per
// generation as JSON. Runs in cleave-dse, the one program that links pagmo2 (dse_launcher.cpp).
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/device/cluster.hpp"
#include "core/dse/exploration_inputs.hpp"
#include "core/dse/front_output.hpp"
#include "core/dse/nsga2_search.hpp"
#include "core/input_error.hpp"
#include "decoder_output.hpp"
#include "dse_exact.hpp"
#include "dse_measurement.hpp"
#include "interrupt.hpp"
#include "model_options.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace cleave::cli {

namespace {

struct DseOptions {
    ModelOptions model;
    std::string cluster;
    std::string predictor;
    std::string rules = "ort-cpu";
    int generations = 400;
    int population = 100;
    std::string stages = "auto";
    int levels = 2;
    std::string encoding = "spe";
    std::string segment_pes = "genes";
    std::int64_t budget = 0;
    double crossover = 0.5;
    double mutation = 0.2;
    double level2_share = 0.2;
    int stage_patience = 20;
    std::string stage_seeds = "refined";
    int replay_inputs = 16;
    int max_pes = 0;
    bool latency = false;
    // A decoder's exact layer plans instead of a search (dse_exact.hpp).
    bool exact = false;
    bool suggest_device = false;
    std::string llama_cpp, plan, gguf, precision, objectives;
    bool pin = false;
    partition::LlmWorkload workload;
    bool workload_given = false;
    unsigned seed = 1;
    bool json = false;
    std::string out;
    // Level 2 measured with Open MPI (mpi_measurement.hpp) instead of replayed.
    std::string measure;
    autodice::MpiLaunch launch;
};

dse::SearchSettings settings_of(const DseOptions& options) {
    dse::SearchSettings settings;
    if (options.encoding == "spe")
        settings.encoding = dse::Encoding::spe;
    else if (options.encoding == "naive")
        settings.encoding = dse::Encoding::naive;
    else
        throw InputError("", "--encoding", "spe or naive, not '" + options.encoding + "'");
    if (options.stages == "auto")
        settings.stages = 0;
    else if (options.stages == "1")
        settings.stages = 1;
    else
        throw InputError("", "--stages", "auto or 1, not '" + options.stages + "'");
    if (options.segment_pes == "genes")
        settings.assign_pes = true;
    else if (options.segment_pes == "order")
        settings.assign_pes = false;
    else
        throw InputError("", "--segment-pes", "genes or order, not '" + options.segment_pes + "'");
    settings.population = options.population;
    settings.generations = options.generations;
    settings.levels = options.levels;
    settings.evaluation_budget = options.budget;
    settings.crossover = options.crossover;
    settings.mutation = options.mutation;
    settings.level2_share = options.level2_share;
    settings.stage_patience = options.stage_patience;
    if (options.stage_seeds == "refined" || options.stage_seeds == "carried")
        settings.refine_seeds = options.stage_seeds == "refined";
    else
        throw InputError("", "--stage-seeds",
                         "refined or carried, not '" + options.stage_seeds + "'");
    settings.seed = options.seed;
    return settings;
}

// The search with a progress line per generation; Ctrl-C stops it after the generation it is in
// and the front so far is written as usual, marked "cancelled".
dse::SearchResult search(const dse::MappingSpace& space, const dse::SearchSettings& settings,
                         Progress& progress) {
    ProgressControl printed(progress);
    printed.note_when_cancelled(
        "cleave: interrupted: stopping after this generation with the front so far");
    std::optional<Interrupt> interrupt(std::in_place, printed.control());
    auto result = dse::run_search(space, settings, {}, &printed.control());
    interrupt.reset();
    progress.clear();
    std::sort(result.front.begin(), result.front.end(),
              [](const auto& a, const auto& b) { return a.throughput_per_s > b.throughput_per_s; });
    return result;
}

// The front beside the best single PE.
struct FrontSummary {
    double best_bottleneck_ms = 0;
    double best_memory = 0;
    int beat_throughput = 0;
    int beat_memory = 0;
};

FrontSummary summarise(const dse::MappingSpace& space, const dse::SearchResult& result) {
    using dse::Objective;
    const auto& objectives = space.objectives();
    const auto& best = space.best_single_pe();
    FrontSummary summary;
    summary.best_bottleneck_ms = objectives.value(best, Objective::bottleneck_ms);
    summary.best_memory = objectives.value(best, Objective::max_memory_bytes);
    for (const auto& s : result.front) {
        summary.beat_throughput +=
            objectives.value(s.objectives, Objective::bottleneck_ms) < summary.best_bottleneck_ms
                ? 1
                : 0;
        summary.beat_memory +=
            objectives.value(s.objectives, Objective::max_memory_bytes) < summary.best_memory ? 1
                                                                                             : 0;
    }
    return summary;
}

nlohmann::ordered_json front_document(const DseOptions& options,
                                      const dse::SearchSettings& settings,
                                      const dse::ExplorationInputs& inputs,
                                      const dse::SearchResult& result,
                                      const std::vector<std::string>& notes,
                                      const FrontSummary& summary) {
    const auto& space = *inputs.space;
    const auto& cluster = inputs.cluster;
    const auto names = dse::objective_names(space.objectives());
    nlohmann::ordered_json searched = nlohmann::ordered_json::array();
    for (const int pe : space.pes())
        searched.push_back(cluster.pes[static_cast<std::size_t>(pe)].key);
    nlohmann::ordered_json best_single = nlohmann::ordered_json::object();
    for (std::size_t j = 0; j < names.size(); ++j)
        best_single[names[j]] = space.best_single_pe()[j];
    best_single["throughput_per_s"] = 1000.0 / summary.best_bottleneck_ms;
    auto plan = nlohmann::ordered_json::array();
    for (const auto& phase : result.plan)
        plan.push_back({{"stage", phase.stage},
                        {"pes", phase.pes},
                        {"level", static_cast<int>(phase.level)},
                        {"generations", phase.generations},
                        {"evaluations", phase.evaluations}});
    return {{"model", inputs.model.file},
            {"cluster", cluster.file},
            {"rules", options.rules},
            {"kernels", space.costs().kernel_count()},
            {"encoding", options.encoding},
            {"settings",
             {{"population", settings.population},
              {"generations", settings.generations},
              {"crossover", settings.crossover},
              {"mutation", settings.mutation},
              {"stages", options.stages},
              {"levels", settings.levels},
              {"segment_pes", options.segment_pes},
              {"level2_share", settings.level2_share},
              {"stage_patience", settings.stage_patience},
              {"stage_seeds", options.stage_seeds},
              {"replay_inputs", options.replay_inputs},
              {"level2", space.measured() ? "measured (mpi)" : "replay"},
              {"seed", settings.seed}}},
            {"pes", searched},
            {"notes", notes},
            {"objectives", names},
            {"best_single_pe", best_single},
            {"reference_point", result.reference_point},
            {"plan", plan},
            {"evaluations", result.evaluations},
            {"cancelled", result.cancelled},
            {"beats_best_single_pe",
             {{"throughput", summary.beat_throughput}, {"memory", summary.beat_memory}}},
            {"front", dse::front_json(result.front, names, cluster)},
            {"hypervolume", dse::history_json(result.history)}};
}

void print_front(const DseOptions& options, const dse::ExplorationInputs& inputs,
                 const dse::SearchResult& result, const FrontSummary& summary) {
    using dse::Objective;
    const auto& space = *inputs.space;
    const auto& cluster = inputs.cluster;
    const auto& objectives = space.objectives();
    std::printf("%s on %s: %d kernels by %s, %zu PEs searched, %lld evaluations\n",
                inputs.model.file.c_str(), cluster.file.c_str(), space.costs().kernel_count(),
                options.rules.c_str(), space.pes().size(),
                static_cast<long long>(result.evaluations));
    char best_energy[48] = "";
    if (objectives.energy)
        std::snprintf(best_energy, sizeof best_energy, ", %.3f mJ",
                      objectives.value(space.best_single_pe(), Objective::max_energy_mj));
    std::printf("best single PE: %.2f /s, %s bytes%s\n", 1000.0 / summary.best_bottleneck_ms,
                grouped(static_cast<std::int64_t>(summary.best_memory)).c_str(), best_energy);
    std::printf("front: %zu mappings, %d beat it in throughput, %d in memory; hypervolume %.4f\n\n",
                result.front.size(), summary.beat_throughput, summary.beat_memory,
                result.history.empty() ? 0.0 : result.history.back().hypervolume);
    std::printf("  %12s %16s %12s  %s\n", "throughput/s", "max memory B",
                objectives.energy ? "max energy mJ" : "", "mapping (points | PEs)");
    for (const auto& s : result.front) {
        char energy[32] = "";
        if (objectives.energy)
            std::snprintf(energy, sizeof energy, "%.3f",
                          objectives.value(s.objectives, Objective::max_energy_mj));
        std::printf("  %12.2f %16s %12s  %s\n", s.throughput_per_s,
                    grouped(static_cast<std::int64_t>(
                                objectives.value(s.objectives, Objective::max_memory_bytes)))
                        .c_str(),
                    energy, dse::mapping_key(s.mapping, cluster).c_str());
    }
}

int run_dse(const DseOptions& options) {
    const ExactOptions decoder{options.model,     options.cluster,   options.predictor,
                               options.rules,     options.workload,  options.suggest_device,
                               options.llama_cpp, options.plan,      options.gguf,
                               options.pin,       options.precision, options.objectives,
                               options.json,      options.out};
    if (options.exact || options.suggest_device)
        return run_decoder_plans(decoder);
    // Settings first, so bad flags are refused before any model is read.
    auto settings = settings_of(options);
    dse::check_settings(settings);
    if (options.workload_given) { // a decoder: the search held to its layers, analytical
        settings.levels = 1;
        return run_decoder_plans(decoder, [&](const dse::MappingSpace& space, Progress& progress) {
            return search(space, settings, progress);
        });
    }
    for (const auto& [given, flag] : {std::pair{!options.llama_cpp.empty(), "--llama-cpp"},
                                      std::pair{!options.precision.empty(), "--precision"},
                                      std::pair{!options.objectives.empty(), "--objectives"}})
        if (given)
            throw InputError("", flag,
                             "a decoder's workload (--context, or --prompt-tokens and --generate) "
                             "or --exact beside it");
    if (!options.out.empty())
        check_file_can_be_written(options.out);
    if (!options.measure.empty() && options.measure != "mpi")
        throw InputError("", "--measure", "mpi, not '" + options.measure + "'");
    if (!options.measure.empty() && settings.levels != 2)
        throw InputError("", "--measure", "measuring is level 2: it needs --levels 2");
    dse::ExplorationOptions exploration;
    exploration.rules = options.rules;
    exploration.predictor_file = options.predictor;
    exploration.latency_objective = options.latency;
    exploration.max_pes = options.max_pes;
    exploration.replay_inputs = options.replay_inputs;
    const auto inputs = dse::prepare_exploration(
        options.model.load(), device::load_cluster(options.cluster), exploration);
    const auto& space = *inputs->space;
    Progress progress;
    for (const auto& note : inputs->notes)
        progress.line("cleave: note: " + note);
    std::unique_ptr<DseMeasurement> measurement;
    if (!options.measure.empty()) {
        measurement = std::make_unique<DseMeasurement>(*inputs, options.launch, !quiet());
        inputs->space->set_measurement(
            [m = measurement.get()](const partition::KernelAssignment& a) {
                return m->measure(a);
            });
    }
    const auto result = search(space, settings, progress);
    auto notes = inputs->notes;
    if (result.front.empty() && !result.cancelled) {
        notes.push_back(dse::empty_front_explanation(settings.encoding));
        progress.line("cleave: note: " + notes.back());
    }
    const auto summary = summarise(space, result);
    if (options.json || !options.out.empty()) {
        auto document = front_document(options, settings, *inputs, result, notes, summary);
        if (measurement)
            document["measurements"] = measurement->json();
        emit_json(document, options.json, options.out);
        if (options.json)
            return result.cancelled ? kInterruptedExit : 0;
    }
    print_front(options, *inputs, result, summary);
    // Ctrl-C: the front so far is written as promised, and the exit status says it was cut short.
    return result.cancelled ? kInterruptedExit : 0;
}

// --exact and what goes with it: a decoder's workload, the what-if precision, llama.cpp lines.
void add_exact_options(CLI::App& app, DseOptions& options) {
    auto* command = &app;
    command->add_flag("--exact", options.exact,
                      "A decoder: the exact layer plans alone, without the search (least time per "
                      "token, least slowest stage) by dynamic programming over hosts, their order "
                      "and layer ranges under memory caps, beside the layer rules of "
                      "distributed-llama, exo and llama.cpp");
    command->add_flag(
        "--suggest-device", options.suggest_device,
        "With a decoder's workload: rank the library's devices by the tokens per second one more "
        "of them would give");
    command->add_option(
        "--llama-cpp", options.llama_cpp,
        "With a decoder's workload: write a plan as llama.cpp command lines (rpc-server per "
        "host, llama-server with --rpc, -ts and, when pinned, -ot) to FILE");
    command->add_option("--plan", options.plan,
                        "The plan --llama-cpp writes: exact-time-per-token (default with one "
                        "sequence in flight), exact-bottleneck (default with more), equal, memory, "
                        "llama.cpp, or the search's nsga2-time-per-token or nsga2-bottleneck");
    command->add_option("--gguf", options.gguf,
                        "The model's GGUF file on llama-server's host (default: MODEL's name, "
                        ".gguf)");
    command->add_option("--precision", options.precision,
                        "With a decoder's workload: cost its matrix weights as fp32, fp16, int8 or "
                        "int4, a what-if beside the precision the model stores (labelled)");
    command->add_flag("--llama-cpp-pin", options.pin,
                      "Pin every layer range with -ot as well as the -ts proportions");
    command->add_option("--objectives", options.objectives,
                        "A decoder's search: what it minimises, comma-separated among bottleneck "
                        "(tokens-per-s), latency (time-per-token), memory, energy (default "
                        "bottleneck,latency)");
    add_workload_options(*command, options.workload, options.workload_given);
}

} // namespace

Action add_dse_command(CLI::App& app) {
    auto options = std::make_shared<DseOptions>();
    auto* command = app.add_subcommand("dse", kDseDescription);
    options->model.add_to(*command, false);
    command
        ->add_option("--cluster", options->cluster, "Cluster file (.cluster.json) or platform.txt")
        ->required();
    command->add_option(
        "--predictor", options->predictor,
        "Predictor file for the PEs of its device (others: shipped, else roofline)");
    command->add_option("--rules", options->rules, "Fusion method for the kernels")
        ->capture_default_str();
    command
        ->add_option("--generations", options->generations,
                     "Generations (with --population: the evaluation budget)")
        ->capture_default_str();
    command->add_option("--population", options->population, "Population (>= 8, a multiple of 4)")
        ->capture_default_str();
    command->add_option("--stages", options->stages, "auto: ceil(log2 N) stages; 1: one stage")
        ->capture_default_str();
    command->add_option("--levels", options->levels, "2: analytical then replay; 1: analytical")
        ->capture_default_str();
    command
        ->add_option("--encoding", options->encoding, "spe (split points) or naive (PE per kernel)")
        ->capture_default_str();
    command
        ->add_option("--segment-pes", options->segment_pes,
                     "SPE: genes (a PE gene per segment) or order (segment s on PE s)")
        ->capture_default_str();
    command
        ->add_option("--budget", options->budget,
                     "Evaluations in all; 0: population x (generations + 1)")
        ->capture_default_str();
    command->add_option("--crossover", options->crossover, "Crossover probability")
        ->capture_default_str();
    command->add_option("--mutation", options->mutation, "Mutation probability")
        ->capture_default_str();
    command
        ->add_option("--level2-share", options->level2_share,
                     "Share of each stage's evaluations for level 2")
        ->capture_default_str();
    command
        ->add_option("--stage-patience", options->stage_patience,
                     "A phase before the last ends after this many generations without a "
                     "hypervolume gain, passing on its evaluations; 0: run each as planned")
        ->capture_default_str();
    command
        ->add_option("--stage-seeds", options->stage_seeds,
                     "refined: seed each stage with the previous stage's Pareto mappings as they "
                     "are and with their longest segments (by time, and by bytes held) split onto "
                     "the added PEs; carried: as they are only")
        ->capture_default_str();
    command->add_option("--replay-inputs", options->replay_inputs, "Inputs per level-2 replay")
        ->capture_default_str();
    command->add_option("--max-pes", options->max_pes, "Search only the N fastest PEs; 0: all")
        ->capture_default_str();
    command->add_flag("--latency", options->latency, "Add the pipeline latency as an objective");
    add_exact_options(*command, *options);
    command->add_option("--seed", options->seed, "Seed (the same seed repeats the run)")
        ->capture_default_str();
    command->add_option("--measure", options->measure,
                        "mpi: level 2 measures each mapping with Open MPI (cleave run-partition) "
                        "instead of replaying it");
    command
        ->add_option("--measure-inputs", options->launch.inputs,
                     "--measure: inputs streamed through each measured pipeline")
        ->capture_default_str();
    command
        ->add_option("--measure-timeout-s", options->launch.job_timeout_s,
                     "--measure: longest one measured run may take before it is killed")
        ->capture_default_str();
    command->add_option("--mpirun", options->launch.mpirun, "--measure: Open MPI's launcher")
        ->capture_default_str();
    command->add_flag("--mpi-rankfile", options->launch.use_rankfile,
                      "--measure: run the ranks on the cluster's hosts by the package's rankfile "
                      "(default: every rank on this machine)");
    command->add_flag("--json", options->json, "Print the front and hypervolumes as JSON");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    return [options] { return run_dse(*options); };
}

} // namespace cleave::cli
