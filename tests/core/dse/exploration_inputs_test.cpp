// What a search runs over. dse::choose_search_space, which cleave dse and the studio's DSE tab
// both search with: the PEs fastest first (ties in cluster order), --max-pes, energy dropped for a
// PE without power figures, one capacity per host with a note where a device gives none. And
// dse::prepare_exploration, which builds the kernels, latencies, costs and space from a model and
// a cluster, or says why no search can run.
#include "../input_error_of.hpp"
#include "../library_cluster.hpp"
#include "../partition/tiny_partition_model.hpp"
#include "core/dse/exploration_inputs.hpp"
#include "core/input_error.hpp"
#include "core/partition/mapping_costs.hpp"

#include <QtTest>
#include <cmath>
#include <functional>

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

QString input_error(const std::function<void()>& call) {
    return QString::fromStdString(test::place_and_problem_of(call));
}

} // namespace

class ExplorationInputsTest : public QObject {
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

    // The four-kernel model on three Xavier NX hosts: six PEs with latencies, the two fastest
    // searched, their costs over the kernels ort-cpu's rules make.
    void preparedInputsHoldTheChosenSpace() {
        dse::ExplorationOptions options;
        options.max_pes = 2;
        options.latency_objective = true;
        options.replay_inputs = 5;
        const auto inputs =
            dse::prepare_exploration(test::tiny_partition_model(), test::tiny_cluster(), options);
        const auto kernel_count = static_cast<int>(inputs->kernels.kernels.size());
        QCOMPARE(kernel_count, 4); // ort-cpu fuses none of its four nodes
        QCOMPARE(inputs->costs->kernel_count(), kernel_count);
        QCOMPARE(inputs->searchable.kernel_ms.size(), std::size_t{6});
        QCOMPARE(inputs->space->pes().size(), std::size_t{2});
        QCOMPARE(inputs->searchable.pes, inputs->space->pes());
        // The fastest two by summed latency, fastest first.
        const auto total = [&](int pe) {
            double sum = 0;
            for (const double ms : inputs->searchable.kernel_ms[static_cast<std::size_t>(pe)])
                sum += ms;
            return sum;
        };
        const int first = inputs->space->pes()[0], second = inputs->space->pes()[1];
        QVERIFY(total(first) <= total(second));
        for (int pe = 0; pe < 6; ++pe)
            if (pe != first && pe != second)
                QVERIFY(total(pe) >= total(second));
        QVERIFY(inputs->space->objectives().energy);
        QVERIFY(inputs->space->objectives().latency);
        QCOMPARE(inputs->space->replay_inputs(), 5);
        QCOMPARE(inputs->space->capacities().size(), std::size_t{3});
        QCOMPARE(inputs->notes,
                 (std::vector<std::string>{"searching the 2 fastest of 6 PEs (--max-pes)"}));
        QCOMPARE(inputs->cluster.file, std::string("tiny.cluster.json"));
    }

    void noSearchWithoutTwoPesOrWithBadOptions() {
        // One Raspberry Pi 4: one PE, nothing to split across.
        QCOMPARE(input_error([] {
                     dse::prepare_exploration(test::tiny_partition_model(),
                                              test::library_cluster({"raspberry-pi-4"}), {});
                 }),
                 QString("--cluster: a search needs at least 2 PEs with kernel latencies, found 1; "
                         "energy is no objective: h1_arm0123 has no power figure"));
        dse::ExplorationOptions negative;
        negative.max_pes = -1;
        QCOMPARE(input_error([&] {
                     dse::prepare_exploration(test::tiny_partition_model(), test::tiny_cluster(),
                                              negative);
                 }),
                 QString("--max-pes: 0 (every PE) or more"));
        dse::ExplorationOptions rules;
        rules.rules = "no-such-rules";
        QVERIFY(input_error([&] {
                    dse::prepare_exploration(test::tiny_partition_model(), test::tiny_cluster(),
                                             rules);
                }).startsWith("no-such-rules: no such rule set; expected one of "));
        // --max-pes 1 leaves one PE: the note says why, after the count.
        dse::ExplorationOptions one;
        one.max_pes = 1;
        QCOMPARE(input_error([&] {
                     dse::prepare_exploration(test::tiny_partition_model(), test::tiny_cluster(),
                                              one);
                 }),
                 QString("--cluster: a search needs at least 2 PEs with kernel latencies, found 1; "
                         "searching the 1 fastest of 6 PEs (--max-pes)"));
    }
};

QTEST_GUILESS_MAIN(ExplorationInputsTest)
#include "exploration_inputs_test.moc"
