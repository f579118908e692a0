// Plans of a language-model decoder on a cluster, side by side (docs/partition.md, "Exact layer
// plans"): the two exact optima (layer_plan.hpp) and the rules runtimes split by (equal layers,
// distributed-llama; layers in proportion to each host's memory, exo; in proportion to each
// device's GPU memory, llama.cpp), each with the figures people plan by: time per output token,
// tokens per second, time to first token, memory per pool and whether it fits. And which library
// device, added to the cluster, gains the most.
#pragma once

#include "core/device/cluster.hpp"
#include "core/device/device_spec.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/graph/model.hpp"
#include "layer_plan.hpp"
#include "llm_memory.hpp"
#include "mapping_costs.hpp"
#include "pe_latencies.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cleave::partition {

// A decoder bound for one phase, with its kernels and costs on the cluster.
struct DecoderPhaseCosts {
    const graph::Model* model = nullptr;
    const fusion::KernelGraph* kernels = nullptr;
    const MappingCosts* costs = nullptr;
};

// A decoder bound for one phase owning what DecoderPhaseCosts views: its kernels, every PE's
// latencies and the costs over them (which refer to the model and kernels, so it stays put).
struct CostedPhase {
    graph::Model model;
    fusion::KernelGraph kernels;
    PeLatencies latencies;
    std::unique_ptr<MappingCosts> costs;

    DecoderPhaseCosts view() const { return {&model, &kernels, costs.get()}; }
};

// Fuses `model` by the fusion method `rules`, predicts its kernels on every PE of `cluster` (with
// `given` where it serves, predict_pe_latencies) and builds the costs.
std::unique_ptr<CostedPhase> cost_phase(graph::Model model, const device::Cluster& cluster,
                                        const std::string& rules,
                                        const predict::Predictor* given = nullptr);

struct DecoderPlanContext {
    DecoderPhaseCosts decode;  // one step after the context: time per token, tokens per second
    DecoderPhaseCosts prefill; // the prompt (model null: no time to first token)
    const device::Cluster* cluster = nullptr;
    std::vector<int> usable; // PEs with latencies
    LlmWorkload workload;
};

struct DecoderPlan {
    std::string name; // "exact: least time per token", "equal layers (distributed-llama)", ...
    std::string rule; // "exact-time-per-token", "exact-bottleneck", "equal", "memory", "llama.cpp"
    LayerPlan plan;   // stages, layers and the program's own figures
    // MappingCosts on the decode step (which also counts the first stage sending the mask and
    // rotary angles to every stage).
    double time_per_token_ms = 0;
    double bottleneck_ms = 0;
    double tokens_per_s = 0;
    std::optional<double> time_to_first_token_ms;
    // Energy of one decode step over its tokens (the batch); NaN where a PE has no power figure.
    double energy_per_token_mj = 0;
    LlmMemory memory; // the prefill's activations where there is one (they are the larger)
    // The least room any pool keeps (negative: the most over); nullopt without capacities.
    std::optional<std::int64_t> headroom_bytes;
};

// The exact plans and the three rules over every host with a usable PE, in cluster order, each on
// its GPU where it has one (layer_split.hpp; a host whose device gives no memory weighs nothing).
// Throws InputError (the cluster file,
// "--context") when no plan fits, naming what the model needs and the longest context that fits.
std::vector<DecoderPlan> decoder_plans(const DecoderPlanContext& context);

// The dynamic program's input for this context: its layers, their memory (the prefill's
// activations where it has the decode step's kernels) and the usable PEs' pools and latencies.
LayerPlanInput decoder_plan_input(const DecoderPlanContext& context);

// A mapping cut at layer starts (input.cuts), one stage per PE, as a plan with every figure:
// the search's points beside the exact ones. Throws std::invalid_argument for a mapping that
// cuts inside a layer.
DecoderPlan decoder_plan(const DecoderPlanContext& context, const LayerPlanInput& input,
                         std::string name, std::string rule, const Mapping& mapping);

// One library device added to the cluster as a new host (`host`), and the best plan then.
struct DeviceSuggestion {
    std::string device;
    std::string host;
    bool fits = false; // some plan fits with it
    double tokens_per_s = 0;
    double time_per_token_ms = 0;
    double gain = 0;      // tokens per second over the cluster's best without it (x 1.0 = none)
    std::string binding;  // the pool with the least room in the new best plan
    std::string left_out; // why the device cannot take part (no PE with latencies), or empty
};

// Every device of `library` tried as one more host, ranked by tokens per second (time per token
// when one sequence is in flight), best first; `decode_ms` are the cluster's own PEs' kernel
// latencies for the decode step, `rules` the fusion method they were predicted for.
std::vector<DeviceSuggestion> suggest_devices(const DecoderPlanContext& context,
                                              const std::vector<std::vector<double>>& decode_ms,
                                              const std::string& rules,
                                              const std::vector<device::DeviceSpec>& library);

} // namespace cleave::partition
