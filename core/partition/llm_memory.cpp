#include "llm_memory.hpp"

#include "core/graph/decoder_phase.hpp"
#include "core/input_error.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <unordered_set>

namespace cleave::partition {

namespace {

constexpr std::int64_t kMinReserveBytes = 256ll << 20;
constexpr double kReserveShare = 0.05;

// Per PE, the initializers its kernels read, each once.
void add_weights(const graph::Model& model, const fusion::KernelGraph& kernels,
                 const KernelAssignment& assignment, std::size_t pe_count,
                 std::vector<LlmPeMemory>& out) {
    std::unordered_set<std::int64_t> seen; // tensor x PEs + PE
    for (std::size_t k = 0; k < kernels.kernels.size(); ++k) {
        const int pe = assignment.pe_of_kernel[k];
        for (const int n : kernels.kernels[k].nodes)
            for (const int t : model.nodes[static_cast<std::size_t>(n)].inputs) {
                if (t < 0)
                    continue;
                const auto& tensor = model.tensors[static_cast<std::size_t>(t)];
                if (tensor.kind != graph::Tensor::Kind::Initializer || tensor.bytes() <= 0)
                    continue;
                const auto key =
                    static_cast<std::int64_t>(t) * static_cast<std::int64_t>(pe_count) + pe;
                if (seen.insert(key).second)
                    out[static_cast<std::size_t>(pe)].weight_bytes += tensor.bytes();
            }
    }
}

// The PEs whose kernels read tensor `t`, each once, in kernel order.
std::vector<int> reading_pes(const graph::Model& model, const fusion::KernelGraph& kernels,
                             const KernelAssignment& assignment, int t) {
    std::vector<int> pes;
    for (const int n : model.tensors[static_cast<std::size_t>(t)].consumers) {
        const int pe = assignment.pe_of_kernel[static_cast<std::size_t>(
            kernels.kernel_of_node[static_cast<std::size_t>(n)])];
        if (std::find(pes.begin(), pes.end(), pe) == pes.end())
            pes.push_back(pe);
    }
    return pes;
}

// Per PE, the keys and values of the cache inputs its kernels read, at the workload's context.
void add_cache(const graph::Model& model, const fusion::KernelGraph& kernels,
               const KernelAssignment& assignment, const LlmWorkload& workload,
               std::vector<LlmPeMemory>& out) {
    for (const int i : model.inputs) {
        const auto& input = model.tensors[static_cast<std::size_t>(i)];
        const auto per_token = graph::cache_input_bytes(input, 1, workload.batch);
        if (!per_token)
            continue;
        for (const int pe : reading_pes(model, kernels, assignment, i)) {
            auto& m = out[static_cast<std::size_t>(pe)];
            m.kv_bytes_per_token += *per_token * workload.sequences;
            m.kv_cache_bytes += *per_token * workload.sequences * workload.cached_context();
        }
    }
}

// Per PE, the most bytes of activations live at once while its kernels run in order: a tensor
// is live on a PE from its producer (or, received, its first reader there) to its last reader
// there. Weights, the cache's keys and values and tensors inside one kernel are left out.
void add_activations(const graph::Model& model, const fusion::KernelGraph& kernels,
                     const KernelAssignment& assignment, std::size_t pe_count,
                     std::vector<LlmPeMemory>& out) {
    const std::size_t K = kernels.kernels.size();
    const std::size_t row = K + 1;
    std::vector<std::int64_t> delta(pe_count * row, 0);
    struct Span {
        int pe;
        std::size_t first, last;
    };
    std::vector<Span> spans;
    // The cache: the past key/value inputs, and the graph outputs that are a layer's keys or
    // values after the step (Optimum's and ONNX Runtime GenAI's "present.N.key").
    std::vector<bool> cache(model.tensors.size(), false);
    std::vector<bool> graph_output(model.tensors.size(), false);
    for (const int i : model.inputs)
        cache[static_cast<std::size_t>(i)] =
            graph::cache_input_bytes(model.tensors[static_cast<std::size_t>(i)], 1).has_value();
    for (const int o : model.outputs) {
        graph_output[static_cast<std::size_t>(o)] = true;
        cache[static_cast<std::size_t>(o)] =
            model.tensors[static_cast<std::size_t>(o)].name.starts_with("present");
    }
    for (std::size_t t = 0; t < model.tensors.size(); ++t) {
        const auto& tensor = model.tensors[t];
        const auto bytes = tensor.bytes();
        if (tensor.kind == graph::Tensor::Kind::Initializer || bytes <= 0 || cache[t])
            continue;
        spans.clear();
        const auto touch = [&](int node) {
            const auto k =
                static_cast<std::size_t>(kernels.kernel_of_node[static_cast<std::size_t>(node)]);
            const int pe = assignment.pe_of_kernel[k];
            auto it =
                std::find_if(spans.begin(), spans.end(), [&](const Span& s) { return s.pe == pe; });
            if (it == spans.end())
                spans.push_back({pe, k, k});
            else {
                it->first = std::min(it->first, k);
                it->last = std::max(it->last, k);
            }
        };
        if (tensor.producer >= 0)
            touch(tensor.producer);
        for (const int n : tensor.consumers)
            touch(n);
        if (spans.size() == 1 && spans[0].first == spans[0].last && tensor.producer >= 0 &&
            !graph_output[t])
            continue; // made and read inside one kernel
        for (const auto& s : spans) {
            delta[static_cast<std::size_t>(s.pe) * row + s.first] += bytes;
            delta[static_cast<std::size_t>(s.pe) * row + s.last + 1] -= bytes;
        }
    }
    for (std::size_t pe = 0; pe < pe_count; ++pe) {
        std::int64_t live = 0, peak = 0;
        for (std::size_t k = 0; k < K; ++k) {
            live += delta[pe * row + k];
            peak = std::max(peak, live);
        }
        out[pe].activation_bytes = peak;
    }
}

// Each pool's fit and longest context, the memory's fit and binding pool, from the pools' use.
void settle(LlmMemory& out) {
    std::int64_t least_room = std::numeric_limits<std::int64_t>::max();
    out.fits = true;
    out.binding = -1;
    for (std::size_t i = 0; i < out.pools.size(); ++i) {
        auto& pool = out.pools[i];
        pool.fits = true;
        pool.largest_context.reset();
        if (pool.capacity_bytes) {
            const std::int64_t room = *pool.capacity_bytes - pool.reserve_bytes - pool.used.total();
            pool.fits = room >= 0;
            if (pool.used.kv_bytes_per_token > 0) {
                const std::int64_t beside = *pool.capacity_bytes - pool.reserve_bytes -
                                            pool.used.weight_bytes - pool.used.activation_bytes;
                std::int64_t longest =
                    std::max<std::int64_t>(0, beside) / pool.used.kv_bytes_per_token;
                if (out.max_context > 0)
                    longest = std::min(longest, out.max_context);
                pool.largest_context = longest;
            }
            if (room < least_room) {
                least_room = room;
                out.binding = static_cast<int>(i);
            }
        }
        out.fits = out.fits && pool.fits;
    }
}

// The pools' use as the sum of their PEs'.
void sum_pools(LlmMemory& out) {
    for (auto& pool : out.pools) {
        pool.used = {};
        for (const int pe : pool.pes) {
            const auto& m = out.pes[static_cast<std::size_t>(pe)];
            pool.used.weight_bytes += m.weight_bytes;
            pool.used.kv_cache_bytes += m.kv_cache_bytes;
            pool.used.kv_bytes_per_token += m.kv_bytes_per_token;
            pool.used.activation_bytes += m.activation_bytes;
        }
    }
}

void add_pools(const KernelAssignment& assignment, const device::Cluster& cluster, LlmMemory& out) {
    std::vector<bool> used(cluster.pes.size(), false);
    for (const int pe : assignment.pe_of_kernel)
        used[static_cast<std::size_t>(pe)] = true;
    for (auto& spec : memory_pools(cluster)) {
        LlmMemoryPool pool;
        pool.name = std::move(spec.name);
        for (const int pe : spec.pes)
            if (used[static_cast<std::size_t>(pe)])
                pool.pes.push_back(pe);
        if (pool.pes.empty())
            continue;
        pool.capacity_bytes = spec.capacity_bytes;
        if (pool.capacity_bytes)
            pool.reserve_bytes = spec.reserve_bytes;
        out.pools.push_back(std::move(pool));
    }
    sum_pools(out);
    settle(out);
}

std::int64_t gib_bytes(double gib) {
    return static_cast<std::int64_t>(gib * 1024.0 * 1024.0 * 1024.0);
}

} // namespace

void check_workload(const graph::Model& model, const LlmWorkload& workload) {
    const auto at_least = [&](std::int64_t value, std::int64_t least, const char* flag,
                              const char* what) {
        if (value < least)
            throw InputError(model.file, flag,
                             std::string(what) + ", found " + std::to_string(value));
    };
    at_least(workload.batch, 1, "--batch", "at least 1 sequence a step");
    at_least(workload.sequences, 1, "--sequences", "at least 1 batch in flight");
    at_least(workload.prompt_tokens, 0, "--prompt-tokens", "a count of tokens, 0 or more");
    at_least(workload.generated_tokens, 0, "--generate", "a count of tokens, 0 or more");
    at_least(workload.context, 0, "--context", "a count of tokens, 0 or more");
    if (workload.cached_context() < 1)
        throw InputError(model.file, "--context",
                         "a context of at least 1 token (give --context, or --prompt-tokens and "
                         "--generate)");
    const std::int64_t longest = graph::max_context(model);
    if (longest > 0 && workload.cached_context() > longest)
        throw InputError(model.file, "--context",
                         "at most " + std::to_string(longest) +
                             " tokens, the model's context_length; found " +
                             std::to_string(workload.cached_context()));
}

double pipelined_tokens_per_s(const LlmWorkload& workload, double latency_ms,
                              double bottleneck_ms) {
    if (!(latency_ms > 0) || !(bottleneck_ms > 0))
        return 0;
    const double steps_per_ms =
        std::min(static_cast<double>(workload.sequences) / latency_ms, 1.0 / bottleneck_ms);
    return 1000.0 * steps_per_ms * static_cast<double>(workload.batch);
}

double reply_ms(const LlmWorkload& workload, double ttft_ms, double latency_ms,
                double bottleneck_ms) {
    const double per_token =
        std::max(latency_ms, static_cast<double>(workload.sequences) * bottleneck_ms);
    return ttft_ms + static_cast<double>(workload.generated_tokens) * per_token;
}

std::string gb_text(std::int64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f GB", static_cast<double>(bytes) / 1e9);
    return text;
}

std::int64_t runtime_reserve_bytes(std::int64_t capacity_bytes) {
    return std::max(kMinReserveBytes,
                    static_cast<std::int64_t>(kReserveShare * static_cast<double>(capacity_bytes)));
}

std::vector<MemoryPoolSpec> memory_pools(const device::Cluster& cluster) {
    std::vector<MemoryPoolSpec> pools;
    for (std::size_t h = 0; h < cluster.hosts.size(); ++h) {
        const auto& device = cluster.hosts[h].device;
        MemoryPoolSpec shared{cluster.hosts[h].host, static_cast<int>(h), {}, {}, 0};
        shared.capacity_bytes = device::capacity_bytes(device);
        if (shared.capacity_bytes)
            shared.reserve_bytes = device.memory && device.memory->reserve_gib
                                       ? gib_bytes(*device.memory->reserve_gib)
                                       : runtime_reserve_bytes(*shared.capacity_bytes);
        std::vector<MemoryPoolSpec> own;
        for (std::size_t pe = 0; pe < cluster.pes.size(); ++pe) {
            const auto& p = cluster.pes[pe];
            if (p.host_index != h)
                continue;
            if (const auto bytes = device::own_memory_bytes(p.spec)) {
                const std::int64_t reserve = p.spec.memory_reserve_gib
                                                 ? gib_bytes(*p.spec.memory_reserve_gib)
                                                 : runtime_reserve_bytes(*bytes);
                own.push_back({cluster.hosts[h].host + " " + p.spec.name,
                               static_cast<int>(h),
                               {static_cast<int>(pe)},
                               bytes,
                               reserve});
            } else {
                shared.pes.push_back(static_cast<int>(pe));
            }
        }
        if (!shared.pes.empty())
            pools.push_back(std::move(shared));
        for (auto& pool : own)
            pools.push_back(std::move(pool));
    }
    return pools;
}

std::string LlmMemoryPool::describe() const {
    std::string out = name + ": KV cache " + gb_text(used.kv_cache_bytes) + " + weights " +
                      gb_text(used.weight_bytes) + " + activations " +
                      gb_text(used.activation_bytes);
    if (!capacity_bytes)
        return out + " (capacity not known)";
    return out + (fits ? " <= " : " > ") + gb_text(*capacity_bytes - reserve_bytes) + " usable";
}

std::vector<LlmPeMemory> llm_pe_memory(const graph::Model& model,
                                       const fusion::KernelGraph& kernels,
                                       const KernelAssignment& assignment, std::size_t pe_count,
                                       const LlmWorkload& workload) {
    std::vector<LlmPeMemory> out(pe_count);
    add_weights(model, kernels, assignment, pe_count, out);
    add_cache(model, kernels, assignment, workload, out);
    add_activations(model, kernels, assignment, pe_count, out);
    return out;
}

LlmMemory llm_memory(const graph::Model& model, const fusion::KernelGraph& kernels,
                     const KernelAssignment& assignment, const device::Cluster& cluster,
                     const LlmWorkload& workload) {
    LlmMemory out;
    out.pes = llm_pe_memory(model, kernels, assignment, cluster.pes.size(), workload);
    out.max_context = graph::max_context(model);
    add_pools(assignment, cluster, out);
    return out;
}

LlmMemory at_context(LlmMemory memory, std::int64_t context) {
    for (auto& m : memory.pes)
        m.kv_cache_bytes = m.kv_bytes_per_token * context;
    sum_pools(memory);
    settle(memory);
    return memory;
}

} // namespace cleave::partition
