// A decoder's memory per PE and per host under a workload: random mappings of generated decoders
// over random contexts, batches and sequences in flight against an independent sum, and the
// verdicts (fits, the longest context, the workload's checks), with the weights at their stored
// precision or re-typed (the what-if) and a desktop GPU's memory a pool apart.
#include "core/device/device_library.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/data_type.hpp"
#include "core/graph/decoder_phase.hpp"
#include "core/graph/input_dim_binding.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/graph/weight_precision.hpp"
#include "core/input_error.hpp"
#include "core/modelgen/decoder_space.hpp"
#include "core/modelgen/llm_writer.hpp"
#include "core/partition/llm_memory.hpp"
#include "generated_decoder.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <filesystem>
#include <random>
#include <set>

using namespace cleave;
namespace fs = std::filesystem;

namespace {

// Four hosts of one device whose memory is `gib`, and a desktop whose GPU has that much of its
// own (a pool apart) beside twice as much for its host.
device::Cluster cluster_of(double gib) {
    auto nx = *device::library_device("jetson-xavier-nx");
    nx.memory->capacity_gib = gib;
    std::vector<device::ClusterHost> hosts;
    for (const char* host : {"h1", "h2", "h3", "h4"})
        hosts.push_back({host, nx.id, nx, ""});
    auto pc = *device::library_device("rtx-4090-desktop");
    pc.memory->capacity_gib = 2 * gib;
    pc.processing_elements[0].memory_gib = gib;
    hosts.push_back({"pc", pc.id, pc, ""});
    return device::make_cluster("five.cluster.json", hosts);
}

// The same figures, summed another way: tensor by tensor over the nodes of each PE, the
// activations live at each kernel counted by brute force.
struct Independent {
    std::vector<std::int64_t> weights, kv, activations;
};

Independent independent_sum(const graph::Model& model, const fusion::KernelGraph& kernels,
                            const partition::KernelAssignment& a, std::size_t pes,
                            const partition::LlmWorkload& w) {
    Independent out{std::vector<std::int64_t>(pes), std::vector<std::int64_t>(pes),
                    std::vector<std::int64_t>(pes)};
    const auto pe_of_node = [&](int n) {
        return a.pe_of_kernel[static_cast<std::size_t>(
            kernels.kernel_of_node[static_cast<std::size_t>(n)])];
    };
    const auto kernel_of = [&](int n) {
        return kernels.kernel_of_node[static_cast<std::size_t>(n)];
    };
    std::set<int> cache_inputs;
    for (std::size_t t = 0; t < model.tensors.size(); ++t) {
        const auto& tensor = model.tensors[t];
        std::set<int> readers;
        for (const int n : tensor.consumers)
            readers.insert(pe_of_node(n));
        if (tensor.kind == graph::Tensor::Kind::Initializer) {
            // Bytes from the element count and width: a re-typed weight counts at its new width.
            const auto bits = static_cast<std::int64_t>(graph::element_bits(tensor.dtype));
            const auto elements = std::max<std::int64_t>(0, tensor.elements());
            for (const int pe : readers)
                out.weights[static_cast<std::size_t>(pe)] += (elements * bits + 7) / 8;
            continue;
        }
        const bool input =
            std::count(model.inputs.begin(), model.inputs.end(), static_cast<int>(t));
        if (input && tensor.name.starts_with("past_key_values")) {
            // [batch, kv heads, past, head size]
            const auto& s = *tensor.shape;
            const auto element = static_cast<std::int64_t>(graph::element_bits(tensor.dtype) / 8);
            const std::int64_t bytes =
                w.batch * s[1] * w.cached_context() * s[3] * element * w.sequences;
            cache_inputs.insert(static_cast<int>(t));
            for (const int pe : readers)
                out.kv[static_cast<std::size_t>(pe)] += bytes;
        }
    }
    // Activations: at each kernel k of a PE, every tensor of that PE whose span covers k.
    for (std::size_t pe = 0; pe < pes; ++pe) {
        for (std::size_t k = 0; k < kernels.kernels.size(); ++k) {
            std::int64_t live = 0;
            for (std::size_t t = 0; t < model.tensors.size(); ++t) {
                const auto& tensor = model.tensors[t];
                const bool output =
                    std::count(model.outputs.begin(), model.outputs.end(), static_cast<int>(t)) > 0;
                if (tensor.kind == graph::Tensor::Kind::Initializer || tensor.bytes() <= 0 ||
                    cache_inputs.count(static_cast<int>(t)) ||
                    (output && tensor.name.starts_with("present")))
                    continue;
                std::vector<int> here; // kernels touching it on this PE
                std::set<int> all;
                if (tensor.producer >= 0) {
                    all.insert(kernel_of(tensor.producer));
                    if (pe_of_node(tensor.producer) == static_cast<int>(pe))
                        here.push_back(kernel_of(tensor.producer));
                }
                for (const int n : tensor.consumers) {
                    all.insert(kernel_of(n));
                    if (pe_of_node(n) == static_cast<int>(pe))
                        here.push_back(kernel_of(n));
                }
                if (here.empty() || (all.size() == 1 && tensor.producer >= 0 && !output))
                    continue;
                const auto [lo, hi] = std::minmax_element(here.begin(), here.end());
                if (*lo <= static_cast<int>(k) && static_cast<int>(k) <= *hi)
                    live += tensor.bytes();
            }
            out.activations[pe] = std::max(out.activations[pe], live);
        }
    }
    return out;
}

using Decoder = test::GeneratedDecoder;
using test::load_decoder;

} // namespace

class LlmMemoryTest : public QObject {
    Q_OBJECT

private slots:
    void randomMappingsMatchAnIndependentSum() {
        std::mt19937 random(5);
        int gpu_pools = 0;
        for (int number = 0; number < 4; ++number) {
            graph::DimBindings bindings;
            bindings.batch = 1 + number % 2;
            if (number % 2)
                bindings.prefill = 16 + 8 * number;
            else
                bindings.decode = 100;
            Decoder d;
            load_decoder(d, number, bindings);
            // The precision swept: as stored or a what-if (floating-point decoders only).
            const auto precision = static_cast<graph::WeightPrecision>(random() % 4);
            if (graph::stored_weight_precision(d.model) == graph::WeightPrecision::fp32)
                QVERIFY(graph::requantize_weights(d.model, precision) > 0 ||
                        precision == graph::WeightPrecision::fp32);
            const auto cluster = cluster_of(0.05 + 0.2 * number);
            const auto K = d.kernels.kernels.size();
            for (int trial = 0; trial < 12; ++trial) {
                partition::KernelAssignment a;
                // Contiguous stages half the time, any assignment otherwise.
                const bool stages = trial % 2 == 0;
                int pe = static_cast<int>(random() % cluster.pes.size());
                for (std::size_t k = 0; k < K; ++k) {
                    if (!stages || random() % 40 == 0)
                        pe = static_cast<int>(random() % cluster.pes.size());
                    a.pe_of_kernel.push_back(pe);
                }
                partition::LlmWorkload w;
                w.batch = *bindings.batch;
                w.sequences = 1 + static_cast<std::int64_t>(random() % 3);
                w.context = 1 + static_cast<std::int64_t>(random() % 16000);
                partition::check_workload(d.model, w);
                const auto got = partition::llm_memory(d.model, d.kernels, a, cluster, w);
                const auto want = independent_sum(d.model, d.kernels, a, cluster.pes.size(), w);
                for (std::size_t p = 0; p < cluster.pes.size(); ++p) {
                    QCOMPARE(got.pes[p].weight_bytes, want.weights[p]);
                    QCOMPARE(got.pes[p].kv_cache_bytes, want.kv[p]);
                    QCOMPARE(got.pes[p].activation_bytes, want.activations[p]);
                }
                // No pool that is over its capacity is reported as fitting, nor the plan.
                bool all_fit = true;
                for (const auto& pool : got.pools) {
                    std::int64_t total = 0;
                    for (const int p : pool.pes)
                        total += want.weights[static_cast<std::size_t>(p)] +
                                 want.kv[static_cast<std::size_t>(p)] +
                                 want.activations[static_cast<std::size_t>(p)];
                    QVERIFY(pool.capacity_bytes);
                    // The desktop's GPU is a pool of its own.
                    if (pool.name.starts_with("pc ")) {
                        ++gpu_pools;
                        QCOMPARE(pool.pes.size(), std::size_t{1});
                        QCOMPARE(cluster.pes[static_cast<std::size_t>(pool.pes[0])].kind,
                                 device::PeKind::gpu);
                    }
                    const bool fits =
                        total + partition::runtime_reserve_bytes(*pool.capacity_bytes) <=
                        *pool.capacity_bytes;
                    QCOMPARE(pool.fits, fits);
                    all_fit = all_fit && fits;
                }
                QCOMPARE(got.fits, all_fit);
                QVERIFY(got.binding >= 0);
                // Re-sized to another context (the slider's path), it is llm_memory there.
                auto other = w;
                other.context = 1 + static_cast<std::int64_t>(random() % 16000);
                const auto moved = partition::at_context(got, other.context);
                const auto again = partition::llm_memory(d.model, d.kernels, a, cluster, other);
                QCOMPARE(moved.fits, again.fits);
                QCOMPARE(moved.binding, again.binding);
                QCOMPARE(moved.pools.size(), again.pools.size());
                for (std::size_t i = 0; i < moved.pools.size(); ++i) {
                    QCOMPARE(moved.pools[i].used.total(), again.pools[i].used.total());
                    QCOMPARE(moved.pools[i].used.kv_cache_bytes,
                             again.pools[i].used.kv_cache_bytes);
                    QCOMPARE(moved.pools[i].fits, again.pools[i].fits);
                    QCOMPARE(moved.pools[i].largest_context, again.pools[i].largest_context);
                }
            }
        }
        QVERIFY(gpu_pools > 10);
    }

    void weightsSharedByKernelsCountOnce() {
        Decoder d;
        graph::DimBindings bindings;
        bindings.decode = 64;
        load_decoder(d, 0, bindings);
        const auto cluster = cluster_of(8);
        partition::KernelAssignment one{std::vector<int>(d.kernels.kernels.size(), 0)};
        partition::LlmWorkload w;
        w.context = 65;
        const auto got = partition::llm_memory(d.model, d.kernels, one, cluster, w);
        std::int64_t read = 0, per_kernel = 0;
        for (const auto& t : d.model.tensors)
            if (t.kind == graph::Tensor::Kind::Initializer && !t.consumers.empty())
                read += t.bytes();
        for (const auto& k : d.kernels.kernels)
            per_kernel += k.weight_bytes;
        QCOMPARE(got.pes[0].weight_bytes, read);
        QVERIFY(per_kernel > read); // the rotary tables are read by every layer
        // The KV cache on one PE is decoder_phase's at that context.
        QCOMPARE(got.pes[0].kv_cache_bytes, graph::decoder_phase(d.model)->kv_cache_bytes);
    }

    void theLongestContextFitsAndOneMoreDoesNot() {
        Decoder d;
        graph::DimBindings bindings;
        bindings.decode = 64;
        load_decoder(d, 2, bindings);
        partition::KernelAssignment a{std::vector<int>(d.kernels.kernels.size(), 0)};
        partition::LlmWorkload w;
        w.context = 100;
        // Room for about 1,000 tokens beside the weights, the activations and the reserve's
        // floor (256 MiB, as long as the capacity is under 5 GiB).
        const auto sized = partition::llm_memory(d.model, d.kernels, a, cluster_of(4), w).pes[0];
        const double bytes =
            static_cast<double>(sized.weight_bytes + sized.activation_bytes + (256ll << 20)) +
            1000.5 * static_cast<double>(sized.kv_bytes_per_token);
        QVERIFY(bytes < 5.0 * (1ll << 30));
        const auto cluster = cluster_of(bytes / (1ll << 30));
        auto got = partition::llm_memory(d.model, d.kernels, a, cluster, w);
        QCOMPARE(got.pools.size(), std::size_t{1});
        const auto longest = got.pools[0].largest_context;
        QVERIFY(longest && std::abs(*longest - 1000) <= 1);
        QVERIFY(*longest < graph::max_context(d.model)); // set by memory, not by the model
        w.context = *longest;
        QVERIFY(partition::llm_memory(d.model, d.kernels, a, cluster, w).fits);
        w.context = *longest + 1;
        got = partition::llm_memory(d.model, d.kernels, a, cluster, w);
        QVERIFY(!got.fits);
        QCOMPARE(got.binding, 0);
        const auto text = got.pools[0].describe();
        QVERIFY2(text.starts_with("h1: KV cache ") && text.find(" > ") != std::string::npos &&
                     text.ends_with(" usable"),
                 text.c_str());
    }

    void tokensPerSecondThroughAPipeline() {
        partition::LlmWorkload w;
        w.batch = 4;
        // One batch in flight waits for every stage: 4 tokens every 50 ms.
        QCOMPARE(partition::pipelined_tokens_per_s(w, 50, 20), 80.0);
        // Two keep two stages busy; five are held to the slowest stage's pace.
        w.sequences = 2;
        QCOMPARE(partition::pipelined_tokens_per_s(w, 50, 20), 160.0);
        w.sequences = 5;
        QCOMPARE(partition::pipelined_tokens_per_s(w, 50, 20), 200.0);
        QCOMPARE(partition::pipelined_tokens_per_s(w, 0, 0), 0.0);
        // A reply of 10 tokens after a first token at 300 ms: each token waits for its step
        // through every stage (50 ms), or, with 5 in flight, for the slowest to serve all five.
        w.generated_tokens = 10;
        w.sequences = 1;
        QCOMPARE(partition::reply_ms(w, 300, 50, 20), 800.0);
        w.sequences = 5;
        QCOMPARE(partition::reply_ms(w, 300, 50, 20), 1300.0);
    }

    void badWorkloadsNameTheirFlag() {
        Decoder d;
        graph::DimBindings bindings;
        bindings.decode = 8;
        load_decoder(d, 1, bindings);
        QCOMPARE(graph::max_context(d.model), std::int64_t{16384});
        const auto refused = [&](partition::LlmWorkload w, const char* flag) {
            try {
                partition::check_workload(d.model, w);
                QFAIL("accepted");
            } catch (const InputError& e) {
                QCOMPARE(e.place(), std::string(flag));
                QVERIFY(std::string(e.what()).find(d.model.file) != std::string::npos);
            }
        };
        partition::LlmWorkload w;
        w.context = 16385;
        refused(w, "--context");
        w.context = 0;
        refused(w, "--context"); // no context at all
        w.context = 10;
        w.sequences = 0;
        refused(w, "--sequences");
        w.sequences = 1;
        w.generated_tokens = -1;
        refused(w, "--generate");
        w.generated_tokens = 0;
        partition::check_workload(d.model, w);
    }
};

QTEST_GUILESS_MAIN(LlmMemoryTest)
#include "llm_memory_test.moc"
