// Refining a stage's Pareto mappings onto the PEs the next stage adds (resnet18 on the eight NX
// GPUs): the longest segments are cut where the busier half, by time with the transfer at the
// cut or by bytes held, is least, each second half on an added PE, and no more segments are cut
// than PEs are added.
#include "core/device/cluster.hpp"
#include "core/dse/exploration_inputs.hpp"
#include "core/dse/stage_seeds.hpp"
#include "core/graph/onnx_import.hpp"

#include <QtTest>

using namespace cleave;

class StageSeedsTest : public QObject {
    Q_OBJECT

    std::unique_ptr<dse::ExplorationInputs> inputs_ = dse::prepare_exploration(
        graph::load_model(CLEAVE_EXAMPLE_MODELS_DIR "/resnet18.onnx"),
        device::load_cluster(CLEAVE_EXAMPLE_CLUSTERS_DIR "/nx8.cluster.json"), {});

    const dse::MappingSpace& space() const { return *inputs_->space; }
    int pe(int stage_index) const { return space().pes()[static_cast<std::size_t>(stage_index)]; }

private slots:
    void oneSegmentIsCutWhereTheHalvesAreMostEven() {
        const int kernels = space().costs().kernel_count();
        const auto refined = dse::split_longest_segments(space(), {{}, {pe(0)}}, 1, 2);
        QCOMPARE(refined.points.size(), std::size_t(1));
        QCOMPARE(refined.pes.size(), std::size_t(2));
        QVERIFY(refined.pes[0] != refined.pes[1]);
        // The busier of the two PEs, its compute and the transfer at the cut, is as idle as any
        // cut makes it: the bottleneck of the two-segment mapping, as MappingCosts works it out.
        const auto& costs = space().costs();
        const auto bottleneck = [&](int cut, int first, int second) {
            return costs.evaluate(partition::Mapping{{cut}, {first, second}}).bottleneck_ms;
        };
        const double chosen = bottleneck(refined.points[0], refined.pes[0], refined.pes[1]);
        for (int cut = 1; cut < kernels; ++cut) {
            QVERIFY(chosen <= bottleneck(cut, pe(0), pe(1)) + 1e-9);
            QVERIFY(chosen <= bottleneck(cut, pe(1), pe(0)) + 1e-9);
        }
        // Not the cut that evens the compute alone: early cuts send large activations over the
        // NX boards' Gigabit Ethernet.
        double even = 0;
        int even_cut = 0;
        for (int cut = 1; cut < kernels; ++cut) {
            const double t =
                std::max(costs.kernels_ms(pe(0), 0, cut), costs.kernels_ms(pe(1), cut, kernels));
            if (even_cut == 0 || t < even) {
                even = t;
                even_cut = cut;
            }
        }
        QVERIFY(refined.points[0] != even_cut);
    }

    void byMemoryTheCutEvensTheBytesHeld() {
        const auto& costs = space().costs();
        const int kernels = costs.kernel_count();
        // Coefficients and outputs of the kernels, and with the second half what crosses the cut.
        const auto bytes = [&](int begin, int end) {
            std::int64_t sum = 0;
            for (int k = begin; k < end; ++k)
                sum += costs.weight_bytes(k) + costs.output_bytes(k);
            return sum;
        };
        const auto crossing = [&](int cut) {
            std::int64_t sum = 0;
            for (const auto& t : costs.carried_tensors())
                if (t.producer >= 0 && t.producer < cut && !costs.readers(t).empty() &&
                    costs.readers(t).back() >= cut)
                    sum += t.bytes;
            return sum;
        };
        const auto refined =
            dse::split_longest_segments(space(), {{}, {pe(0)}}, 1, 2, dse::Balance::memory);
        QCOMPARE(refined.points.size(), std::size_t(1));
        const auto larger = [&](int cut) {
            return std::max(bytes(0, cut), bytes(cut, kernels) + crossing(cut));
        };
        for (int cut = 1; cut < kernels; ++cut)
            QVERIFY(larger(refined.points[0]) <= larger(cut));
        // resnet18 holds most of its coefficients in its last blocks, so the cut by bytes lies
        // later than the cut by time.
        const auto by_time = dse::split_longest_segments(space(), {{}, {pe(0)}}, 1, 2);
        QVERIFY(refined.points[0] > by_time.points[0]);
    }

    void onlyTheLongestSegmentsAreCutOneAddedPeEach() {
        const auto& costs = space().costs();
        const int kernels = costs.kernel_count();
        // Three segments on stage PEs 0, 1, 0; refined from 2 to 3 PEs: one cut, in the longest.
        const partition::Mapping mapping{{4, kernels - 3}, {pe(0), pe(1), pe(0)}};
        const auto refined = dse::split_longest_segments(space(), mapping, 2, 3);
        QCOMPARE(refined.pes.size(), std::size_t(4));
        QCOMPARE(std::count(refined.pes.begin(), refined.pes.end(), pe(2)), 1);
        QCOMPARE(refined.points.front(), 4);
        QCOMPARE(refined.points.back(), kernels - 3);
        // Refined from 2 to 4 PEs: the two short segments are cut too, or left alone when a
        // segment has one kernel.
        const partition::Mapping single{{1}, {pe(0), pe(1)}};
        const auto wide = dse::split_longest_segments(space(), single, 2, 4);
        QCOMPARE(wide.pes.size(), std::size_t(3));
        QCOMPARE(wide.points.front(), 1);
    }
};

QTEST_APPLESS_MAIN(StageSeedsTest)
#include "stage_seeds_test.moc"
