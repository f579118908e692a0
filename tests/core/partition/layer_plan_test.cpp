// The exact layer plans: on random small inputs, the dynamic program's optimum for each objective
// against every plan enumerated (hosts in every order, every split of the layers, every PE, under
// memory caps, with links alike and differing); on a generated decoder, the plan's figures
// against MappingCosts and llm_memory on the same mapping; the longest fitting context.
#include "core/device/device_library.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/modelgen/decoder_space.hpp"
#include "core/modelgen/llm_writer.hpp"
#include "core/partition/layer_plan.hpp"
#include "generated_decoder.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <filesystem>
#include <functional>
#include <numeric>
#include <random>

using namespace cleave;
using partition::PlanObjective;

namespace {

partition::LayerPlanInput random_input(std::mt19937& random, bool alike) {
    std::uniform_int_distribution<int> layers(2, 6), hosts(1, 4), pes(1, 2);
    std::uniform_real_distribution<double> ms(0.5, 4.0), hop(0.05, 1.5);
    partition::LayerPlanInput in;
    in.layers = layers(random);
    in.hosts = hosts(random);
    const auto L = static_cast<std::size_t>(in.layers);
    for (std::size_t i = 0; i <= L; ++i)
        in.cuts.push_back(static_cast<int>(3 * i));
    std::vector<std::int64_t> w(L);
    for (auto& x : w)
        x = std::uniform_int_distribution<std::int64_t>(50, 100)(random);
    in.weight_bytes.assign((L + 1) * (L + 1), 0);
    for (std::size_t a = 0; a < L; ++a)
        for (std::size_t b = a + 1; b <= L; ++b)
            in.weight_bytes[a * (L + 1) + b] = in.weight_bytes[a * (L + 1) + b - 1] + w[b - 1];
    in.context = 4;
    in.kv_token_prefix.assign(L + 1, 0);
    for (std::size_t i = 0; i < L; ++i) {
        in.kv_token_prefix[i + 1] = in.kv_token_prefix[i] + 5;
        in.activation_bytes.push_back(std::uniform_int_distribution<std::int64_t>(0, 30)(random));
    }
    int cluster_pe = 0;
    for (int h = 0; h < in.hosts; ++h) {
        const std::int64_t room = std::uniform_int_distribution<std::int64_t>(100, 400)(random);
        for (int p = pes(random); p > 0; --p) {
            partition::LayerPlanInput::Pe pe;
            pe.cluster_pe = cluster_pe++;
            pe.host = h;
            pe.prefix_ms.push_back(0);
            for (std::size_t i = 0; i < L; ++i)
                pe.prefix_ms.push_back(pe.prefix_ms.back() + ms(random));
            pe.room_bytes = p == 2 ? room / 2 : room; // a smaller pool of its own
            in.pes.push_back(pe);
        }
    }
    const auto H = static_cast<std::size_t>(in.hosts);
    in.hop_ms.assign(H * H * (L + 1), 0);
    std::vector<double> per_cut(L + 1);
    for (auto& x : per_cut)
        x = hop(random);
    for (std::size_t h = 0; h < H; ++h)
        for (std::size_t r = 0; r < H; ++r)
            for (std::size_t c = 0; c <= L && h != r; ++c)
                in.hop_ms[(h * H + r) * (L + 1) + c] = alike ? per_cut[c] : hop(random);
    return in;
}

struct Best {
    double latency = std::numeric_limits<double>::infinity();
    double bottleneck = std::numeric_limits<double>::infinity();
};

// Every plan: an order of distinct hosts, a split of the layers, a PE of each host per stage.
Best enumerate(const partition::LayerPlanInput& in) {
    Best best;
    std::vector<int> hosts, pes, counts;
    std::vector<bool> used(static_cast<std::size_t>(in.hosts), false);
    std::function<void(int)> stage = [&](int begin) {
        if (begin == in.layers) {
            const auto plan = partition::layer_plan_of(in, pes, counts);
            int a = 0;
            for (std::size_t s = 0; s < pes.size(); ++s) {
                const auto& pe = *std::find_if(in.pes.begin(), in.pes.end(), [&](const auto& p) {
                    return p.cluster_pe == pes[s];
                });
                if (in.memory_bytes(a, a + counts[s]) > pe.room_bytes)
                    return;
                a += counts[s];
            }
            best.latency = std::min(best.latency, plan.latency_ms);
            best.bottleneck = std::min(best.bottleneck, plan.bottleneck_ms);
            return;
        }
        for (const auto& pe : in.pes) {
            if (used[static_cast<std::size_t>(pe.host)])
                continue;
            used[static_cast<std::size_t>(pe.host)] = true;
            for (int end = begin + 1; end <= in.layers; ++end) {
                pes.push_back(pe.cluster_pe);
                counts.push_back(end - begin);
                stage(end);
                pes.pop_back();
                counts.pop_back();
            }
            used[static_cast<std::size_t>(pe.host)] = false;
        }
    };
    stage(0);
    return best;
}

using Decoder = test::GeneratedDecoder;
using test::load_decoder;

} // namespace

class LayerPlanTest : public QObject {
    Q_OBJECT

private slots:
    void optimaMatchEveryPlanEnumerated() {
        std::mt19937 random(7);
        int feasible = 0, infeasible = 0, differing = 0;
        for (int trial = 0; trial < 300; ++trial) {
            const bool alike = trial % 2 == 0;
            const auto in = random_input(random, alike);
            const auto best = enumerate(in);
            const auto fast = partition::best_layer_plan(in, PlanObjective::TimePerToken);
            const auto wide = partition::best_layer_plan(in, PlanObjective::Bottleneck);
            QCOMPARE(fast.has_value(), std::isfinite(best.latency));
            QCOMPARE(wide.has_value(), std::isfinite(best.bottleneck));
            if (!fast) {
                ++infeasible;
                continue;
            }
            ++feasible;
            differing += alike ? 0 : 1;
            QVERIFY2(std::abs(fast->latency_ms - best.latency) < 1e-9,
                     qPrintable(QString("trial %1: %2 vs %3")
                                    .arg(trial)
                                    .arg(fast->latency_ms)
                                    .arg(best.latency)));
            QVERIFY2(std::abs(wide->bottleneck_ms - best.bottleneck) < 1e-9,
                     qPrintable(QString("trial %1: %2 vs %3")
                                    .arg(trial)
                                    .arg(wide->bottleneck_ms)
                                    .arg(best.bottleneck)));
            // The plans returned are whole and fit.
            int layers = 0;
            for (const int n : wide->layers)
                layers += n;
            QCOMPARE(layers, in.layers);
        }
        QVERIFY(feasible > 100);
        QVERIFY(infeasible > 10);
        QVERIFY(differing > 50);
    }

    void planFiguresAreMappingCostsAndLlmMemory() {
        Decoder d;
        graph::DimBindings bindings;
        bindings.decode = 64;
        load_decoder(d, 3, bindings);
        auto orin = *device::library_device("jetson-orin-nano");
        std::vector<device::ClusterHost> hosts;
        for (const char* host : {"a", "b", "c"})
            hosts.push_back({host, orin.id, orin, ""});
        const auto cluster = device::make_cluster("three.cluster.json", hosts);
        std::mt19937 random(3);
        std::uniform_real_distribution<double> ms(0.01, 0.2);
        std::vector<std::vector<double>> kernel_ms(cluster.pes.size());
        for (auto& row : kernel_ms)
            for (std::size_t k = 0; k < d.kernels.kernels.size(); ++k)
                row.push_back(ms(random));
        const partition::MappingCosts costs(d.model, d.kernels, cluster, kernel_ms);
        partition::LlmWorkload workload;
        workload.context = 64;
        std::vector<int> usable(cluster.pes.size());
        std::iota(usable.begin(), usable.end(), 0);
        const auto in =
            partition::layer_plan_input(d.model, d.kernels, costs, cluster, usable, workload);
        QVERIFY(in.layers >= 2);
        const auto plan = partition::best_layer_plan(in, PlanObjective::TimePerToken);
        QVERIFY(plan.has_value());
        QVERIFY(plan->pes.size() >= 2); // random latencies: one host is not fastest for all
        const auto evaluation = costs.evaluate(plan->mapping);
        // MappingCosts also sends what the first stage's embedding layer makes for every layer
        // (the mask, the rotary angles) to each later stage directly: the program leaves those
        // sends out beyond the second stage.
        double direct = 0;
        for (const auto& t : evaluation.transfers)
            if (t.from_pe == plan->pes[0] && t.to_pe != plan->pes[1])
                direct += t.ms;
        QVERIFY(std::abs(evaluation.latency_ms - (plan->latency_ms + direct)) < 1e-9);
        const auto memory = partition::llm_memory(
            d.model, d.kernels, partition::assignment_of(plan->mapping, costs.kernel_count()),
            cluster, workload);
        QVERIFY(memory.fits);
        int begin = 0;
        for (std::size_t s = 0; s < plan->pes.size(); ++s) {
            const auto& m = memory.pes[static_cast<std::size_t>(plan->pes[s])];
            const int end = begin + plan->layers[s];
            const auto activations = *std::max_element(in.activation_bytes.begin() + begin,
                                                       in.activation_bytes.begin() + end);
            QCOMPARE(plan->memory_bytes[s] - activations, m.weight_bytes + m.kv_cache_bytes);
            qInfo("stage %zu: activations %lld by layer, %lld by llm_memory", s,
                  static_cast<long long>(activations), static_cast<long long>(m.activation_bytes));
            begin = end;
        }
    }

    void longestContextIsTheEdgeOfFitting() {
        std::mt19937 random(11);
        int checked = 0;
        for (int trial = 0; trial < 60; ++trial) {
            auto in = random_input(random, true);
            const auto longest = partition::largest_fitting_context(in, 1000);
            in.context = longest;
            if (longest > 0)
                QVERIFY(partition::best_layer_plan(in, PlanObjective::Bottleneck).has_value());
            if (longest < 1000) {
                in.context = longest + 1;
                QVERIFY(!partition::best_layer_plan(in, PlanObjective::Bottleneck).has_value());
                ++checked;
            }
        }
        QVERIFY(checked > 10);
    }

    void tooManyHostsIsRefused() {
        std::mt19937 random(1);
        auto in = random_input(random, true);
        in.hosts = partition::kMaxExactHosts + 1;
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 partition::best_layer_plan(in, PlanObjective::Bottleneck));
    }
};

QTEST_APPLESS_MAIN(LayerPlanTest)
#include "layer_plan_test.moc"
