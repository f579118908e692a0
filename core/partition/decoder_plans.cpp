#include "decoder_plans.hpp"

#include "core/fusion/fusion_method.hpp"
#include "core/graph/decoder_phase.hpp"
#include "core/input_error.hpp"
#include "layer_split.hpp"
#include "pe_latencies.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cleave::partition {

namespace {

// The memory side: the prefill's model where it has the decode step's kernels (its activations
// are the larger), else the decode step's.
const DecoderPhaseCosts& memory_phase(const DecoderPlanContext& c) {
    if (c.prefill.model && c.prefill.kernels->kernels.size() == c.decode.kernels->kernels.size())
        return c.prefill;
    return c.decode;
}

DecoderPlan figures(const DecoderPlanContext& c, std::string name, std::string rule,
                    LayerPlan plan) {
    DecoderPlan out;
    out.name = std::move(name);
    out.rule = std::move(rule);
    const auto decode = c.decode.costs->evaluate(plan.mapping);
    out.time_per_token_ms = decode.latency_ms;
    out.bottleneck_ms = decode.bottleneck_ms;
    out.tokens_per_s = pipelined_tokens_per_s(c.workload, decode.latency_ms, decode.bottleneck_ms);
    double energy = 0;
    for (const auto& pe : decode.pes)
        if (pe.kernels > 0 || pe.communication_ms() > 0)
            energy += pe.energy_mj;
    out.energy_per_token_mj = energy / static_cast<double>(c.workload.batch);
    if (c.prefill.costs && c.prefill.costs->kernel_count() == c.decode.costs->kernel_count())
        out.time_to_first_token_ms = c.prefill.costs->evaluate(plan.mapping).latency_ms;
    const auto& m = memory_phase(c);
    out.memory = llm_memory(*m.model, *m.kernels,
                            assignment_of(plan.mapping, c.decode.costs->kernel_count()), *c.cluster,
                            c.workload);
    for (const auto& pool : out.memory.pools)
        if (pool.capacity_bytes) {
            const std::int64_t room = *pool.capacity_bytes - pool.reserve_bytes - pool.used.total();
            out.headroom_bytes = out.headroom_bytes ? std::min(*out.headroom_bytes, room) : room;
        }
    out.plan = std::move(plan);
    return out;
}

// Each host with a usable PE, in cluster order, on its GPU where that is usable.
std::vector<int> stage_pes(const DecoderPlanContext& c) {
    std::vector<int> pes;
    for (std::size_t h = 0; h < c.cluster->hosts.size(); ++h) {
        int chosen = -1;
        for (const int pe : c.usable) {
            const auto& p = c.cluster->pes[static_cast<std::size_t>(pe)];
            if (p.host_index != h)
                continue;
            if (chosen < 0 ||
                (p.kind == device::PeKind::gpu &&
                 c.cluster->pes[static_cast<std::size_t>(chosen)].kind != device::PeKind::gpu))
                chosen = pe;
        }
        if (chosen >= 0)
            pes.push_back(chosen);
    }
    return pes;
}

[[noreturn]] void nothing_fits(const DecoderPlanContext& c, const LayerPlanInput& in) {
    const std::int64_t weights = in.weights(0, in.layers);
    const std::int64_t cache = in.kv_token_prefix.back() * in.context;
    std::int64_t room = 0;
    for (const auto& pool : memory_pools(*c.cluster))
        if (pool.capacity_bytes)
            room += *pool.capacity_bytes - pool.reserve_bytes;
    const auto longest = largest_fitting_context(in, in.context);
    std::string fits =
        longest > 0 ? "the longest context any plan fits is " + std::to_string(longest) + " tokens"
                    : "not even the weights fit at any context";
    throw InputError(
        c.cluster->file, "--context",
        "a cluster that holds the model at a context of " + std::to_string(in.context) +
            " tokens: it needs at least " + gb_text(weights + cache) + " (weights " +
            gb_text(weights) + " + KV cache " + gb_text(cache) +
            ") split at its layers, the hosts have " + gb_text(room) + " usable in all; " + fits);
}

} // namespace

LayerPlanInput decoder_plan_input(const DecoderPlanContext& c) {
    const auto& m = memory_phase(c);
    return layer_plan_input(*m.model, *m.kernels, *c.decode.costs, *c.cluster, c.usable,
                            c.workload);
}

DecoderPlan decoder_plan(const DecoderPlanContext& c, const LayerPlanInput& input, std::string name,
                         std::string rule, const Mapping& mapping) {
    std::vector<int> layers;
    int first = 0;
    for (std::size_t s = 0; s < mapping.pes.size(); ++s) {
        const int end = s < mapping.points.size() ? mapping.points[s] : input.cuts.back();
        const int last = input.layer_at(end);
        if (last < 0)
            throw std::invalid_argument("decoder_plan: a cut inside a layer, at kernel " +
                                        std::to_string(end));
        layers.push_back(last - first);
        first = last;
    }
    return figures(c, std::move(name), std::move(rule), layer_plan_of(input, mapping.pes, layers));
}

std::unique_ptr<CostedPhase> cost_phase(graph::Model model, const device::Cluster& cluster,
                                        const std::string& rules, const predict::Predictor* given) {
    auto phase = std::make_unique<CostedPhase>();
    phase->model = std::move(model);
    phase->kernels = fusion::detect_kernels(phase->model, fusion::find_fusion_method(rules));
    phase->latencies =
        predict_pe_latencies(phase->model, phase->kernels, cluster, rules, {}, given);
    phase->costs = std::make_unique<MappingCosts>(phase->model, phase->kernels, cluster,
                                                  phase->latencies.kernel_ms);
    return phase;
}

std::vector<DecoderPlan> decoder_plans(const DecoderPlanContext& c) {
    const auto in = decoder_plan_input(c);
    std::vector<DecoderPlan> plans;
    const auto fast = best_layer_plan(in, PlanObjective::TimePerToken);
    if (!fast)
        nothing_fits(c, in);
    plans.push_back(figures(c, "exact: least time per token", "exact-time-per-token", *fast));
    if (const auto wide = best_layer_plan(in, PlanObjective::Bottleneck))
        plans.push_back(figures(c, "exact: least slowest stage", "exact-bottleneck", *wide));
    const auto pes = stage_pes(c);
    if (static_cast<int>(pes.size()) > in.layers)
        return plans;
    struct Rule {
        const char* name;
        const char* rule;
        LayerRule split;
    };
    for (const Rule r : {Rule{"equal layers (distributed-llama)", "equal", LayerRule::Equal},
                         Rule{"by memory (exo)", "memory", LayerRule::Memory},
                         Rule{"by device memory (llama.cpp)", "llama.cpp", LayerRule::LlamaCpp}}) {
        std::vector<double> weights;
        for (const int pe : pes)
            weights.push_back(layer_rule_weight(*c.cluster, pe, r.split).value_or(0.0));
        const auto counts = layers_per_segment(in.layers, r.split, weights, c.decode.model->file);
        // llama.cpp can leave a device no layer: it then takes no part.
        std::vector<int> taking, layers;
        for (std::size_t s = 0; s < counts.size(); ++s)
            if (counts[s] > 0) {
                taking.push_back(pes[s]);
                layers.push_back(counts[s]);
            }
        plans.push_back(figures(c, r.name, r.rule, layer_plan_of(in, taking, layers)));
    }
    return plans;
}

namespace {

// The best plan's tokens per second and time per token, and the pool with the least room in it.
DeviceSuggestion best_on(const DecoderPlanContext& c) {
    DeviceSuggestion out;
    const auto in = decoder_plan_input(c);
    const auto objective =
        c.workload.sequences > 1 ? PlanObjective::Bottleneck : PlanObjective::TimePerToken;
    const auto plan = best_layer_plan(in, objective);
    if (!plan)
        return out;
    const auto best = figures(c, "", "", *plan);
    out.fits = true;
    out.tokens_per_s = best.tokens_per_s;
    out.time_per_token_ms = best.time_per_token_ms;
    if (best.memory.binding >= 0)
        out.binding = best.memory.pools[static_cast<std::size_t>(best.memory.binding)].describe();
    return out;
}

std::string new_host_name(const device::Cluster& cluster) {
    for (int n = 1;; ++n) {
        const std::string name = "new" + std::to_string(n);
        if (!cluster.find_host(name))
            return name;
    }
}

} // namespace

std::vector<DeviceSuggestion> suggest_devices(const DecoderPlanContext& c,
                                              const std::vector<std::vector<double>>& decode_ms,
                                              const std::string& rules,
                                              const std::vector<device::DeviceSpec>& library) {
    const auto base = best_on(c);
    std::vector<DeviceSuggestion> out;
    for (const auto& device : library) {
        auto hosts = c.cluster->hosts;
        const std::string host = new_host_name(*c.cluster);
        hosts.push_back({host, device.id, device, ""});
        const auto grown =
            device::make_cluster(c.cluster->file, hosts, c.cluster->default_link, c.cluster->pairs);
        std::vector<int> added;
        for (std::size_t pe = c.cluster->pes.size(); pe < grown.pes.size(); ++pe)
            added.push_back(static_cast<int>(pe));
        auto latencies =
            predict_pe_latencies(*c.decode.model, *c.decode.kernels, grown, rules, added);
        DeviceSuggestion s;
        s.device = device.id;
        s.host = host;
        auto usable = c.usable;
        for (const int pe : added)
            if (latencies.has(pe))
                usable.push_back(pe);
        if (usable.size() == c.usable.size()) {
            const auto notes = latencies.left_out_notes(grown);
            s.left_out = notes.empty() ? "no PE" : notes.front();
            out.push_back(std::move(s));
            continue;
        }
        for (std::size_t pe = 0; pe < c.cluster->pes.size(); ++pe)
            latencies.kernel_ms[pe] = decode_ms[pe];
        const MappingCosts costs(*c.decode.model, *c.decode.kernels, grown, latencies.kernel_ms);
        DecoderPlanContext trial = c;
        trial.cluster = &grown;
        trial.usable = usable;
        trial.decode.costs = &costs;
        trial.prefill = {}; // the prefill's costs are for the old cluster
        if (memory_phase(c).model == c.prefill.model) {
            trial.prefill.model = c.prefill.model;
            trial.prefill.kernels = c.prefill.kernels;
        }
        const auto best = best_on(trial);
        s.fits = best.fits;
        s.tokens_per_s = best.tokens_per_s;
        s.time_per_token_ms = best.time_per_token_ms;
        s.binding = best.binding;
        s.gain = base.tokens_per_s > 0 ? best.tokens_per_s / base.tokens_per_s : 0;
        out.push_back(std::move(s));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.tokens_per_s > b.tokens_per_s; });
    return out;
}

} // namespace cleave::partition
