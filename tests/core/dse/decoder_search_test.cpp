// The NSGA-II search held to a decoder's layers: on generated decoders over heterogeneous
// clusters with random latencies and pools too small for one host, every front mapping cuts only
// where a layer starts, gives each host one stage and fits by the exact plans' count; the front's
// best by time per token and by slowest stage come within 1% of the exact
// optima. The space itself refuses a host running two stages and a cut inside a layer.
#include "../partition/generated_decoder.hpp"
#include "core/device/device_library.hpp"
#include "core/dse/decoder_search.hpp"
#include "core/partition/decoder_plans.hpp"

#include <QtTest>
#include <algorithm>
#include <numeric>
#include <random>

using namespace cleave;

namespace {

struct Setup {
    test::GeneratedDecoder decoder;
    device::Cluster cluster;
    std::unique_ptr<partition::MappingCosts> costs;
    partition::DecoderPlanContext context;
};

// Four hosts of three kinds, kernel latencies random per PE (so no host is fastest for all).
void set_up(Setup& s, unsigned seed) {
    graph::DimBindings bindings;
    bindings.decode = 63;
    test::load_decoder(s.decoder, 3, bindings, 12);
    std::vector<device::ClusterHost> hosts;
    int n = 0;
    for (const char* id :
         {"jetson-orin-nx-16gb", "jetson-orin-nano", "raspberry-pi-5", "jetson-orin-nano"}) {
        const auto device = *device::library_device(id);
        hosts.push_back({"h" + std::to_string(n++), device.id, device, ""});
    }
    s.cluster = device::make_cluster("four.cluster.json", hosts);
    std::mt19937 random(seed);
    std::vector<std::vector<double>> kernel_ms(s.cluster.pes.size());
    for (auto& row : kernel_ms) {
        const double scale = std::uniform_real_distribution<double>(0.5, 3.0)(random);
        for (std::size_t k = 0; k < s.decoder.kernels.kernels.size(); ++k)
            row.push_back(scale * std::uniform_real_distribution<double>(0.01, 0.2)(random));
    }
    s.costs = std::make_unique<partition::MappingCosts>(s.decoder.model, s.decoder.kernels,
                                                        s.cluster, kernel_ms);
    s.context.decode = {&s.decoder.model, &s.decoder.kernels, s.costs.get()};
    s.context.cluster = &s.cluster;
    s.context.usable.resize(s.cluster.pes.size());
    std::iota(s.context.usable.begin(), s.context.usable.end(), 0);
    s.context.workload.context = 64;
}

// Each pool's room cut to `share` of the whole model's memory, so that no host holds it alone.
void shrink_rooms(dse::DecoderSpace& space, double share) {
    const auto whole = space.input.memory_bytes(0, space.input.layers);
    for (auto& pe : space.input.pes)
        pe.room_bytes = static_cast<std::int64_t>(share * static_cast<double>(whole));
    space.space->hold_to_layers(space.input);
}

} // namespace

class DecoderSearchTest : public QObject {
    Q_OBJECT

private slots:
    void frontMeetsTheExactOptima() {
        for (const unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
            Setup s;
            set_up(s, seed);
            auto space = dse::decoder_space(s.context, {false, true, false});
            shrink_rooms(space, 0.45);
            dse::SearchSettings settings;
            settings.population = 40;
            settings.generations = 1000;
            settings.levels = 1;
            settings.seed = seed;
            const auto result = dse::run_search(*space.space, settings);
            QVERIFY(!result.front.empty());
            const auto& in = space.input;
            for (const auto& solution : result.front) {
                QVERIFY(solution.feasible);
                std::vector<int> hosts;
                int first = 0;
                for (std::size_t st = 0; st < solution.mapping.pes.size(); ++st) {
                    const int end = st < solution.mapping.points.size()
                                        ? solution.mapping.points[st]
                                        : in.cuts.back();
                    const auto at = std::find(in.cuts.begin(), in.cuts.end(), end);
                    QVERIFY(at != in.cuts.end());
                    const int last = static_cast<int>(at - in.cuts.begin());
                    const auto pe = std::find_if(in.pes.begin(), in.pes.end(), [&](const auto& p) {
                        return p.cluster_pe == solution.mapping.pes[st];
                    });
                    QVERIFY(pe != in.pes.end());
                    QVERIFY(in.memory_bytes(first, last) <= pe->room_bytes);
                    QVERIFY(std::find(hosts.begin(), hosts.end(), pe->host) == hosts.end());
                    hosts.push_back(pe->host);
                    first = last;
                }
                QVERIFY(hosts.size() >= 3); // 0.45 of the model per host: three hosts at least
            }
            const auto fastest =
                partition::best_layer_plan(in, partition::PlanObjective::TimePerToken);
            const auto widest =
                partition::best_layer_plan(in, partition::PlanObjective::Bottleneck);
            QVERIFY(fastest && widest);
            const auto plans = dse::decoder_front_plans(s.context, space, result.front);
            QVERIFY(plans.fastest && plans.widest);
            const auto exact_fast =
                partition::decoder_plan(s.context, in, "", "", fastest->mapping);
            const auto exact_wide = partition::decoder_plan(s.context, in, "", "", widest->mapping);
            const double tpot_gap =
                plans.fastest->time_per_token_ms / exact_fast.time_per_token_ms - 1;
            const double bottleneck_gap =
                plans.widest->bottleneck_ms / exact_wide.bottleneck_ms - 1;
            qInfo("seed %u: front %zu, gap time per token %+.4f%%, slowest stage %+.4f%%", seed,
                  result.front.size(), 100 * tpot_gap, 100 * bottleneck_gap);
            QVERIFY(std::abs(tpot_gap) <= 0.01);
            QVERIFY(std::abs(bottleneck_gap) <= 0.01);
            QCOMPARE(plans.fastest->rule, std::string("nsga2-time-per-token"));
            QCOMPARE(plans.widest->rule, std::string("nsga2-bottleneck"));
        }
    }

    void spaceRefusesWhatThePlansCannotBe() {
        Setup s;
        set_up(s, 5);
        auto space = dse::decoder_space(s.context, {false, true, false});
        const auto& in = space.input;
        QVERIFY(in.layers >= 3);
        const int h0 = space.space->pes()[0];
        int other = -1;
        for (const int pe : space.space->pes())
            if (s.costs->host_of(pe) != s.costs->host_of(h0)) {
                other = pe;
                break;
            }
        QVERIFY(other >= 0);
        dse::MappingSpace::Scratch scratch;
        const auto figures = [&](const partition::Mapping& m) {
            return space.space->figures(m, dse::Level::analytical, scratch);
        };
        // Layers split over two hosts: a plan.
        const auto fine = figures({{in.cuts[1]}, {h0, other}});
        QVERIFY(fine.feasible());
        // A host back for a second stage.
        const auto twice = figures({{in.cuts[1], in.cuts[2]}, {h0, other, h0}});
        QVERIFY(twice.breaks_layer_plan);
        QVERIFY(!twice.feasible());
        // A cut inside a layer.
        const auto inside = figures({{in.cuts[1] + 1}, {h0, other}});
        QVERIFY(inside.breaks_layer_plan);
        // Rooms too small for the stages: over by the exact plans' count.
        shrink_rooms(space, 0.1);
        const auto over = figures({{in.cuts[1]}, {h0, other}});
        QVERIFY(over.memory_excess > 0);
        QVERIFY(!over.feasible());
        QCOMPARE(over.max_memory_bytes,
                 std::max(in.memory_bytes(0, 1), in.memory_bytes(1, in.layers)));
    }
};

QTEST_APPLESS_MAIN(DecoderSearchTest)
#include "decoder_search_test.moc"
