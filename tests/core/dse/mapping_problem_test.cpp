// The pagmo problem on the hand-computable four-kernel model (tests/core/partition): objectives
// normalised by the best single PE, the penalties (memory overflow, PEs waiting on each other),
// and pagmo's view of the genes.
#include "../partition/tiny_partition_model.hpp"
#include "core/dse/mapping_problem.hpp"
#include "core/partition/mapping_costs.hpp"

#include <QtTest>
#include <pagmo/problem.hpp>

using namespace cleave;

namespace {

constexpr int kH1Gpu = 1, kH2Gpu = 3, kH3Gpu = 5;

// Latencies in ms: kernel k on h1 takes k + 1, on h2 10 (k + 1), on h3 0.5; CPUs 100 each.
std::vector<std::vector<double>> tiny_latencies() {
    return {{100, 100, 100, 100}, {1, 2, 3, 4},         {100, 100, 100, 100},
            {10, 20, 30, 40},     {100, 100, 100, 100}, {0.5, 0.5, 0.5, 0.5}};
}

constexpr double kAllBytes = 262144 + 4 * 1024 + 1024; // W, the four outputs, the input x

struct Fixture {
    graph::Model model = test::tiny_partition_model();
    fusion::KernelGraph kernels = test::tiny_kernels(model);
    device::Cluster cluster = test::tiny_cluster();
    partition::MappingCosts costs{model, kernels, cluster, tiny_latencies()};
};

dse::GeneLayout spe3() {
    return {dse::Encoding::spe, 4, 3, true};
}

} // namespace

class MappingProblemTest : public QObject {
    Q_OBJECT

private slots:
    void bestSinglePeSetsTheScale() {
        Fixture f;
        const dse::MappingSpace space(f.costs, {kH1Gpu, kH2Gpu, kH3Gpu}, {{}, {}, {}}, {});
        // h3 runs the model in 4 x 0.5 ms at 10 W; every single PE holds all of its bytes.
        QCOMPARE(space.best_single_pe(), (std::vector<double>{2.0, kAllBytes, 20.0}));
        const dse::MappingProblem problem(space, spe3(), space.pes(), dse::Level::analytical);
        QCOMPARE(problem.fitness({0, 4, 2, 0, 0}), (std::vector<double>{1.0, 1.0, 1.0}));
        // h1 alone: 10 ms, 100 mJ.
        QCOMPARE(problem.fitness({0, 0, 0, 2, 2}), (std::vector<double>{5.0, 1.0, 5.0}));
    }

    void memoryOverflowIsPenalisedByItsExcess() {
        Fixture f;
        const std::int64_t capacity = 100000;
        const dse::MappingSpace space(f.costs, {kH1Gpu, kH2Gpu, kH3Gpu}, {{}, capacity, {}}, {});
        const dse::MappingProblem problem(space, spe3(), space.pes(), dse::Level::analytical);
        // The matmul and its weights on h2: W, b out, a in.
        const std::vector<double> genes{1, 2, 0, 1, 2};
        const auto figures = problem.figures(genes);
        const double h2_bytes = 262144 + 1024 + 1024;
        QVERIFY(!figures.feasible());
        QCOMPARE(figures.memory_excess, (h2_bytes - capacity) / capacity);
        const auto normal = space.normalised(space.raw_objectives(figures));
        const auto fitness = problem.fitness(genes);
        for (std::size_t j = 0; j < fitness.size(); ++j)
            QCOMPARE(fitness[j],
                     normal[j] + dse::kInfeasiblePenalty * (1 + (h2_bytes - capacity) / capacity));
        // The same mapping without the limit is feasible and far ahead in every objective.
        const dse::MappingSpace free(f.costs, {kH1Gpu, kH2Gpu, kH3Gpu}, {{}, {}, {}}, {});
        const auto unpenalised =
            dse::MappingProblem(free, spe3(), free.pes(), dse::Level::analytical).fitness(genes);
        QCOMPARE(unpenalised, normal);
        for (const double v : unpenalised)
            QVERIFY(v < dse::kInfeasiblePenalty);
        // More overflow ranks worse: everything on h2.
        const auto worse = problem.fitness({0, 0, 1, 1, 1});
        QVERIFY(worse[1] > fitness[1]);
    }

    // A PE that runs a segment before and after another PE's waits on that PE, which waits on it:
    // AutoDiCE's sub-models cannot run that, so the mapping is infeasible, penalised by its
    // surplus segments to lead the search towards mappings that can run.
    void mappingsWhosePesWaitOnEachOtherAreInfeasible() {
        Fixture f;
        const dse::MappingSpace space(f.costs, {kH1Gpu, kH2Gpu, kH3Gpu}, {{}, {}, {}}, {}, 8);
        const dse::MappingProblem problem(space, spe3(), space.pes(), dse::Level::analytical);
        dse::MappingSpace::Scratch scratch;
        // relu0 on h1, matmul1 on h2, relu2 and add3 on h1: a goes to h2, b comes back.
        const partition::Mapping back{{1, 2}, {kH1Gpu, kH2Gpu, kH1Gpu}};
        const auto figures = space.figures(back, dse::Level::analytical, scratch);
        QVERIFY(figures.waits_on_each_other);
        QVERIFY(!figures.feasible());
        QCOMPARE(figures.surplus_segments, 1);
        const auto normal = space.normalised(space.raw_objectives(figures));
        const auto fitness = problem.fitness({1, 2, 0, 1, 0});
        for (std::size_t j = 0; j < fitness.size(); ++j)
            QCOMPARE(fitness[j], normal[j] + dse::kInfeasiblePenalty * 2);
        // The same by kernel assignment (naive genes, the replay).
        QVERIFY(!space.figures(partition::assignment_of(back, 4), dse::Level::replay, scratch)
                     .feasible());
        // Two surplus segments rank behind one.
        const partition::Mapping twice{{1, 2, 3}, {kH1Gpu, kH2Gpu, kH1Gpu, kH2Gpu}};
        const auto worse = space.figures(twice, dse::Level::analytical, scratch);
        QCOMPARE(worse.surplus_segments, 2);
        QVERIFY(!worse.feasible());
        // A chain over the same PEs runs.
        const auto chain =
            space.figures({{1, 2}, {kH1Gpu, kH2Gpu, kH3Gpu}}, dse::Level::analytical, scratch);
        QVERIFY(chain.feasible());
        QCOMPARE(chain.surplus_segments, 0);
        QVERIFY(problem.fitness({1, 2, 0, 1, 2})[0] < dse::kInfeasiblePenalty);
    }

    void pagmoSeesIntegerGenesAndTheObjectives() {
        Fixture f;
        dse::ObjectiveSet with_latency;
        with_latency.latency = true;
        const dse::MappingSpace space(f.costs, {kH1Gpu, kH2Gpu, kH3Gpu}, {{}, {}, {}}, with_latency);
        const pagmo::problem problem{
            dse::MappingProblem(space, spe3(), space.pes(), dse::Level::analytical)};
        QCOMPARE(problem.get_nobj(), std::size_t(4));
        QCOMPARE(problem.get_nx(), std::size_t(5));
        QCOMPARE(problem.get_nix(), std::size_t(5));
        QCOMPARE(problem.get_nc(), std::size_t(0));
        QCOMPARE(problem.fitness({0, 4, 2, 0, 0}).size(), std::size_t(4));
    }

    void levelTwoTakesThroughputFromTheReplay() {
        Fixture f;
        const dse::MappingSpace space(f.costs, {kH1Gpu, kH2Gpu, kH3Gpu}, {{}, {}, {}}, {}, 8);
        const std::vector<double> genes{1, 3, 0, 1, 2};
        const auto analytical =
            dse::MappingProblem(space, spe3(), space.pes(), dse::Level::analytical).figures(genes);
        const auto replayed =
            dse::MappingProblem(space, spe3(), space.pes(), dse::Level::replay).figures(genes);
        // The replay never runs faster than the slowest stage; memory and energy are the sums.
        QVERIFY(replayed.throughput_per_s <= analytical.throughput_per_s * (1 + 1e-9));
        QVERIFY(replayed.throughput_per_s > 0);
        QCOMPARE(replayed.max_memory_bytes, analytical.max_memory_bytes);
        QCOMPARE(replayed.max_energy_mj, analytical.max_energy_mj);
    }
};

QTEST_APPLESS_MAIN(MappingProblemTest)
#include "mapping_problem_test.moc"
