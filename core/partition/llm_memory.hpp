// What a language-model decoder mapped onto a cluster holds in memory under a workload, PE by PE
// and pool by pool (docs/partition.md, "Memory of a decoder"): its weights as stored, each
// initializer once per PE that reads it (a rotary table or a tied embedding shared by many
// kernels counts once); the KV cache of the layers it holds at the workload's context, for every
// sequence of every batch in flight; the peak of its activations, the tensors it produces or
// receives while they are live (the keys and values aside: they are the cache); and a runtime
// reserve. The PEs of one host share its memory, so a host is one pool, held against the
// device's capacity less that reserve; a PE with memory of its own (a desktop GPU's VRAM) is a
// pool apart.
#pragma once

#include "core/device/cluster.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/graph/model.hpp"
#include "mapping.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cleave::partition {

// What the decoder is run for.
struct LlmWorkload {
    std::int64_t batch = 1;         // sequences one step runs together
    std::int64_t sequences = 1;     // batches in flight at once (pipelined), each with a cache
    std::int64_t prompt_tokens = 0; // the prefill's new tokens per sequence
    std::int64_t generated_tokens = 0;
    std::int64_t context = 0; // the longest context cached: 0 means prompt + generated

    std::int64_t cached_context() const {
        return context > 0 ? context : prompt_tokens + generated_tokens;
    }
    bool operator==(const LlmWorkload&) const = default;
};

// Tokens per second of decode steps through a pipeline whose one step takes `latency_ms` (every
// stage and hop in turn) and whose slowest stage takes `bottleneck_ms`: with S batches in flight
// the stages work on different batches at once, so min(S / latency, 1 / bottleneck) steps a ms,
// each giving `batch` tokens. 0 without a time.
double pipelined_tokens_per_s(const LlmWorkload& workload, double latency_ms, double bottleneck_ms);
// Milliseconds until a sequence's whole reply: its first token after `ttft_ms`, then each of the
// workload's generated tokens after its step through every stage (`latency_ms`), or once the
// slowest stage has served every batch in flight, whichever is later.
double reply_ms(const LlmWorkload& workload, double ttft_ms, double latency_ms,
                double bottleneck_ms);

// Throws InputError (file `model.file`, place the flag) for a workload the model cannot run:
// a count below 1, no context at all, or a context beyond the model's recorded maximum.
void check_workload(const graph::Model& model, const LlmWorkload& workload);

// 3.1 GB: bytes in gigabytes, two decimals, as the memory messages write them.
std::string gb_text(std::int64_t bytes);

// A runtime's own memory besides the model's (its code, allocator slack, the OS's share on a
// board whose memory it shares): the larger of 256 MiB and 5% of the capacity.
std::int64_t runtime_reserve_bytes(std::int64_t capacity_bytes);

// A memory PEs share: a host's own (its CPUs, a Jetson's GPU: one memory per board), or a PE's
// own (a desktop GPU's VRAM), held against its capacity less a reserve: the device file's
// (memory.reserve_gib, a PE's memory_reserve_gib), else runtime_reserve_bytes.
struct MemoryPoolSpec {
    std::string name; // the host, or "host PE-name" for a PE's own memory ("pc01 RTX 4090")
    int host = -1;
    std::vector<int> pes; // cluster PEs
    std::optional<std::int64_t> capacity_bytes;
    std::int64_t reserve_bytes = 0;
};
// Host by host: the shared pool (where a PE uses it), then each PE's own.
std::vector<MemoryPoolSpec> memory_pools(const device::Cluster& cluster);

struct LlmPeMemory {
    std::int64_t weight_bytes = 0;
    std::int64_t kv_cache_bytes = 0;     // at the workload's context, all sequences
    std::int64_t kv_bytes_per_token = 0; // what one more token of context adds
    std::int64_t activation_bytes = 0;   // peak, as the model is bound (a prefill: its prompt)
    std::int64_t total() const { return weight_bytes + kv_cache_bytes + activation_bytes; }
};

// What a mapping holds in one memory pool.
struct LlmMemoryPool {
    std::string name; // MemoryPoolSpec::name
    std::vector<int> pes;
    LlmPeMemory used;                           // over its PEs
    std::optional<std::int64_t> capacity_bytes; // absent: the device's spec gives none
    std::int64_t reserve_bytes = 0;
    bool fits = true; // used.total() + reserve <= capacity (true when the capacity is unknown)
    // The longest context whose cache still fits beside the rest; nullopt without a capacity or
    // a cache, 0 when not even the weights fit.
    std::optional<std::int64_t> largest_context;

    // "nx02: KV cache 3.1 GB + weights 2.2 GB + activations 0.1 GB > 5.6 GB usable".
    std::string describe() const;
};

struct LlmMemory {
    std::vector<LlmPeMemory> pes;     // one per cluster PE; unused ones stay zero
    std::vector<LlmMemoryPool> pools; // hosts with a PE in use, in cluster order
    bool fits = true;
    int binding = -1; // the pool with the least room left (over capacity first); -1: none known
    std::int64_t max_context = 0; // the model's context_length; 0: not recorded
};

// The three parts per PE alone, for an assignment onto `pe_count` PEs of no cluster (a PE
// index may stand for anything: layer_plan gives each layer one).
std::vector<LlmPeMemory> llm_pe_memory(const graph::Model& model,
                                       const fusion::KernelGraph& kernels,
                                       const KernelAssignment& assignment, std::size_t pe_count,
                                       const LlmWorkload& workload);

// The model is bound as it will run: its dims give the activations. O(tensors + their readers).
LlmMemory llm_memory(const graph::Model& model, const fusion::KernelGraph& kernels,
                     const KernelAssignment& assignment, const device::Cluster& cluster,
                     const LlmWorkload& workload);

// `memory` with its KV caches at `context` tokens (each PE's bytes per token times it; weights
// and activations as they were bound), its pools' use, fit, longest context and the binding pool
// again: the same as llm_memory at that context, in O(PEs + pools), for a context slider.
LlmMemory at_context(LlmMemory memory, std::int64_t context);

} // namespace cleave::partition
