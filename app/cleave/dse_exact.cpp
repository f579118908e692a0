#include "dse_exact.hpp"

#include "core/atomic_file.hpp"
#include "core/device/cluster.hpp"
#include "core/device/device_library.hpp"
#include "core/dse/decoder_search.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/decoder_phase.hpp"
#include "core/input_error.hpp"
#include "core/partition/decoder_plans.hpp"
#include "core/partition/llama_cpp_launch.hpp"
#include "core/partition/pe_latencies.hpp"
#include "decoder_output.hpp"
#include "interrupt.hpp"
#include "output.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

namespace cleave::cli {

namespace {

// One phase of the decoder: the model bound for it (at the what-if precision), costed.
std::unique_ptr<partition::CostedPhase>
load_phase(const ModelOptions& model, const device::Cluster& cluster, const std::string& rules,
           const predict::Predictor* given, PrecisionChoice& precision) {
    auto loaded = model.load();
    precision.apply(loaded);
    return partition::cost_phase(std::move(loaded), cluster, rules, given);
}

nlohmann::ordered_json plan_json(const partition::DecoderPlan& p, const device::Cluster& cluster) {
    auto stages = nlohmann::ordered_json::array();
    int first = 0;
    for (std::size_t s = 0; s < p.plan.pes.size(); ++s) {
        stages.push_back({{"pe", cluster.pes[static_cast<std::size_t>(p.plan.pes[s])].key},
                          {"first_layer", first},
                          {"layers", p.plan.layers[s]}});
        first += p.plan.layers[s];
    }
    nlohmann::ordered_json out{{"name", p.name},
                               {"rule", p.rule},
                               {"stages", stages},
                               {"points", p.plan.mapping.points},
                               {"time_per_output_token_ms", p.time_per_token_ms},
                               {"bottleneck_ms", p.bottleneck_ms},
                               {"tokens_per_s", p.tokens_per_s}};
    out["time_to_first_token_ms"] = p.time_to_first_token_ms
                                        ? nlohmann::ordered_json(*p.time_to_first_token_ms)
                                        : nlohmann::ordered_json();
    out["energy_per_token_mj"] = std::isfinite(p.energy_per_token_mj)
                                     ? nlohmann::ordered_json(p.energy_per_token_mj)
                                     : nlohmann::ordered_json();
    out["memory_headroom_bytes"] =
        p.headroom_bytes ? nlohmann::ordered_json(*p.headroom_bytes) : nlohmann::ordered_json();
    out["fits"] = p.memory.fits;
    out["program"] = {{"time_per_output_token_ms", p.plan.latency_ms},
                      {"bottleneck_ms", p.plan.bottleneck_ms}};
    out["memory"] = llm_memory_json(p.memory, cluster, p.plan.pes);
    return out;
}

std::string stages_text(const partition::DecoderPlan& p, const device::Cluster& cluster) {
    std::string out;
    int first = 0;
    for (std::size_t s = 0; s < p.plan.pes.size(); ++s) {
        const int last = first + p.plan.layers[s] - 1;
        out += (s ? "  " : "") + cluster.pes[static_cast<std::size_t>(p.plan.pes[s])].key + " " +
               std::to_string(first) + "-" + std::to_string(last);
        first = last + 1;
    }
    return out;
}

void print_plans(const std::vector<partition::DecoderPlan>& plans, const device::Cluster& cluster,
                 double seconds) {
    std::printf("%-34s %9s %9s %9s %9s %8s %5s  %s\n", "plan", "tokens/s", "TPOT ms", "TTFT ms",
                "mJ/token", "room GB", "fits", "stages (PE first-last layer)");
    for (const auto& p : plans) {
        char ttft[32] = "-", energy[32] = "-", room[32] = "-";
        if (p.time_to_first_token_ms)
            std::snprintf(ttft, sizeof ttft, "%.1f", *p.time_to_first_token_ms);
        if (std::isfinite(p.energy_per_token_mj))
            std::snprintf(energy, sizeof energy, "%.1f", p.energy_per_token_mj);
        if (p.headroom_bytes)
            std::snprintf(room, sizeof room, "%.2f", static_cast<double>(*p.headroom_bytes) / 1e9);
        std::printf("%-34s %9.3f %9.2f %9s %9s %8s %5s  %s\n", p.name.c_str(), p.tokens_per_s,
                    p.time_per_token_ms, ttft, energy, room, p.memory.fits ? "yes" : "NO",
                    stages_text(p, cluster).c_str());
    }
    std::printf("(exact plans in %.3f s)\n", seconds);
    for (const auto& p : plans) {
        std::printf("\n%s: memory per pool\n", p.name.c_str());
        print_memory_pools(p.memory, "  ");
    }
}

nlohmann::ordered_json suggestions_json(const std::vector<partition::DeviceSuggestion>& list) {
    auto out = nlohmann::ordered_json::array();
    for (const auto& s : list) {
        nlohmann::ordered_json row{{"device", s.device}, {"host", s.host}, {"fits", s.fits}};
        if (!s.left_out.empty()) {
            row["left_out"] = s.left_out;
        } else {
            row["tokens_per_s"] = s.tokens_per_s;
            row["time_per_output_token_ms"] = s.time_per_token_ms;
            row["gain"] = s.gain;
            row["binding"] = s.binding;
        }
        out.push_back(row);
    }
    return out;
}

void print_suggestions(const std::vector<partition::DeviceSuggestion>& list) {
    std::printf("\none more device (best plan with it):\n  %-24s %10s %10s %7s  %s\n", "device",
                "tokens/s", "TPOT ms", "gain", "tightest pool then");
    for (const auto& s : list) {
        if (!s.left_out.empty())
            std::printf("  %-24s %s\n", s.device.c_str(), s.left_out.c_str());
        else if (!s.fits)
            std::printf("  %-24s %10s %10s %7s  no plan fits\n", s.device.c_str(), "-", "-", "-");
        else
            std::printf("  %-24s %10.3f %10.2f %6.2fx  %s\n", s.device.c_str(), s.tokens_per_s,
                        s.time_per_token_ms, s.gain, s.binding.c_str());
    }
}

int layers_of(const partition::DecoderPlan& plan) {
    int layers = 0;
    for (const int n : plan.plan.layers)
        layers += n;
    return layers;
}

const partition::DecoderPlan* plan_by_rule(const std::vector<partition::DecoderPlan>& plans,
                                           const std::string& rule) {
    for (const auto& p : plans)
        if (p.rule == rule)
            return &p;
    return nullptr;
}

const partition::DecoderPlan& chosen_plan(const std::vector<partition::DecoderPlan>& plans,
                                          const ExactOptions& options,
                                          const partition::LlmWorkload& workload) {
    const std::string rule = !options.plan.empty()    ? options.plan
                             : workload.sequences > 1 ? "exact-bottleneck"
                                                      : "exact-time-per-token";
    if (const auto* found = plan_by_rule(plans, rule))
        return *found;
    std::string known;
    for (const auto& p : plans)
        known += (known.empty() ? "" : ", ") + p.rule;
    throw InputError("", "--plan", "one of " + known + ", found '" + rule + "'");
}

partition::LlamaCppLaunch llama_cpp_of(const partition::DecoderPlan& plan,
                                       const device::Cluster& cluster, const ExactOptions& options,
                                       const partition::LlmWorkload& workload) {
    std::vector<partition::LlamaCppStage> stages;
    int first = 0;
    for (std::size_t s = 0; s < plan.plan.pes.size(); ++s) {
        const auto& pe = cluster.pes[static_cast<std::size_t>(plan.plan.pes[s])];
        stages.push_back({pe.host, first, plan.plan.layers[s], pe.kind == device::PeKind::gpu,
                          pe.kind == device::PeKind::cpu ? pe.spec.cores : 0});
        first += plan.plan.layers[s];
    }
    partition::LlamaCppOptions launch;
    launch.model = options.gguf.empty()
                       ? std::filesystem::path(options.model.model).stem().string() + ".gguf"
                       : options.gguf;
    launch.context = workload.cached_context();
    launch.parallel = static_cast<int>(workload.sequences * workload.batch);
    launch.pin = options.pin;
    return partition::llama_cpp_launch(stages, first, launch);
}

std::string llama_cpp_text(const partition::LlamaCppLaunch& launch,
                           const partition::DecoderPlan& plan) {
    std::string out = "# llama.cpp over RPC for the plan \"" + plan.name +
                      "\" (cleave dse --exact): start each rpc-server, then llama-server.\n";
    for (std::size_t s = 0; s < launch.servers.size(); ++s) {
        const auto& server = launch.servers[s];
        out += "\n# on " + server.host + " (stage " + std::to_string(s + 1) + ", " +
               std::to_string(plan.plan.layers[s]) +
               (plan.plan.layers[s] == 1 ? " layer)" : " layers)") +
               (server.note.empty() ? "" : ": " + server.note) + "\n" + server.command + "\n";
    }
    out += "\n# then on " + launch.main_host + "\n" + launch.main_command + "\n";
    return out;
}

nlohmann::ordered_json llama_cpp_json(const partition::LlamaCppLaunch& launch,
                                      const partition::DecoderPlan& plan, const std::string& file) {
    auto servers = nlohmann::ordered_json::array();
    for (const auto& s : launch.servers)
        servers.push_back({{"host", s.host}, {"command", s.command}, {"note", s.note}});
    return {{"file", file},
            {"plan", plan.rule},
            {"servers", servers},
            {"main", {{"host", launch.main_host}, {"command", launch.main_command}}},
            {"tensor_split", launch.tensor_split},
            {"pinned", launch.pinned}};
}

// What the NSGA-II search found, beside the exact plans.
struct SearchOutcome {
    dse::SearchResult result;
    dse::DecoderFrontPlans plans;
    std::vector<std::string> objectives;
    double seconds = 0;
    // The search's best over the exact optimum, less 1, by time per token and by slowest stage;
    // nullopt where either side has no plan.
    std::optional<double> time_per_token_gap;
    std::optional<double> bottleneck_gap;
};

SearchOutcome run_search_beside(const partition::DecoderPlanContext& context,
                                const ExactOptions& options, const DecoderSearchRun& search,
                                const std::vector<partition::DecoderPlan>& exact,
                                Progress& progress) {
    SearchOutcome out;
    const auto objectives = options.objectives.empty()
                                ? dse::ObjectiveSet{false, true, false}
                                : dse::parse_objectives(options.objectives, "--objectives");
    out.objectives = dse::objective_names(objectives);
    const auto space = dse::decoder_space(context, objectives);
    const auto start = std::chrono::steady_clock::now();
    out.result = search(*space.space, progress);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out.plans = dse::decoder_front_plans(context, space, out.result.front);
    const auto gap = [&](const std::optional<partition::DecoderPlan>& found, const char* rule,
                         double partition::DecoderPlan::*figure) -> std::optional<double> {
        const auto* best = plan_by_rule(exact, rule);
        if (!found || !best || !(best->*figure > 0))
            return std::nullopt;
        return (*found).*figure / best->*figure - 1.0;
    };
    out.time_per_token_gap =
        gap(out.plans.fastest, "exact-time-per-token", &partition::DecoderPlan::time_per_token_ms);
    out.bottleneck_gap =
        gap(out.plans.widest, "exact-bottleneck", &partition::DecoderPlan::bottleneck_ms);
    return out;
}

nlohmann::ordered_json search_json(const SearchOutcome& s, const device::Cluster& cluster) {
    auto front = nlohmann::ordered_json::array();
    for (const auto& p : s.plans.front)
        front.push_back(plan_json(p, cluster));
    const auto optional = [](const std::optional<double>& v) {
        return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json();
    };
    return {{"objectives", s.objectives},
            {"evaluations", s.result.evaluations},
            {"seconds", s.seconds},
            {"cancelled", s.result.cancelled},
            {"gap_to_exact",
             {{"time_per_output_token", optional(s.time_per_token_gap)},
              {"bottleneck", optional(s.bottleneck_gap)}}},
            {"front", front}};
}

void print_search(const SearchOutcome& s) {
    const auto percent = [](const std::optional<double>& v) {
        char text[32] = "-";
        if (v)
            std::snprintf(text, sizeof text, "%+.2f%%", 100.0 * *v);
        return std::string(text);
    };
    std::printf("\nNSGA-II held to the layers: %zu plans on its front, %lld evaluations in %.2f s%s"
                "\n  its best against the exact optimum: time per token %s, slowest stage %s\n",
                s.plans.front.size(), static_cast<long long>(s.result.evaluations), s.seconds,
                s.result.cancelled ? " (interrupted)" : "", percent(s.time_per_token_gap).c_str(),
                percent(s.bottleneck_gap).c_str());
}

// What a run found, for output.
struct ExactRun {
    const std::string& model;
    const device::Cluster& cluster;
    const partition::LlmWorkload& workload;
    const PrecisionChoice& precision;
    int layers = 0;
    bool prefill = false;
    const std::vector<partition::DecoderPlan>& plans;
    double seconds = 0;
    const std::vector<partition::DeviceSuggestion>& suggestions;
    const std::optional<partition::LlamaCppLaunch>& launch;
    const partition::DecoderPlan* exported = nullptr;
    const SearchOutcome* searched = nullptr;
};

// Ctrl-C during the search: the plans so far are written as promised, the status says so.
int exit_status(const ExactRun& r) {
    return r.searched && r.searched->result.cancelled ? kInterruptedExit : 0;
}

int report(const ExactOptions& options, const ExactRun& r) {
    if (options.json || !options.out.empty()) {
        auto list = nlohmann::ordered_json::array();
        for (const auto& p : r.plans)
            list.push_back(plan_json(p, r.cluster));
        nlohmann::ordered_json document{{"model", r.model},
                                        {"cluster", r.cluster.file},
                                        {"rules", options.rules},
                                        {"workload", workload_json(r.workload)},
                                        {"precision", r.precision.json()},
                                        {"layers", r.layers},
                                        {"seconds", r.seconds},
                                        {"plans", list}};
        if (options.suggest_device)
            document["suggestions"] = suggestions_json(r.suggestions);
        if (r.launch)
            document["llama_cpp"] = llama_cpp_json(*r.launch, *r.exported, options.llama_cpp);
        if (r.searched)
            document["search"] = search_json(*r.searched, r.cluster);
        emit_json(document, options.json, options.out);
        if (options.json)
            return exit_status(r);
    }
    std::printf("%s on %s: %d layers; decode after %lld tokens (batch %lld, %lld in flight)",
                r.model.c_str(), r.cluster.file.c_str(), r.layers,
                static_cast<long long>(r.workload.cached_context() - 1),
                static_cast<long long>(r.workload.batch),
                static_cast<long long>(r.workload.sequences));
    if (r.prefill)
        std::printf(", prompt of %lld tokens", static_cast<long long>(r.workload.prompt_tokens));
    if (r.precision.what_if())
        std::printf("\n%s", r.precision.line().c_str());
    std::printf("\n\n");
    print_plans(r.plans, r.cluster, r.seconds);
    if (r.searched)
        print_search(*r.searched);
    if (options.suggest_device)
        print_suggestions(r.suggestions);
    if (r.launch)
        std::printf("\nllama.cpp command lines for \"%s\" in %s%s\n", r.exported->name.c_str(),
                    options.llama_cpp.c_str(), r.launch->pinned ? " (ranges pinned with -ot)" : "");
    return exit_status(r);
}

} // namespace

int run_decoder_plans(const ExactOptions& options, const DecoderSearchRun& search) {
    if (!options.objectives.empty())
        dse::parse_objectives(options.objectives, "--objectives"); // refused before any reading
    if (!options.out.empty())
        check_file_can_be_written(options.out);
    if (!options.llama_cpp.empty())
        check_file_can_be_written(options.llama_cpp);
    const auto cluster = device::load_cluster(options.cluster);
    std::optional<predict::Predictor> given;
    if (!options.predictor.empty())
        given = partition::load_cluster_predictor(options.predictor, cluster);
    Progress progress;
    progress.line("cleave: predicting the decode step's kernels on every PE");
    auto decode_model = options.model;
    const bool bound = decode_model.roles.decode || decode_model.roles.prefill;
    partition::LlmWorkload workload = options.workload;
    if (!bound) {
        if (workload.cached_context() < 1)
            throw InputError(options.model.model, "--context",
                             "a workload's context for the decode step (--context, or "
                             "--prompt-tokens and --generate)");
        decode_model.roles.decode = workload.cached_context() - 1;
    }
    PrecisionChoice precision(options.precision);
    const auto decode =
        load_phase(decode_model, cluster, options.rules, given ? &*given : nullptr, precision);
    const auto phase = graph::decoder_phase(decode->model);
    if (!phase)
        throw InputError(decode->model.file, "--exact",
                         "a decoder (a model with past key/value inputs)");
    workload.batch = phase->batch;
    if (workload.cached_context() == 0)
        workload.context = phase->context;
    partition::check_workload(decode->model, workload);
    std::unique_ptr<partition::CostedPhase> prefill;
    if (!bound && workload.prompt_tokens > 0) {
        progress.line("cleave: predicting the prefill's kernels on every PE");
        auto prefill_model = options.model;
        prefill_model.roles.prefill = workload.prompt_tokens;
        prefill =
            load_phase(prefill_model, cluster, options.rules, given ? &*given : nullptr, precision);
    }
    partition::DecoderPlanContext context;
    context.decode = decode->view();
    if (prefill)
        context.prefill = prefill->view();
    context.cluster = &cluster;
    context.usable = decode->latencies.usable();
    context.workload = workload;
    for (const auto& note : decode->latencies.left_out_notes(cluster))
        progress.line("cleave: note: " + note);
    const auto start = std::chrono::steady_clock::now();
    auto plans = partition::decoder_plans(context);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::optional<SearchOutcome> searched;
    if (search) {
        searched = run_search_beside(context, options, search, plans, progress);
        for (const auto* found : {&searched->plans.widest, &searched->plans.fastest})
            if (*found)
                plans.insert(plans.begin(), **found);
    }
    std::vector<partition::DeviceSuggestion> suggestions;
    if (options.suggest_device) {
        progress.line("cleave: trying each library device as one more host");
        suggestions = partition::suggest_devices(context, decode->latencies.kernel_ms,
                                                 options.rules, device::library_devices());
    }
    std::optional<partition::LlamaCppLaunch> launch;
    const partition::DecoderPlan* exported = nullptr;
    if (!options.llama_cpp.empty()) {
        exported = &chosen_plan(plans, options, workload);
        launch = llama_cpp_of(*exported, cluster, options, workload);
        write_file_atomically(options.llama_cpp, llama_cpp_text(*launch, *exported));
    }
    progress.clear();
    return report(options, {decode->model.file, cluster, workload, precision,
                            layers_of(plans.front()), prefill != nullptr, plans, seconds,
                            suggestions, launch, exported, searched ? &*searched : nullptr});
}

} // namespace cleave::cli
