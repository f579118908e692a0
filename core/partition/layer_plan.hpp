// The best plans of a language-model decoder's layers over a cluster, found exactly by dynamic
// programming over contiguous layer ranges and over which hosts take part and in what order
// (docs/partition.md, "Exact layer plans"). A plan gives each taking host one stage, a contiguous
// range of layers (the embedding with the first, the head with the last) on one of its PEs, and
// must fit every stage's weights, KV cache and activations in that PE's memory pool. Two
// objectives, each solved exactly: the time per output token of one sequence (every stage's
// compute and send in turn, MappingCosts' latency) and the slowest stage (its receive, compute and
// send, MappingCosts' bottleneck), which sets tokens per second with several sequences in flight.
#pragma once

#include "core/device/cluster.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/graph/model.hpp"
#include "llm_memory.hpp"
#include "mapping.hpp"
#include "mapping_costs.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cleave::partition {

// Everything the dynamic program reads: built from a model by layer_plan_input, or filled
// directly (the benchmark).
struct LayerPlanInput {
    int layers = 0; // L
    // Where each layer starts in kernel order: cuts[0] = 0, cuts[L] = the kernel count.
    std::vector<int> cuts;
    // [a * (L + 1) + b], a < b: the weights of layers [a, b), each initializer once.
    std::vector<std::int64_t> weight_bytes;
    // L + 1: the KV cache of layers [0, i) per token of context (batch x sequences in flight).
    std::vector<std::int64_t> kv_token_prefix;
    std::int64_t context = 0;
    std::vector<std::int64_t> activation_bytes; // L: per layer; a range holds its largest
    struct Pe {
        int cluster_pe = -1;
        int host = -1;                 // 0 .. hosts - 1
        std::vector<double> prefix_ms; // L + 1: layers [0, i) on this PE
        std::int64_t room_bytes = 0;   // its pool's capacity less the reserve
    };
    std::vector<Pe> pes; // those with latencies, host by host
    int hosts = 0;
    // [(h * hosts + r) * (L + 1) + c]: host h sending what cut c carries to host r (h != r).
    std::vector<double> hop_ms;

    std::int64_t weights(int a, int b) const {
        return weight_bytes[static_cast<std::size_t>(a) * static_cast<std::size_t>(layers + 1) +
                            static_cast<std::size_t>(b)];
    }
    double hop(int h, int r, int cut) const {
        return hop_ms[(static_cast<std::size_t>(h) * static_cast<std::size_t>(hosts) +
                       static_cast<std::size_t>(r)) *
                          static_cast<std::size_t>(layers + 1) +
                      static_cast<std::size_t>(cut)];
    }
    // Weights + KV cache + the largest activations of layers [a, b).
    std::int64_t memory_bytes(int a, int b) const;
    // The layer that starts at kernel `kernel` (layers at the kernel count), or -1 when a layer
    // does not start there.
    int layer_at(int kernel) const {
        const auto at = std::lower_bound(cuts.begin(), cuts.end(), kernel);
        return at != cuts.end() && *at == kernel ? static_cast<int>(at - cuts.begin()) : -1;
    }
};

// The decoder's layers (kernel_layers), their memory under `workload` (llm_pe_memory, one layer
// per stand-in PE), the usable PEs' latencies from `costs` and the cluster's pools and links.
// Throws InputError (the model file, "--exact") for a model whose node names give no layers.
LayerPlanInput layer_plan_input(const graph::Model& model, const fusion::KernelGraph& kernels,
                                const MappingCosts& costs, const device::Cluster& cluster,
                                const std::vector<int>& usable_pes, const LlmWorkload& workload);

enum class PlanObjective { TimePerToken, Bottleneck };

struct LayerPlan {
    std::vector<int> pes;    // cluster PE per stage, in pipeline order
    std::vector<int> layers; // per stage
    Mapping mapping;         // split at the layers' first kernels
    double latency_ms = 0;   // compute and send of every stage in turn
    double bottleneck_ms = 0;
    std::vector<std::int64_t> memory_bytes; // per stage, as the program counted it
};

// The most hosts an exact plan is searched over: 2^hosts subsets are visited.
inline constexpr int kMaxExactHosts = 8;

// The plan minimising `objective` under the pools' room, or nullopt when no plan fits. Ties go to
// the earlier hosts. Throws InputError (place "--exact") beyond kMaxExactHosts hosts.
// O(2^H * H * L * N * (H * l * N)), N = 2 where every link is alike, else H + 1, and l the most
// layers a PE's memory holds.
std::optional<LayerPlan> best_layer_plan(const LayerPlanInput& input, PlanObjective objective);

// A plan's figures by the same model as the program: for a plan from a runtime's rule, beside
// the exact ones.
LayerPlan layer_plan_of(const LayerPlanInput& input, const std::vector<int>& stage_pes,
                        const std::vector<int>& layers);

// The longest context (at most `longest`) at which some plan fits, by bisection over the
// program's feasibility; 0 when not even one token's does.
std::int64_t largest_fitting_context(LayerPlanInput input, std::int64_t longest);

} // namespace cleave::partition
