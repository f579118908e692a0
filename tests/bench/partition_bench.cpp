// Benchmark: evaluating one SPE mapping (split points + a PE per segment) of a model on the
// eight Jetson Xavier NX GPUs of nx8.cluster.json, median ns per evaluation over many random
// mappings (goal: under 5 us for densenet121); also the one-off precompute and the naive
// evaluation of the same assignments for comparison.
// Usage: partition_bench MODEL.onnx CLUSTER.json [--mappings N] [--json FILE]
#include "bench_timing.hpp"
#include "core/device/cluster.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/partition/mapping_costs.hpp"
#include "core/partition/pe_latencies.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

using namespace cleave;

int main(int argc, char** argv) try {
    if (argc < 3) {
        std::fprintf(stderr,
                     "usage: partition_bench MODEL.onnx CLUSTER.json [--mappings N] [--json FILE]\n");
        return 2;
    }
    const std::string model_file = argv[1], cluster_file = argv[2];
    int mapping_count = 10000;
    std::string json_file;
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--mappings")
            mapping_count = std::stoi(argv[i + 1]);
        else if (flag == "--json")
            json_file = argv[i + 1];
    }
    const auto model = graph::load_model(model_file);
    const auto cluster = device::load_cluster(cluster_file);
    const auto kernels = fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
    std::vector<int> gpus;
    for (std::size_t pe = 0; pe < cluster.pes.size(); ++pe)
        if (cluster.pes[pe].kind == device::PeKind::gpu)
            gpus.push_back(static_cast<int>(pe));
    const auto latencies =
        partition::pe_kernel_latencies_ms(model, kernels, cluster, "ort-cpu", gpus);

    const double precompute_s = bench::median_seconds(5, [&] {
        const partition::MappingCosts costs(model, kernels, cluster, latencies);
        (void)costs.kernel_count();
    });
    const partition::MappingCosts costs(model, kernels, cluster, latencies);
    const int K = costs.kernel_count();

    // Random mappings: 7 distinct cuts, the 8 GPUs in a random order.
    std::mt19937 random(1);
    std::vector<partition::Mapping> mappings(static_cast<std::size_t>(mapping_count));
    std::vector<int> cuts(static_cast<std::size_t>(K - 1));
    for (auto& m : mappings) {
        for (std::size_t j = 0; j < cuts.size(); ++j)
            cuts[j] = static_cast<int>(j) + 1;
        std::shuffle(cuts.begin(), cuts.end(), random);
        m.points.assign(cuts.begin(), cuts.begin() + static_cast<std::ptrdiff_t>(gpus.size() - 1));
        std::sort(m.points.begin(), m.points.end());
        m.pes = gpus;
        std::shuffle(m.pes.begin(), m.pes.end(), random);
    }

    partition::Evaluation evaluation;
    std::vector<double> ns;
    ns.reserve(mappings.size());
    double checksum = 0;
    std::size_t transfers = 0;
    for (const auto& m : mappings) {
        const auto start = std::chrono::steady_clock::now();
        costs.evaluate(m, evaluation);
        ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
        checksum += evaluation.throughput_per_s;
        transfers += evaluation.transfers.size();
    }
    std::sort(ns.begin(), ns.end());
    const double median_ns = ns[ns.size() / 2];
    const double p90_ns = ns[ns.size() * 9 / 10];

    const std::size_t naive_count = std::min<std::size_t>(mappings.size(), 1000);
    std::vector<partition::KernelAssignment> assignments;
    for (std::size_t i = 0; i < naive_count; ++i)
        assignments.push_back(partition::assignment_of(mappings[i], K));
    const auto naive_start = std::chrono::steady_clock::now();
    for (const auto& a : assignments)
        checksum += costs.evaluate(a).throughput_per_s;
    const double naive_ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - naive_start).count() /
        static_cast<double>(naive_count);

    std::printf("%s: %d kernels, %zu PEs, precompute %.3f ms\n", model_file.c_str(), K, gpus.size(),
                precompute_s * 1e3);
    std::printf("  SPE evaluation: median %.0f ns, p90 %.0f ns over %zu random mappings "
                "(%.1f transfers each; goal < 5000 ns)\n",
                median_ns, p90_ns, mappings.size(),
                static_cast<double>(transfers) / static_cast<double>(mappings.size()));
    std::printf("  naive evaluation of the same assignments: mean %.0f ns (checksum %.3g)\n",
                naive_ns, checksum);
    if (!json_file.empty()) {
        const nlohmann::ordered_json document{{"model", model_file},
                                              {"kernels", K},
                                              {"pes", gpus.size()},
                                              {"precompute_ms", precompute_s * 1e3},
                                              {"mappings", mappings.size()},
                                              {"spe_median_ns", median_ns},
                                              {"spe_p90_ns", p90_ns},
                                              {"naive_mean_ns", naive_ns},
                                              {"goal_ns", 5000}};
        std::ofstream(json_file) << document.dump(2) << '\n';
    }
    return median_ns < 5000 ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "partition_bench: %s\n", e.what());
    return 2;
}
