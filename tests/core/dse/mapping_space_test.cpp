// What the DSE searches, by hand on the four-kernel model (tests/core/partition): the figures of
// a mapping summed per host, its objectives normalised by the best single PE, a measured level 2,
// the PEs a space refuses, objectives read by name, and a mapping's identity and key.
#include "../input_error_of.hpp"
#include "../library_cluster.hpp"
#include "../partition/tiny_partition_model.hpp"
#include "core/dse/mapping_space.hpp"
#include "core/input_error.hpp"
#include "core/partition/mapping_costs.hpp"

#include <QtTest>
#include <cmath>
#include <functional>

using namespace cleave;
using partition::Mapping;

namespace {

constexpr int kH1Cpu = 0, kH1Gpu = 1, kH2Gpu = 3, kH3Gpu = 5;

// Latencies in ms: kernel k on h1 takes k + 1, on h2 10 (k + 1), on h3 0.5; CPUs 100 each.
std::vector<std::vector<double>> tiny_latencies() {
    return {{100, 100, 100, 100}, {1, 2, 3, 4},         {100, 100, 100, 100},
            {10, 20, 30, 40},     {100, 100, 100, 100}, {0.5, 0.5, 0.5, 0.5}};
}

constexpr double kWBytes = 262144;
constexpr double kAllBytes = kWBytes + 4 * 1024 + 1024;    // W, the four outputs, the input x
constexpr double kSlowLinkMs = 1024 * 8 / 1e8 * 1e3 + 2.0; // h1-h3: 0.1 Gbit/s + 2000 us

struct Fixture {
    graph::Model model = test::tiny_partition_model();
    fusion::KernelGraph kernels = test::tiny_kernels(model);
    device::Cluster cluster = test::tiny_cluster();
    partition::MappingCosts costs{model, kernels, cluster, tiny_latencies()};
};

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * (1 + std::abs(b));
}

QString input_error(const std::function<void()>& call) {
    return QString::fromStdString(test::place_and_problem_of(call));
}

} // namespace

class MappingSpaceTest : public QObject {
    Q_OBJECT

private slots:
    void twoPesSplitTheModelAsWorkedOutByHand() {
        Fixture f;
        const dse::MappingSpace space(f.costs, {kH1Gpu, kH3Gpu}, {{}, {}, {}}, {true, true});
        QCOMPARE(space.pes(), (std::vector<int>{kH1Gpu, kH3Gpu}));
        QCOMPARE(space.capacities().size(), std::size_t{3}); // one per host
        QCOMPARE(space.objectives().count(), 4);
        // Alone, h1 takes 10 ms and 100 mJ, h3 2 ms and 20 mJ; each holds every byte.
        QCOMPARE(space.best_single_pe(), (std::vector<double>{2.0, kAllBytes, 20.0, 2.0}));

        // relu0 and matmul1 on h1, relu2 and add3 on h3: a and b cross the slow h1-h3 link.
        dse::MappingSpace::Scratch scratch;
        const auto f2 =
            space.figures(Mapping{{2}, {kH1Gpu, kH3Gpu}}, dse::Level::analytical, scratch);
        const double h1_ms = 1 + 2 + 2 * kSlowLinkMs;
        QVERIFY(near(f2.bottleneck_ms, h1_ms));
        QVERIFY(near(f2.throughput_per_s, 1000 / h1_ms));
        // h1 holds W, a and b out and x in; h3 a and b in, c and d out.
        QCOMPARE(f2.max_memory_bytes, std::int64_t(kWBytes + 2048 + 1024));
        // h1 computes 3 ms at 10 W and sends 2 tensors at 2 W.
        QVERIFY(near(f2.max_energy_mj, 10 * 3 + 2 * 2 * kSlowLinkMs));
        QVERIFY(near(f2.latency_ms, 3 + 2 * kSlowLinkMs + 1));
        QVERIFY(f2.feasible());
        QCOMPARE(f2.surplus_segments, 0);

        const auto raw = space.raw_objectives(f2);
        QCOMPARE(raw.size(), std::size_t{4});
        QVERIFY(near(raw[0], h1_ms));
        QCOMPARE(raw[1], kWBytes + 3072);
        QVERIFY(near(raw[3], f2.latency_ms));
        const auto normal = space.normalised(raw);
        QVERIFY(near(normal[0], h1_ms / 2));
        QVERIFY(near(normal[1], (kWBytes + 3072) / kAllBytes));
        QVERIFY(near(normal[2], raw[2] / 20));
        QVERIFY(near(normal[3], raw[3] / 2));
    }

    void pesOfOneHostAddUpAndSendForFree() {
        Fixture f;
        const dse::MappingSpace space(f.costs, {kH1Cpu, kH1Gpu}, {{}, {}, {}}, {});
        dse::MappingSpace::Scratch scratch;
        // h1's GPU runs relu0 and matmul1, its CPU relu2 and add3 (100 ms each at 5 W).
        const auto figures =
            space.figures(Mapping{{2}, {kH1Gpu, kH1Cpu}}, dse::Level::analytical, scratch);
        QCOMPARE(figures.bottleneck_ms, 200.0);
        QCOMPARE(figures.latency_ms, 203.0);
        // Both PEs' bytes on one host: a and b held by the producer and by the reader.
        QCOMPARE(figures.max_memory_bytes, std::int64_t(kAllBytes + 2048));
        QCOMPARE(figures.max_energy_mj, 10 * 3.0 + 5 * 200.0);
        QCOMPARE(space.raw_objectives(figures).size(), std::size_t{3});
    }

    void aHostOverItsCapacityIsInfeasibleByItsExcess() {
        Fixture f;
        const std::int64_t capacity = 200000;
        const dse::MappingSpace space(f.costs, {kH1Gpu, kH3Gpu}, {capacity, {}, {}}, {});
        QCOMPARE(space.capacities()[0], std::optional<std::int64_t>(capacity));
        dse::MappingSpace::Scratch scratch;
        const auto figures =
            space.figures(Mapping{{2}, {kH1Gpu, kH3Gpu}}, dse::Level::analytical, scratch);
        QVERIFY(!figures.feasible());
        QVERIFY(near(figures.memory_excess, (kWBytes + 3072 - capacity) / capacity));
        // The weights on h3 instead: both hosts within their capacities.
        QVERIFY(space.figures(Mapping{{1}, {kH1Gpu, kH3Gpu}}, dse::Level::analytical, scratch)
                    .feasible());
    }

    void pesThatWaitOnEachOtherCountTheirSurplusSegments() {
        Fixture f;
        const dse::MappingSpace space(f.costs, {kH1Gpu, kH3Gpu}, {{}, {}, {}}, {});
        dse::MappingSpace::Scratch scratch;
        // h1, h3, h1, h3: four runs on two PEs, each needing the other's tensors.
        const partition::KernelAssignment zigzag{{kH1Gpu, kH3Gpu, kH1Gpu, kH3Gpu}};
        const auto figures = space.figures(zigzag, dse::Level::analytical, scratch);
        QVERIFY(figures.waits_on_each_other);
        QVERIFY(!figures.feasible());
        QCOMPARE(figures.surplus_segments, 2);
        // The same as split points.
        const auto by_points = space.figures(Mapping{{1, 2, 3}, {kH1Gpu, kH3Gpu, kH1Gpu, kH3Gpu}},
                                             dse::Level::analytical, scratch);
        QCOMPARE(by_points.surplus_segments, 2);
        QCOMPARE(by_points.max_memory_bytes, figures.max_memory_bytes);
    }

    void aMeasuredLevelTwoTakesTheRunsThroughput() {
        Fixture f;
        dse::MappingSpace space(f.costs, {kH1Gpu, kH3Gpu}, {{}, {}, {}}, {}, 8);
        QVERIFY(!space.measured());
        dse::MappingSpace::Scratch scratch;
        const Mapping split{{2}, {kH1Gpu, kH3Gpu}};
        const auto replayed = space.figures(split, dse::Level::replay, scratch);
        QVERIFY(replayed.throughput_per_s > 0);

        std::vector<std::vector<int>> measured;
        bool fail = false;
        space.set_measurement([&](const partition::KernelAssignment& assignment) {
            measured.push_back(assignment.pe_of_kernel);
            return dse::MeasuredThroughput{fail ? 0.0 : 125.0, fail};
        });
        QVERIFY(space.measured());
        const auto run = space.figures(split, dse::Level::replay, scratch);
        QCOMPARE(measured, (std::vector<std::vector<int>>{{kH1Gpu, kH1Gpu, kH3Gpu, kH3Gpu}}));
        QCOMPARE(run.throughput_per_s, 125.0);
        QCOMPARE(run.bottleneck_ms, 8.0);
        // Memory, energy and the latency stay the model's.
        QCOMPARE(run.max_memory_bytes, replayed.max_memory_bytes);
        QCOMPARE(run.max_energy_mj, replayed.max_energy_mj);
        QCOMPARE(run.latency_ms, replayed.latency_ms);
        // Level 1 runs nothing.
        space.figures(split, dse::Level::analytical, scratch);
        QCOMPARE(measured.size(), std::size_t{1});
        // A run that fails makes the mapping infeasible.
        fail = true;
        const auto failed = space.figures(split, dse::Level::replay, scratch);
        QVERIFY(!failed.feasible());
        QCOMPARE(failed.memory_excess, 1.0);
        // One whose PEs would wait on each other is not started.
        space.figures(partition::KernelAssignment{{kH1Gpu, kH3Gpu, kH1Gpu, kH3Gpu}},
                      dse::Level::replay, scratch);
        QCOMPARE(measured.size(), std::size_t{2});
    }

    void aSpaceRefusesPesItCannotSearch() {
        Fixture f;
        auto latencies = tiny_latencies();
        latencies[kH2Gpu].clear();
        const partition::MappingCosts costs(f.model, f.kernels, f.cluster, latencies);
        QCOMPARE(input_error([&] { (void)dse::MappingSpace(costs, {}, {}, {}); }),
                 QString("--cluster: the search needs at least one PE with kernel latencies"));
        QCOMPARE(input_error([&] {
                     (void)dse::MappingSpace(costs, {kH1Gpu, kH2Gpu}, {}, {});
                 }),
                 QString("--cluster: PE 3 has no kernel latencies"));
        QCOMPARE(input_error([&] {
                     (void)dse::MappingSpace(costs, {kH1Gpu, 6}, {}, {});
                 }),
                 QString("--cluster: PE 6 has no kernel latencies"));
        QCOMPARE(input_error([&] { (void)dse::MappingSpace(costs, {kH1Gpu}, {}, {}, 1); }),
                 QString("--replay-inputs: the replay needs at least 2 inputs"));
        // Energy needs every PE's power; without energy the same PE is searched.
        auto cluster = f.cluster;
        auto& h3 = cluster.hosts[2].device;
        h3.power.reset();
        for (auto& pe : cluster.pes)
            if (pe.host_index == 2) {
                pe.spec.busy_w.reset();
                pe.spec.tdp_w.reset();
            }
        const partition::MappingCosts powerless(f.model, f.kernels, cluster, tiny_latencies());
        QCOMPARE(input_error([&] {
                     (void)dse::MappingSpace(powerless, {kH1Gpu, kH3Gpu}, {}, {});
                 }),
                 QString("--cluster: PE 5 has no power figure, so energy cannot be an objective"));
        const dse::MappingSpace without_energy(powerless, {kH1Gpu, kH3Gpu}, {}, {false, false});
        QCOMPARE(without_energy.best_single_pe(), (std::vector<double>{2.0, kAllBytes}));
    }

    void objectivesAreReadByName() {
        using dse::Objective;
        const std::vector<double> values{2.0, 1e6, 30.0, 7.0};
        const dse::ObjectiveSet all{true, true};
        QCOMPARE(all.value(values, Objective::latency_ms), 7.0);
        QCOMPARE(all.index(Objective::max_energy_mj), 2);
        const dse::ObjectiveSet no_energy{false, true};
        QCOMPARE(no_energy.index(Objective::latency_ms), 2);
        QCOMPARE(no_energy.index(Objective::max_energy_mj), -1);
        QVERIFY(std::isnan(no_energy.value(values, Objective::max_energy_mj)));
        const dse::ObjectiveSet two{false, false};
        QCOMPARE(two.value(values, Objective::max_memory_bytes), 1e6);
        QVERIFY(std::isnan(two.value(values, Objective::latency_ms)));
        QCOMPARE(dse::objective_names(no_energy),
                 (std::vector<std::string>{"bottleneck_ms", "max_memory_bytes", "latency_ms"}));
        QCOMPARE(dse::objective_names(all),
                 (std::vector<std::string>{"bottleneck_ms", "max_memory_bytes", "max_energy_mj",
                                           "latency_ms"}));
        const dse::ObjectiveSet decoder{false, true, false};
        QCOMPARE(decoder.count(), 2);
        QCOMPARE(decoder.index(Objective::latency_ms), 1);
        QCOMPARE(decoder.index(Objective::max_memory_bytes), -1);
    }

    void objectivesAreParsedFromTheirNames() {
        const auto named = [](const std::string& list) {
            return dse::objective_names(dse::parse_objectives(list, "--objectives"));
        };
        QCOMPARE(named("time-per-token,tokens-per-s"),
                 (std::vector<std::string>{"bottleneck_ms", "latency_ms"}));
        QCOMPARE(named("energy,memory"),
                 (std::vector<std::string>{"bottleneck_ms", "max_memory_bytes", "max_energy_mj"}));
        QCOMPARE(named("bottleneck"), (std::vector<std::string>{"bottleneck_ms"}));
        for (const char* bad : {"latency,time-per-token", "speed", "", "memory,,energy"})
            QVERIFY_THROWS_EXCEPTION(InputError, dse::parse_objectives(bad, "--objectives"));
    }

    void aMappingIsIdentifiedByIndexAndShownByKey() {
        const auto cluster = test::tiny_cluster();
        const Mapping split{{1, 3}, {kH1Gpu, kH2Gpu, kH3Gpu}};
        QCOMPARE(dse::mapping_id(split), std::string("1,3,|1,3,5,"));
        QCOMPARE(dse::mapping_key(split, cluster), std::string("1,3|h1_gpu,h2_gpu,h3_gpu"));
        const Mapping whole{{}, {kH3Gpu}};
        QCOMPARE(dse::mapping_id(whole), std::string("|5,"));
        QCOMPARE(dse::mapping_key(whole, cluster), std::string("|h3_gpu"));
    }

    // Two Raspberry Pi 4 hosts, one CPU PE each: both searchable, with one latency per kernel,
    // the same on the same device.
    void predictedLatenciesCoverEveryKernelOfEachSearchablePe() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        auto cluster = test::library_cluster({"raspberry-pi-4", "raspberry-pi-4"});
        QCOMPARE(cluster.pes.size(), std::size_t{2});
        const auto searchable = dse::predict_searchable_pes(model, kernels, cluster, "ort-cpu", "");
        QCOMPARE(searchable.pes, (std::vector<int>{0, 1}));
        QVERIFY(searchable.notes.empty());
        QCOMPARE(searchable.kernel_ms.size(), std::size_t{2});
        QCOMPARE(searchable.kernel_ms[0].size(), std::size_t{4});
        for (const double ms : searchable.kernel_ms[0])
            QVERIFY(ms > 0);
        QCOMPARE(searchable.kernel_ms[0], searchable.kernel_ms[1]);
        // The matmul (65,536 MACs) takes longer than a Relu of 256 values.
        QVERIFY(searchable.kernel_ms[0][1] > searchable.kernel_ms[0][0]);

        // The second host's device stripped of its figures: left out, with a note.
        cluster.hosts[1].device.id = "pi-without-figures";
        cluster.hosts[1].device.processing_elements[0].peak_gflops = {};
        cluster.pes[1].spec.peak_gflops = {};
        const auto left = dse::predict_searchable_pes(model, kernels, cluster, "ort-cpu", "");
        QCOMPARE(left.pes, (std::vector<int>{0}));
        QVERIFY(left.kernel_ms[1].empty());
        QCOMPARE(left.notes.size(), std::size_t{1});
        QVERIFY2(left.notes[0].rfind("left out h2_", 0) == 0, left.notes[0].c_str());
    }
};

QTEST_APPLESS_MAIN(MappingSpaceTest)
#include "mapping_space_test.moc"
