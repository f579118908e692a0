// The analytical costs of a mapping, by hand on a four-kernel model and against the naive
// encoding on real models.
#include "core/input_error.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/partition/mapping_costs.hpp"
#include "core/partition/pe_latencies.hpp"
#include "core/predict/predictor.hpp"
#include "core/predict/roofline.hpp"
#include "tiny_partition_model.hpp"

#include <QtTest>
#include <algorithm>
#include <random>

using namespace cleave;
using partition::Evaluation;
using partition::Mapping;
using partition::MappingCosts;

namespace {

constexpr int kH1Cpu = 0, kH1Gpu = 1, kH2Gpu = 3, kH3Gpu = 5;

// Latencies in ms: kernel k on h1 takes k + 1, on h2 10 (k + 1), on h3 0.5; CPUs 100 each.
std::vector<std::vector<double>> tiny_latencies() {
    return {{100, 100, 100, 100}, {1, 2, 3, 4},         {100, 100, 100, 100},
            {10, 20, 30, 40},     {100, 100, 100, 100}, {0.5, 0.5, 0.5, 0.5}};
}

constexpr double kFastLinkMs = 1024 * 8 / 1e9 * 1e3 + 0.1;  // 1 Gbit/s + 100 us
constexpr double kSlowLinkMs = 1024 * 8 / 1e8 * 1e3 + 2.0;  // 0.1 Gbit/s + 2000 us

void compare_evaluations(const Evaluation& a, const Evaluation& b) {
    QCOMPARE(a.pes.size(), b.pes.size());
    for (std::size_t pe = 0; pe < a.pes.size(); ++pe) {
        const auto& x = a.pes[pe];
        const auto& y = b.pes[pe];
        QCOMPARE(x.kernels, y.kernels);
        QVERIFY(std::abs(x.compute_ms - y.compute_ms) <= 1e-9 * (1 + x.compute_ms));
        QVERIFY(std::abs(x.send_ms - y.send_ms) <= 1e-9 * (1 + x.send_ms));
        QVERIFY(std::abs(x.receive_ms - y.receive_ms) <= 1e-9 * (1 + x.receive_ms));
        QCOMPARE(x.weight_bytes, y.weight_bytes);
        QCOMPARE(x.output_bytes, y.output_bytes);
        QCOMPARE(x.input_bytes, y.input_bytes);
    }
    auto ta = a.transfers;
    auto tb = b.transfers;
    const auto order = [](const auto& p, const auto& q) {
        return std::tie(p.tensor, p.to_pe) < std::tie(q.tensor, q.to_pe);
    };
    std::sort(ta.begin(), ta.end(), order);
    std::sort(tb.begin(), tb.end(), order);
    QCOMPARE(ta.size(), tb.size());
    for (std::size_t i = 0; i < ta.size(); ++i) {
        QCOMPARE(ta[i].tensor, tb[i].tensor);
        QCOMPARE(ta[i].from_pe, tb[i].from_pe);
        QCOMPARE(ta[i].to_pe, tb[i].to_pe);
        QCOMPARE(ta[i].bytes, tb[i].bytes);
    }
    QVERIFY(std::abs(a.bottleneck_ms - b.bottleneck_ms) <= 1e-9 * (1 + a.bottleneck_ms));
    QVERIFY(std::abs(a.latency_ms - b.latency_ms) <= 1e-9 * (1 + a.latency_ms));
}

// Random SPE mappings (PEs may repeat) against the naive evaluation of the same assignment.
void compare_random_mappings(const MappingCosts& costs, const std::vector<int>& pes, int count) {
    std::mt19937 random(7);
    Evaluation reused;
    for (int i = 0; i < count; ++i) {
        const int segments = 1 + static_cast<int>(random() % std::min<std::size_t>(8, costs.kernel_count()));
        std::vector<int> all(static_cast<std::size_t>(costs.kernel_count() - 1));
        for (std::size_t j = 0; j < all.size(); ++j)
            all[j] = static_cast<int>(j) + 1;
        std::shuffle(all.begin(), all.end(), random);
        Mapping mapping;
        mapping.points.assign(all.begin(), all.begin() + segments - 1);
        std::sort(mapping.points.begin(), mapping.points.end());
        for (int s = 0; s < segments; ++s)
            mapping.pes.push_back(pes[random() % pes.size()]);
        costs.evaluate(mapping, reused);
        const auto assignment = partition::assignment_of(mapping, costs.kernel_count());
        compare_evaluations(reused, costs.evaluate(assignment));
        // runs_of inverts assignment_of: the same assignment back (neighbouring segments on one
        // PE become one run).
        const auto runs = partition::runs_of(assignment);
        QCOMPARE(partition::assignment_of(runs, costs.kernel_count()).pe_of_kernel,
                 assignment.pe_of_kernel);
        for (std::size_t s = 1; s < runs.pes.size(); ++s)
            QVERIFY(runs.pes[s] != runs.pes[s - 1]);
    }
}

} // namespace

class MappingCostsTest : public QObject {
    Q_OBJECT

private slots:
    void threeSegmentsMatchHandComputedCosts() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        QCOMPARE(kernels.kernels.size(), std::size_t(4));
        const MappingCosts costs(model, kernels, test::tiny_cluster(), tiny_latencies());
        const auto e = costs.evaluate(Mapping{{1, 3}, {kH1Gpu, kH2Gpu, kH3Gpu}});

        const auto& h1 = e.pes[kH1Gpu];
        QCOMPARE(h1.kernels, 1);
        QCOMPARE(h1.compute_ms, 1.0);
        QCOMPARE(h1.send_ms, kFastLinkMs + kSlowLinkMs); // a to h2 and, over the slow link, to h3
        QCOMPARE(h1.receive_ms, 0.0);
        QCOMPARE(h1.memory_bytes(), std::int64_t(1024 + 1024)); // a out, x in
        QCOMPARE(h1.energy_mj, 10 * 1.0 + 2 * (kFastLinkMs + kSlowLinkMs));

        const auto& h2 = e.pes[kH2Gpu];
        QCOMPARE(h2.kernels, 2);
        QCOMPARE(h2.compute_ms, 50.0);
        QCOMPARE(h2.send_ms, kFastLinkMs);    // c
        QCOMPARE(h2.receive_ms, kFastLinkMs); // a
        QCOMPARE(h2.weight_bytes, std::int64_t(262144));
        QCOMPARE(h2.output_bytes, std::int64_t(2048));
        QCOMPARE(h2.input_bytes, std::int64_t(1024));
        QCOMPARE(h2.time_ms(), 50.0 + 2 * kFastLinkMs);

        const auto& h3 = e.pes[kH3Gpu];
        QCOMPARE(h3.compute_ms, 0.5);
        QCOMPARE(h3.receive_ms, kSlowLinkMs + kFastLinkMs);
        QCOMPARE(h3.input_bytes, std::int64_t(2048)); // a and c
        QCOMPARE(h3.output_bytes, std::int64_t(1024)); // d, the graph output

        QCOMPARE(e.bottleneck_ms, 50.0 + 2 * kFastLinkMs);
        QCOMPARE(e.throughput_per_s, 1000.0 / (50.0 + 2 * kFastLinkMs));
        QCOMPARE(e.latency_ms, (1.0 + kFastLinkMs + kSlowLinkMs) + (50.0 + kFastLinkMs) + 0.5);
        QCOMPARE(e.transfers.size(), std::size_t(3));
        QCOMPARE(e.pes[kH1Cpu].kernels, 0);
        QCOMPARE(e.pes[kH1Cpu].energy_mj, 0.0);
    }

    void skipConnectionIsSentOncePerReceivingPe() {
        const auto model = test::tiny_partition_model();
        const MappingCosts costs(model, test::tiny_kernels(model), test::tiny_cluster(),
                                 tiny_latencies());
        const int a = model.find_tensor("/blk/a");
        // a crosses two cuts to two PEs: sent twice. With h2 on both ends it is sent once.
        for (const auto& [pes, sends] :
             std::vector<std::pair<std::vector<int>, int>>{{{kH1Gpu, kH2Gpu, kH3Gpu}, 2},
                                                           {{kH1Gpu, kH2Gpu, kH2Gpu}, 1},
                                                           {{kH1Gpu, kH2Gpu, kH1Gpu}, 1}}) {
            const auto e = costs.evaluate(Mapping{{1, 3}, pes});
            const auto count = std::count_if(e.transfers.begin(), e.transfers.end(),
                                             [&](const auto& t) { return t.tensor == a; });
            QCOMPARE(static_cast<int>(count), sends);
        }
    }

    void pesOfOneHostCommunicateThroughMemory() {
        const auto model = test::tiny_partition_model();
        const MappingCosts costs(model, test::tiny_kernels(model), test::tiny_cluster(),
                                 tiny_latencies());
        const auto e = costs.evaluate(Mapping{{2}, {kH1Gpu, kH1Cpu}});
        QCOMPARE(e.transfers.size(), std::size_t(2)); // a and b
        for (const auto& t : e.transfers)
            QCOMPARE(t.ms, 0.0);
        QCOMPARE(e.pes[kH1Cpu].input_bytes, std::int64_t(2048));
        QCOMPARE(e.pes[kH1Cpu].communication_ms(), 0.0);
        QCOMPARE(e.bottleneck_ms, 200.0);
    }

    void speEqualsNaiveOnTinyModel() {
        const auto model = test::tiny_partition_model();
        const MappingCosts costs(model, test::tiny_kernels(model), test::tiny_cluster(),
                                 tiny_latencies());
        compare_random_mappings(costs, {0, 1, 2, 3, 4, 5}, 300);
    }

    void speEqualsNaiveOnResnet18AndDensenet121() {
        const auto cluster =
            device::load_cluster(std::string(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/nx8.cluster.json");
        std::vector<int> gpus;
        for (std::size_t pe = 0; pe < cluster.pes.size(); ++pe)
            if (cluster.pes[pe].kind == device::PeKind::gpu)
                gpus.push_back(static_cast<int>(pe));
        QCOMPARE(gpus.size(), std::size_t(8));
        for (const char* name : {"resnet18", "densenet121"}) {
            const auto model = graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/" +
                                                 name + ".onnx");
            const auto kernels =
                fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
            const MappingCosts costs(
                model, kernels, cluster,
                partition::pe_kernel_latencies_ms(model, kernels, cluster, "ort-cpu", gpus));
            compare_random_mappings(costs, gpus, 200);
            // One PE runs everything: no transfers, the whole model's weights.
            const auto whole = costs.evaluate(Mapping{{}, {gpus[0]}});
            QVERIFY(whole.transfers.empty());
            QCOMPARE(whole.pes[static_cast<std::size_t>(gpus[0])].kernels, costs.kernel_count());
            QVERIFY(whole.pes[static_cast<std::size_t>(gpus[0])].weight_bytes >
                    model.weight_parameters * 4 * 9 / 10);
        }
    }

    void jetsonGpuPeGetsTheGpuRoofline() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        const auto cluster = test::tiny_cluster();
        const auto rows =
            partition::pe_kernel_latencies_ms(model, kernels, cluster, "ort-cpu", {kH1Gpu});
        QCOMPARE(rows[kH1Gpu].size(), std::size_t(4));
        QVERIFY(rows[kH1Gpu][1] > 0);
        QVERIFY(rows[kH1Cpu].empty());
    }

    void jetsonCpuPeGetsItsDerivedCpuRoofline() {
        // The Carmel CPU is costed on its own roofline (its derived 182.4 GFLOP/s and the CPU
        // launch cost), not the GPU's: every kernel has a latency, none the GPU's.
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        const auto cluster = test::tiny_cluster();
        const auto rows =
            partition::pe_kernel_latencies_ms(model, kernels, cluster, "ort-cpu", {kH1Cpu, kH1Gpu});
        const auto cpu = predict::predict_model(
            predict::roofline_predictor(cluster.hosts[0].device, "ort-cpu", "Carmel CPU complex"),
            model, kernels);
        QCOMPARE(rows[kH1Cpu].size(), std::size_t(4));
        for (std::size_t k = 0; k < 4; ++k) {
            QCOMPARE(rows[kH1Cpu][k], cpu.kernels[k].us / 1e3);
            QVERIFY(rows[kH1Cpu][k] > 0);
            QVERIFY(rows[kH1Cpu][k] != rows[kH1Gpu][k]);
        }
    }

    void peWithoutPeakFiguresIsAnInputError() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        auto cluster = test::tiny_cluster();
        auto& device = cluster.hosts[0].device;
        device.id = "my-nx"; // a device file whose CPU has no peak: no predictor, no roofline
        device.processing_elements[0].peak_gflops = {};
        try {
            partition::pe_kernel_latencies_ms(model, kernels, cluster, "ort-cpu", {kH1Cpu});
            QFAIL("expected an InputError");
        } catch (const InputError& e) {
            const std::string message = e.what();
            QVERIFY2(message.find("h1_arm012345") != std::string::npos, e.what());
            QVERIFY2(message.find("my-nx") != std::string::npos, e.what());
            QVERIFY2(message.find("peak FP32 rate") != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(MappingCostsTest)
#include "mapping_costs_test.moc"
