// The replay of a mapping over a stream of inputs, and peak-live memory, by hand on the
// four-kernel model of tiny_partition_model.hpp.
#include "../modelgen/built_model.hpp"
#include "core/partition/replay.hpp"
#include "tiny_partition_model.hpp"

#include <QtTest>
#include <random>

using namespace cleave;
using partition::KernelAssignment;
using partition::MappingCosts;

namespace {

constexpr int kH1Cpu = 0, kH1Gpu = 1, kH2Gpu = 3, kH3Cpu = 4, kH3Gpu = 5;
constexpr int kH1 = 0, kH3 = 2;
constexpr std::int64_t kWeightBytes = 256 * 256 * 4;
constexpr std::int64_t kTensorBytes = 1024;
constexpr double kSlowLinkMs = 1024 * 8 / 1e8 * 1e3 + 2.0; // h1-h3: 0.1 Gbit/s + 2000 us

// Latencies in ms: kernel k on h1 takes k + 1, on h2 10 (k + 1), on h3 0.5; CPUs 100 each.
std::vector<std::vector<double>> tiny_latencies() {
    return {{100, 100, 100, 100}, {1, 2, 3, 4},         {100, 100, 100, 100},
            {10, 20, 30, 40},     {100, 100, 100, 100}, {0.5, 0.5, 0.5, 0.5}};
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * (1 + std::abs(b));
}

struct Tiny {
    graph::Model model = test::tiny_partition_model();
    fusion::KernelGraph kernels = test::tiny_kernels(model);
    device::Cluster cluster = test::tiny_cluster();
    MappingCosts costs{model, kernels, cluster, tiny_latencies()};
};

} // namespace

class ReplayTest : public QObject {
    Q_OBJECT

private slots:
    void onePeTakesTheSumOfItsKernels() {
        const Tiny tiny;
        const auto r =
            partition::replay(tiny.costs, KernelAssignment{{kH1Gpu, kH1Gpu, kH1Gpu, kH1Gpu}});
        QCOMPARE(r.inputs, 32);
        QVERIFY(near(r.first_latency_ms, 10));
        QVERIFY(near(r.throughput_per_s, 100));
        // Back to back, input n waits for the n before it: 10 (n + 1) ms.
        QVERIFY(near(r.mean_latency_ms, 10 * 33 / 2.0));
        QVERIFY(near(r.makespan_ms, 320));
        QVERIFY(near(r.pes[kH1Gpu].busy_ms, 320));
        QVERIFY(near(r.pes[kH1Gpu].utilisation, 1));
        QCOMPARE(r.pes[kH2Gpu].busy_ms, 0.0);
        QVERIFY(r.links.empty());
    }

    void spacedInputsDoNotQueue() {
        const Tiny tiny;
        const auto r =
            partition::replay(tiny.costs, KernelAssignment{{kH1Gpu, kH1Gpu, kH1Gpu, kH1Gpu}},
                              {.inputs = 8, .interval_ms = 20});
        QCOMPARE(r.latency_ms.size(), std::size_t(8));
        QVERIFY(near(r.mean_latency_ms, 10));
        QVERIFY(near(r.throughput_per_s, 50));
        QVERIFY(near(r.pes[kH1Gpu].utilisation, 80.0 / 150.0));
    }

    void pipelineRunsAtItsSlowestStageWithCommunication() {
        const Tiny tiny;
        // h1's GPU runs kernels 0-2 (6 ms) and sends a and c over the slow link; h3's GPU runs
        // kernel 3 (0.5 ms).
        const partition::Mapping mapping{{3}, {kH1Gpu, kH3Gpu}};
        const auto r = partition::replay(tiny.costs, partition::assignment_of(mapping, 4));
        QVERIFY(near(r.throughput_per_s, 1e3 / (6 + 2 * kSlowLinkMs)));
        QVERIFY(near(r.first_latency_ms, 6 + 2 * kSlowLinkMs + 0.5));
        // Without contention both agree with the paper's model.
        const auto evaluation = tiny.costs.evaluate(mapping);
        QVERIFY(near(r.throughput_per_s, evaluation.throughput_per_s));
        QVERIFY(near(r.first_latency_ms, evaluation.latency_ms));
        QCOMPARE(r.links.size(), std::size_t(1));
        QCOMPARE(r.links[0].host_a, kH1);
        QCOMPARE(r.links[0].host_b, kH3);
        QCOMPARE(r.links[0].transfers, 64);
        QVERIFY(near(r.links[0].busy_ms, 64 * kSlowLinkMs));
        QVERIFY(near(r.pes[kH1Gpu].compute_ms, 32 * 6));
        QVERIFY(near(r.pes[kH3Gpu].busy_ms, 32 * (0.5 + 2 * kSlowLinkMs)));
    }

    void aLinkCarriesOneTransferAtATime() {
        const Tiny tiny;
        const MappingCosts costs(tiny.model, tiny.kernels, tiny.cluster,
                                 std::vector<std::vector<double>>(6, {1, 1, 1, 1}));
        // h1's CPU sends a to h3's CPU (1 ms to 1 + s); h1's GPU has b ready at 2 ms for h3's
        // GPU but the h1-h3 link is busy until 1 + s, so b arrives at 1 + 2s, not 2 + s.
        const auto r = partition::replay(costs, KernelAssignment{{kH1Cpu, kH1Gpu, kH3Gpu, kH3Cpu}},
                                         {.inputs = 1});
        QVERIFY(near(r.first_latency_ms, 3 + 2 * kSlowLinkMs));
        QCOMPARE(r.links.size(), std::size_t(1));
        QCOMPARE(r.links[0].transfers, 2);
        QVERIFY(near(r.links[0].busy_ms, 2 * kSlowLinkMs));
        QVERIFY(near(r.pes[kH1Gpu].busy_ms, 1 + kSlowLinkMs));
    }

    void alternatingPesWaitForEachOtherUnlikeTheSums() {
        const Tiny tiny;
        constexpr double f = 1024 * 8 / 1e9 * 1e3 + 0.1; // h1-h2: 1 Gbit/s + 100 us
        // h1 runs kernels 0 and 2 (1 + 3 ms), h2 kernels 1 and 3 (20 + 40 ms); a, b and c cross.
        const KernelAssignment alternating{{kH1Gpu, kH2Gpu, kH1Gpu, kH2Gpu}};
        const auto r = partition::replay(tiny.costs, alternating, {.inputs = 16});
        const auto evaluation = tiny.costs.evaluate(alternating);
        QVERIFY(near(r.first_latency_ms, 64 + 3 * f));
        QVERIFY(near(r.first_latency_ms, evaluation.latency_ms));
        // h2 is busy 60 + 3f per input, but also waits the 3 ms of relu2 on h1 for c.
        QVERIFY(near(evaluation.throughput_per_s, 1e3 / (60 + 3 * f)));
        QVERIFY(near(r.throughput_per_s, 1e3 / (63 + 3 * f)));
    }

    // A split-point mapping replays from its segments (kernels between sends as one op, from
    // prefix sums) exactly as its kernel assignment does kernel by kernel: on a decoder stack,
    // whose residuals and fan-outs send tensors past several cuts, over random mappings that
    // revisit PEs and cross every link.
    void mappingReplaysAsItsKernelAssignment() {
        const auto model = test::built_model(modelgen::decoder_stack(3, 32, 2, 8, 10));
        const auto kernels = test::tiny_kernels(model);
        const auto cluster = test::tiny_cluster();
        const int K = static_cast<int>(kernels.kernels.size());
        std::mt19937 random(7);
        std::uniform_real_distribution<double> ms(0.01, 2.0);
        std::vector<std::vector<double>> latencies(cluster.pes.size());
        for (auto& row : latencies)
            for (int k = 0; k < K; ++k)
                row.push_back(ms(random));
        const MappingCosts costs{model, kernels, cluster, latencies};
        for (int trial = 0; trial < 200; ++trial) {
            const int segments = 1 + trial % 7;
            std::vector<int> points;
            while (static_cast<int>(points.size()) < segments - 1) {
                const int p = std::uniform_int_distribution<int>(1, K - 1)(random);
                if (std::find(points.begin(), points.end(), p) == points.end())
                    points.push_back(p);
            }
            std::sort(points.begin(), points.end());
            std::vector<int> pes;
            for (int s = 0; s < segments; ++s)
                pes.push_back(std::uniform_int_distribution<int>(
                    0, static_cast<int>(cluster.pes.size()) - 1)(random));
            const partition::Mapping mapping{points, pes};
            const partition::ReplayOptions options{6, trial % 2 ? 0.0 : 3.0};
            const auto a = partition::replay(costs, mapping, options);
            const auto b = partition::replay(costs, partition::assignment_of(mapping, K), options);
            QVERIFY(near(a.first_latency_ms, b.first_latency_ms));
            QVERIFY(near(a.mean_latency_ms, b.mean_latency_ms));
            QVERIFY(near(a.throughput_per_s, b.throughput_per_s));
            QVERIFY(near(a.makespan_ms, b.makespan_ms));
            for (std::size_t pe = 0; pe < a.pes.size(); ++pe) {
                QVERIFY(near(a.pes[pe].compute_ms, b.pes[pe].compute_ms));
                QVERIFY(near(a.pes[pe].busy_ms, b.pes[pe].busy_ms));
            }
            QCOMPARE(a.links.size(), b.links.size());
            for (std::size_t l = 0; l < a.links.size(); ++l) {
                QCOMPARE(a.links[l].transfers, b.links[l].transfers);
                QVERIFY(near(a.links[l].busy_ms, b.links[l].busy_ms));
            }
        }
    }

    void peakLiveMemoryFreesTensorsAfterTheirLastReader() {
        const Tiny tiny;
        // One PE: at add3, W + a (the skip connection) + c + d; x and b are gone.
        const KernelAssignment one{{kH1Gpu, kH1Gpu, kH1Gpu, kH1Gpu}};
        auto peak = partition::peak_live_bytes(tiny.costs, one);
        QCOMPARE(peak[kH1Gpu], kWeightBytes + 3 * kTensorBytes);
        QCOMPARE(tiny.costs.evaluate(one).pes[kH1Gpu].memory_bytes(),
                 kWeightBytes + 5 * kTensorBytes);
        QCOMPARE(peak[kH2Gpu], std::int64_t(0));

        // Split after matmul1: h1 holds x + a, then a + b; h2 receives a and b, and holds a + b + c
        // at relu2, a + c + d at add3.
        const partition::Mapping split{{2}, {kH1Gpu, kH2Gpu}};
        const auto assignment = partition::assignment_of(split, 4);
        peak = partition::peak_live_bytes(tiny.costs, assignment);
        QCOMPARE(peak[kH1Gpu], kWeightBytes + 2 * kTensorBytes);
        QCOMPARE(peak[kH2Gpu], 3 * kTensorBytes);
        const auto evaluation = tiny.costs.evaluate(split);
        QCOMPARE(evaluation.pes[kH2Gpu].memory_bytes(), 4 * kTensorBytes);
    }
};

QTEST_GUILESS_MAIN(ReplayTest)
#include "replay_test.moc"
