// dse::choose_search_space, which cleave dse and the studio's DSE tab both search with: the PEs
// fastest first (ties in cluster order), --max-pes, energy dropped for a PE without power
// figures, one capacity per host with a note where a device gives none.
#include "../partition/tiny_partition_model.hpp"
#include "core/dse/exploration_inputs.hpp"
#include "core/partition/mapping_costs.hpp"

#include <QtTest>
#include <cmath>

using namespace cleave;

namespace {

// Summed latency per PE: h1 cpu 400, h1 gpu 10, h2 cpu 400, h2 gpu 100, h3 cpu 400, h3 gpu 2.
std::vector<std::vector<double>> latencies() {
    return {{100, 100, 100, 100}, {1, 2, 3, 4},         {100, 100, 100, 100},
            {10, 20, 30, 40},     {100, 100, 100, 100}, {0.5, 0.5, 0.5, 0.5}};
}

bool mentions(const std::vector<std::string>& notes, const std::string& text) {
    for (const auto& note : notes)
        if (note.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

class SearchSpaceChoiceTest : public QObject {
    Q_OBJECT

private slots:
    void fastestFirstTiesInClusterOrder() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        const auto cluster = test::tiny_cluster();
        const partition::MappingCosts costs(model, kernels, cluster, latencies());
        const auto choice =
            dse::choose_search_space(cluster, {0, 1, 2, 3, 4, 5}, latencies(), &costs, true);
        QCOMPARE(choice.pes, (std::vector<int>{5, 1, 3, 0, 2, 4}));
        QVERIFY(choice.objectives.energy);
        QVERIFY(choice.objectives.latency);
        // The Xavier NX gives 8 GiB: every host constrained, nothing to note.
        QCOMPARE(choice.capacities.size(), std::size_t{3});
        for (const auto& capacity : choice.capacities)
            QCOMPARE(capacity, std::optional<std::int64_t>(std::int64_t{8} << 30));
        QVERIFY(choice.notes.empty());
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
    }

    void maxPesKeepsTheFastest() {
        const auto cluster = test::tiny_cluster();
        const auto choice =
            dse::choose_search_space(cluster, {0, 1, 3, 5}, latencies(), nullptr, false, 2);
        QCOMPARE(choice.pes, (std::vector<int>{5, 1}));
        QVERIFY(mentions(choice.notes, "searching the 2 fastest of 4 PEs (--max-pes)"));
    }

    void energyNeedsEveryPesPowerAndMemoryACapacity() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        auto cluster = test::tiny_cluster();
        auto& h2 = cluster.hosts[1].device;
        h2.memory->capacity_gib.reset();
        // h2's GPU with no power figure at all: none of its own, no power mode, no idle power.
        h2.power->communication_w.reset();
        h2.power->idle_w.reset();
        h2.power->modes_w.clear();
        cluster.pes[3].spec.busy_w.reset();
        cluster.pes[3].spec.tdp_w.reset();
        const partition::MappingCosts costs(model, kernels, cluster, latencies());
        // h2's GPU left out: energy stays an objective.
        auto choice = dse::choose_search_space(cluster, {1, 5}, latencies(), &costs, false);
        QVERIFY(choice.objectives.energy);
        QVERIFY(!choice.capacities[1]);
        QVERIFY(mentions(choice.notes, "host h2 (jetson-xavier-nx) gives no memory capacity"));
        // With it, energy is no objective, and the note says whose power figure is missing.
        choice = dse::choose_search_space(cluster, {1, 3, 5}, latencies(), &costs, false);
        QVERIFY(!choice.objectives.energy);
        QVERIFY(mentions(choice.notes, "energy is no objective: h2_gpu has no power figure"));
    }
};

QTEST_GUILESS_MAIN(SearchSpaceChoiceTest)
#include "search_space_choice_test.moc"
